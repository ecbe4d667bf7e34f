"""Tasks of the floor app."""

from celery import shared_task


@shared_task(name="casino.ping")
def ping() -> str:
    """Answers "pong": lets a test or an operator prove a worker takes tasks from the broker."""
    return "pong"
