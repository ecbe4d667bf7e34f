"""What audit does when dealing announces rounds (dealing.hooks; subscribed in audit/apps.py)."""

from django.conf import settings

from . import state
from .dispatch import queue_round_audits


def rounds_written(round_ids: list[int]) -> None:
    """Round records just written (inside their transaction): each one's audit row, pending."""
    state.rounds_record_pending(round_ids=round_ids)


def shoe_overfull(shoe_id: int) -> None:
    """A shoe given more rounds than its cards can deal: checked now (its CARD_COUNT findings),
    not only once it ends — a shoe that is never ended would never be checked."""
    from .services import shoe_audit_request

    shoe_audit_request(shoe_id=shoe_id)


def rounds_committed(round_ids: list[int], *, bulk: bool) -> None:
    """Audit rounds once they are committed: queued as Celery tasks (audit/dispatch.py). A bulk load
    without a broker audits them all in-process in one `audit_rounds` task (one transaction)
    instead of one task and commit each."""
    if bulk and settings.CELERY_TASK_ALWAYS_EAGER:
        from .tasks import audit_rounds

        audit_rounds.apply(args=[round_ids], throw=True)
    else:
        queue_round_audits(round_ids)
