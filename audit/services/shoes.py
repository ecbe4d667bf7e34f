"""The shoe checks: burns, fees, card counts and the reshuffle point over a shoe as a whole."""

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import AUDITOR, has_role
from dealing import engine
from dealing.models import Shoe

from .. import rollups
from ..choices import ShoeAuditStatus
from ..models import Finding, ShoeAudit
from .rounds import finding_row, findings_sync, fingerprints


def shoe_audit(*, shoe_id: int) -> ShoeAudit | None:
    """Run the engine's shoe checks (burns, fees, card counts, reshuffle point) over a shoe's events
    and rounds in order, and replace the shoe's findings with what they report."""
    from ..shoes import shoe_items

    version = engine.ENGINE_VERSION
    with transaction.atomic():
        shoe = (
            Shoe.objects.select_for_update(no_key=True, of=("self",)).select_related("table").filter(pk=shoe_id).first()
        )
        if shoe is None:
            return None
        document, items = shoe_items(shoe)
        wanted: dict[tuple, Finding] = {}
        try:
            found = engine.check_shoe(document)
        except engine.RoundError as exc:
            found, status, message = [], ShoeAuditStatus.ERROR, exc.message
        else:
            status = ShoeAuditStatus.FINDINGS if found else ShoeAuditStatus.CLEAN
            message = ""
        for f, fp in zip(found, fingerprints(found)):
            item = items[f.event] if f.event is not None and 0 <= f.event < len(items) else None
            wanted[(shoe.pk, fp)] = finding_row(
                f,
                fp,
                version,
                round_id=None,
                shoe_id=shoe.pk,
                table_id=shoe.table_id,
                dealer_id=item.dealer_id if item else shoe.shuffled_by_id,
                played_at=item.at if item else shoe.loaded_at,
            )
        with rollups.changes(shoe_ids=[shoe.pk]):
            findings_sync(Finding.objects.filter(shoe_id=shoe.pk, round__isnull=True), wanted, scope="shoe_id")
        audit, _created = ShoeAudit.objects.update_or_create(
            shoe=shoe,
            defaults={
                "status": status,
                "findings": len(found),
                "message": message,
                "engine_version": version,
                "rounds": sum(1 for item in items if item.round_id),
                "audited_at": timezone.now(),
            },
        )
    return audit


def shoe_audit_request(*, shoe_id: int, requested_by=None) -> None:
    """Queue a shoe check (an auditor's request on the shoe page; the nightly task for ended shoes)."""
    if requested_by is not None and not has_role(requested_by, AUDITOR):
        raise ServiceError(_("Only auditors start shoe checks."), extra={"code": "forbidden"}, status=403)
    from ..tasks import audit_shoe

    transaction.on_commit(lambda: audit_shoe.delay(shoe_id))


def shoes_to_audit():
    """Ended shoes with no shoe audit since they ended."""
    return Shoe.objects.filter(ended_at__isnull=False).filter(
        Q(audit__isnull=True) | Q(audit__audited_at__lt=F("ended_at"))
    )
