"""Tasks of the floor app."""

from celery import shared_task


@shared_task(name="casino.ping")
def ping() -> str:
    """Answers "pong": lets a test or an operator prove a worker takes tasks from the broker."""
    return "pong"


@shared_task(name="casino.tokens_purge_expired")
def tokens_purge_expired() -> int:
    """Deletes the API tokens whose time is up (Celery beat, hourly). An expired token is refused
    anyway; this keeps the ones never presented again from piling up. How many were deleted."""
    from . import services

    return services.tokens_purge_expired()
