"""Fill and credit slips: the paper that goes with chips between the cage and a table.

    slip_issue(event=, issued_by=)              in the transaction that approves the transfer
    slip_void_request(slip=, asked_by=, reason=)  a pit boss of the pit asks, saying why
    slip_void_confirm(slip=, confirmed_by=)     another pit boss of the pit confirms: voided
    slip_print(slip=, printed_by=)              a print recorded; every one after the first a reprint

A slip is numbered per kind across the whole property (F-000001, F-000002 …; C-000001 …), from a
counter row locked in the issuing transaction: no number twice, and none skipped — a transfer whose
approval rolls back takes its number back with it. A voided slip keeps its number (the books show
it voided, never missing), and the transfer it was for can no longer be received; once the chips
were counted in, the slip stands and a wrong transfer is corrected by one in the other direction.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from dealing.access import staff_of

from .access import SIGNERS
from .choices import CHIP_KINDS, TransferStatus
from .models import FloatEvent, Slip, SlipCounter, SlipPrint

MAX_REASON = 500


def _refuse(message: str, code: str, *, field: str | None = None, status: int = 400) -> ServiceError:
    return ServiceError(message, extra={"code": code, "field": field}, status=status)


def _require_signer(user, slip: Slip) -> None:
    table = slip.event.shift.table
    if not staff_of(user, table, *SIGNERS):
        raise _refuse(
            _("Only a pit boss of pit %(pit)s voids the slips of table %(table)s.")
            % {"pit": table.pit.name, "table": table.name},
            "forbidden",
            status=403,
        )


def slip_issue(*, event: FloatEvent, issued_by) -> Slip:
    """The next number of the event's kind; called inside the approval's transaction."""
    if event.kind not in CHIP_KINDS:
        raise _refuse(_("Only fills and credits have slips."), "kind")
    with transaction.atomic():
        counter, _created = SlipCounter.objects.select_for_update().get_or_create(kind=event.kind)
        counter.last_number += 1
        counter.save(update_fields=["last_number"])
        return Slip.objects.create(event=event, kind=event.kind, number=counter.last_number, issued_by=issued_by)


def _locked(slip: Slip) -> Slip:
    return Slip.objects.select_for_update().select_related("event__shift__table__pit").get(pk=slip.pk)


def slip_void_request(*, slip: Slip, asked_by, reason: str) -> Slip:
    reason = (reason or "").strip()
    if not reason:
        raise _refuse(_("Say why the slip is voided."), "reason_required", field="reason")
    if len(reason) > MAX_REASON:
        raise _refuse(
            _("Keep the reason under %(n)s characters.") % {"n": MAX_REASON}, "reason_too_long", field="reason"
        )
    with transaction.atomic():
        slip = _locked(slip)
        _require_signer(asked_by, slip)
        if slip.voided:
            raise _refuse(_("Slip %(slip)s is already void.") % {"slip": slip.label}, "already_void", status=409)
        if slip.void_pending:
            raise _refuse(
                _("A void of slip %(slip)s is already asked: another pit boss confirms it.") % {"slip": slip.label},
                "void_pending",
                status=409,
            )
        if slip.event.status == TransferStatus.RECEIVED:
            raise _refuse(
                _(
                    "The chips of slip %(slip)s were counted in: the slip stands. Correct a wrong transfer with "
                    "one in the other direction."
                )
                % {"slip": slip.label},
                "received",
                status=409,
            )
        slip.void_reason = reason
        slip.void_requested_by = asked_by
        slip.void_requested_at = timezone.now()
        slip.save(update_fields=["void_reason", "void_requested_by", "void_requested_at"])
        return slip


def slip_void_confirm(*, slip: Slip, confirmed_by) -> Slip:
    with transaction.atomic():
        slip = _locked(slip)
        _require_signer(confirmed_by, slip)
        if not slip.void_pending:
            raise _refuse(_("No void of slip %(slip)s waits for a signature.") % {"slip": slip.label}, "no_void")
        if confirmed_by.pk == slip.void_requested_by_id:
            raise _refuse(
                _("Two signatures: a void is confirmed by a pit boss other than the one who asked for it."),
                "four_eyes",
                status=403,
            )
        slip.voided_by = confirmed_by
        slip.voided_at = timezone.now()
        slip.save(update_fields=["voided_by", "voided_at"])
        return slip


def slip_print(*, slip: Slip, printed_by) -> SlipPrint:
    """Record a print: the first is the original, every later one a REPRINT (the slip says so)."""
    with transaction.atomic():
        slip = _locked(slip)
        return SlipPrint.objects.create(slip=slip, printed_by=printed_by, reprint=slip.prints.exists())


def require_receivable(event: FloatEvent) -> None:
    """Refuse receiving the chips of a transfer whose slip is void or being voided."""
    slip = Slip.objects.filter(event=event).first()
    if slip is None:
        return
    if slip.voided:
        raise _refuse(
            _("Slip %(slip)s is void: its chips are not received.") % {"slip": slip.label}, "slip_void", status=409
        )
    if slip.void_pending:
        raise _refuse(
            _("A void of slip %(slip)s waits for a second signature: settle it first.") % {"slip": slip.label},
            "slip_void_pending",
            status=409,
        )
