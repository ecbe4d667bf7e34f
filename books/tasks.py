"""Celery tasks of the books. Like an API, a task calls a service and keeps retries to itself.

- `signals_scan_daily()` — the integrity signals of the SIGNALS_WINDOW_DAYS days up to yesterday,
  scheduled by Celery beat at SIGNALS_SCAN_HOUR (CELERY_BEAT_SCHEDULE). Idempotent: a redelivery
  scans the same period and stores nothing twice.
"""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .integrity import services


@shared_task(
    name="books.tasks.signals_scan_daily",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=120,
    retry_jitter=True,
    max_retries=8,
)
def signals_scan_daily() -> dict:
    return services.signals_scan_daily().summary()
