"""Celery tasks of audit: one task per stored round (queued on commit by dealing.services).

Like an API, a task takes ids, calls a service and keeps retries to itself.
"""

from celery import shared_task

from dealing import engine
from dealing.choices import AuditStatus


@shared_task(acks_late=True)
def audit_round(round_id: int) -> str:
    """Replay a stored round with the engine and record its audit status."""
    from dealing.models import Round
    from dealing.services import round_record_audit

    record = Round.objects.only("document").get(pk=round_id)
    try:
        outcome = engine.replay(record.document)
    except engine.RoundError:
        status = AuditStatus.ERROR
    else:
        status = AuditStatus.FINDINGS if outcome.findings else AuditStatus.CLEAN
    round_record_audit(round_id=round_id, status=status, engine_version=engine.ENGINE_VERSION)
    return status
