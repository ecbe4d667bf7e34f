from celery import shared_task

from . import services


@shared_task(name="live.events_prune")
def events_prune() -> int:
    """Delete the live events older than LIVE_EVENT_MAX_AGE_H (Celery beat, hourly)."""
    return services.events_prune()
