"""The audit's state on a round (`Round.audit_status`, `engine_version`, `audited_at`): written only
by audit, never by dealing. dealing writes a round once and announces it (dealing.hooks); the
audit's verdict is the only part of a round record that changes after writing."""

from django.utils import timezone

from dealing.choices import AuditStatus
from dealing.models import Round


def round_record_audit(*, round_id: int, status: str, engine_version: str) -> None:
    """The audit's verdict on a round (audit.services records many at once the same way)."""
    if status not in AuditStatus.values:
        raise ValueError(status)
    Round.objects.filter(pk=round_id).update(audit_status=status, engine_version=engine_version,
                                             audited_at=timezone.now())
