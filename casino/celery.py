"""The Celery app, `casino.celery:app` (`celery -A casino worker`).

Its configuration is the CELERY_* names of the Django settings: with CELERY_BROKER_URL unset the
tasks run eagerly in the calling process, with it set they go to that broker.
"""

import os
from pathlib import Path

from celery import Celery, signals
from celery.beat import PersistentScheduler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds `tasks.py` in every installed app (audit/tasks.py, ...).
app.autodiscover_tasks()


@signals.task_postrun.connect
def _close_old_connections(sender=None, **kwargs):
    """A worker keeps its database connection from task to task for CONN_MAX_AGE seconds, as a web
    process does from request to request, and drops one that failed. (Celery's own Django fixup
    closes every connection before and after each task unless CELERY_DB_REUSE_MAX is set — set in
    casino/settings.py so that this handler decides: a fresh PostgreSQL backend for each audit chunk
    costs a process start and, with DB_PREPARED_STATEMENTS, every statement prepared again.)"""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # in the caller's process and transaction (tests, no broker): not ours to close
    from django.db import close_old_connections

    close_old_connections()


class Scheduler(PersistentScheduler):
    """Celery beat's scheduler (CELERY_BEAT_SCHEDULER), keeping when each entry last ran in the file
    CELERY_BEAT_SCHEDULE_FILE, whose directory it creates: the default is under the project's var/,
    which a fresh checkout does not have (beat would fail to open its shelf)."""

    def setup_schedule(self):
        Path(self.schedule_filename).parent.mkdir(parents=True, exist_ok=True)
        super().setup_schedule()
