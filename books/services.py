"""Writes of the books. Every operation checks who may do it (books.access, dealing's pit checks)
and what it is given before anything is stored; a refusal is a `ServiceError` with a sentence, a
`code` and, when it is about one input, the `field` (the forms and the API put it next to it).
Each locks the shift's row, so two people acting at once are taken one after the other.

    shift_open(table=, counted_by=, counts=, total=None)        the dealer's opening count
    shift_open_sign(shift=, signed_by=)                          the pit boss's signature → open
    transfer_request(shift=, kind=fill|credit, counts=, requested_by=, total=None)
    transfer_approve(event=, approved_by=)                       a pit boss, not the requester; issues the slip
    transfer_receive(event=, received_by=, counts=)              counted in at the table
    cash_record(shift=, kind=chips_sold|drop, amount=, recorded_by=)
    shift_count_closing(shift=, counted_by=, counts=, total=None)
    shift_explain(shift=, explained_by=, text=)                  a pit boss, not the counter
    shift_close(shift=, closed_by=)                              a pit boss, not the counter
"""

from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from casino.validators import digits_problem
from dealing import services as dealing_services
from dealing.access import staff_of
from dealing.engine.errors import RoundError
from dealing.engine.money import parse_amount
from dealing.models import TerminalDraft

from . import selectors
from .access import COUNTERS, HANDLERS, SIGNERS
from .choices import CASH_KINDS, CHIP_KINDS, EventKind, ShiftStatus, TransferStatus
from .models import FloatEvent, TableShift
from .slips import require_receivable, slip_issue

MAX_CHIPS = 1_000_000  # chips of one denomination in one count: more is a typing error


def _refuse(message: str, code: str, *, field: str | None = None, status: int = 400) -> ServiceError:
    return ServiceError(message, extra={"code": code, "field": field}, status=status)


def _require(user, table: Table, roles, message: str) -> None:
    if not staff_of(user, table, *roles):
        raise _refuse(message % {"pit": table.pit.name, "table": table.name}, "forbidden", status=403)


def tolerance_default() -> Decimal:
    return Decimal(str(getattr(settings, "BOOKS_VARIANCE_TOLERANCE", "0")))


# --- counts ------------------------------------------------------------------------------------------


def read_count(table: Table, counts, total=None, *, field: str = "counts", allow_empty: bool = True) -> dict[str, int]:
    """A count by denomination, {denomination: number of chips}, checked against the table's chips;
    `total`, when given, must be what the chips add up to. Returns the canonical count (every
    denomination of the table, zeros included)."""
    denoms = selectors.denominations(table)
    if not denoms:
        raise _refuse(
            _("Table %(table)s has no chips set up: an administrator sets its denominations first.")
            % {"table": table.name},
            "no_chips",
            field=field,
        )
    if not isinstance(counts, dict):
        raise _refuse(
            _('A count gives the number of chips of each denomination, e.g. {"100": 20}.'), "count_shape", field=field
        )
    by_value = {Decimal(d): d for d in denoms}
    out = {d: 0 for d in denoms}
    for key, n in counts.items():
        try:
            denom = by_value.get(Decimal(str(key))) if str(key).isascii() else None
        except InvalidOperation:
            denom = None
        if denom is None:
            raise _refuse(
                _("%(chip)s is not a chip of table %(table)s (its chips: %(chips)s).")
                % {"chip": key, "table": table.name, "chips": ", ".join(denoms)},
                "unknown_chip",
                field=field,
            )
        if n in (None, ""):
            n = 0
        if isinstance(n, bool) or not isinstance(n, int | str):
            raise _refuse(
                _("The number of %(chip)s chips must be a whole number.") % {"chip": denom}, "chip_count", field=field
            )
        try:
            if isinstance(n, str) and digits_problem(n) is not None:
                raise ValueError(n)  # ٣ or ３: int() reads them as 3
            n = int(n)
        except ValueError:
            raise _refuse(
                _("The number of %(chip)s chips must be a whole number.") % {"chip": denom}, "chip_count", field=field
            ) from None
        if n < 0 or n > MAX_CHIPS:
            raise _refuse(
                _("The number of %(chip)s chips must be between 0 and %(max)d.") % {"chip": denom, "max": MAX_CHIPS},
                "chip_count",
                field=field,
            )
        out[denom] += n
    value = selectors.count_value(out)
    if total not in (None, ""):
        try:
            declared = parse_amount(total, "total", allow_zero=True)
        except RoundError:
            raise _refuse(_("The total must be an amount with at most 2 decimals."), "total", field="total") from None
        if selectors.money(declared) != value:
            raise _refuse(
                _("The count does not add up: the chips make %(value)s, not %(total)s.")
                % {"value": f"{value:f}", "total": f"{selectors.money(declared):f}"},
                "count_total",
                field="total",
            )
    if not allow_empty and value == 0:
        raise _refuse(_("Count at least one chip."), "empty_count", field=field)
    return out


def _amount(value, field: str = "amount") -> Decimal:
    try:
        return selectors.money(parse_amount(value, field))
    except RoundError:
        raise _refuse(
            _('An amount is a positive number with at most 2 decimals, such as 500 or "12.50".'), "amount", field=field
        ) from None


def _locked(shift: TableShift) -> TableShift:
    return TableShift.objects.select_for_update().select_related("table__pit").get(pk=shift.pk)


def _require_open(shift: TableShift, what: str) -> None:
    if shift.status == ShiftStatus.CLOSED:
        raise _refuse(
            _("The shift of table %(table)s is closed: no %(what)s any more.")
            % {"table": shift.table.name, "what": what},
            "shift_closed",
        )
    if shift.status != ShiftStatus.OPEN:
        raise _refuse(
            _("The opening float of table %(table)s is not signed by a pit boss yet.") % {"table": shift.table.name},
            "shift_not_signed",
        )


# --- opening -----------------------------------------------------------------------------------------


def shift_open(*, table: Table, counted_by, counts, total=None, tolerance=None) -> TableShift:
    """The dealer counts the opening float; the shift waits for a pit boss's signature."""
    _require(
        counted_by, table, COUNTERS, _("Only a dealer of pit %(pit)s counts the opening float of table %(table)s.")
    )
    count = read_count(table, counts, total, field="counts", allow_empty=False)
    tol = tolerance_default() if tolerance in (None, "") else selectors.money(tolerance)
    if tol < 0:
        raise _refuse(_("The tolerance cannot be negative."), "tolerance", field="tolerance")
    with transaction.atomic():
        Table.objects.select_for_update(no_key=True).filter(pk=table.pk).first()
        live = selectors.live_shift(table)
        if live is not None:
            raise _refuse(
                _("Table %(table)s already has a shift (opened %(when)s by %(dealer)s): close it first.")
                % {
                    "table": table.name,
                    "when": f"{timezone.localtime(live.opened_at):%Y-%m-%d %H:%M}",
                    "dealer": live.dealer.get_username(),
                },
                "shift_live",
            )
        try:
            with transaction.atomic():
                return TableShift.objects.create(
                    table=table,
                    dealer=counted_by,
                    opening=count,
                    opening_total=selectors.count_value(count),
                    tolerance=tol,
                )
        except IntegrityError:  # a concurrent opening won
            raise _refuse(
                _("Table %(table)s already has a shift: close it first.") % {"table": table.name}, "shift_live"
            ) from None


def shift_open_sign(*, shift: TableShift, signed_by) -> TableShift:
    """A pit boss of the pit, not the dealer who counted, signs the opening count: the shift opens."""
    with transaction.atomic():
        shift = _locked(shift)
        _require(
            signed_by,
            shift.table,
            SIGNERS,
            _("Only a pit boss of pit %(pit)s signs the opening float of table %(table)s."),
        )
        if shift.status != ShiftStatus.OPENING:
            raise _refuse(_("This opening count is already signed."), "already_signed")
        if signed_by.pk == shift.dealer_id:
            raise _refuse(
                _("Four eyes: the opening float is signed by a pit boss other than the dealer who counted it."),
                "four_eyes",
                status=403,
            )
        shift.status = ShiftStatus.OPEN
        shift.opening_signed_by = signed_by
        shift.opening_signed_at = timezone.now()
        shift.save(update_fields=["status", "opening_signed_by", "opening_signed_at"])
        return shift


# --- fills and credits -------------------------------------------------------------------------------


def transfer_request(*, shift: TableShift, kind: str, counts, requested_by, total=None) -> FloatEvent:
    if kind not in CHIP_KINDS:
        raise _refuse(_("Choose a fill or a credit."), "kind", field="kind")
    with transaction.atomic():
        shift = _locked(shift)
        _require(
            requested_by,
            shift.table,
            HANDLERS,
            _("Only a dealer or pit boss of pit %(pit)s requests fills and credits for table %(table)s."),
        )
        _require_open(shift, _("fills or credits"))
        count = read_count(shift.table, counts, total, field="counts", allow_empty=False)
        chips = {d: n for d, n in count.items() if n}
        return FloatEvent.objects.create(
            shift=shift,
            kind=kind,
            chips=chips,
            amount=selectors.count_value(chips),
            status=TransferStatus.REQUESTED,
            requested_by=requested_by,
        )


def _locked_event(event: FloatEvent) -> tuple[FloatEvent, TableShift]:
    shift = _locked(event.shift)
    return FloatEvent.objects.select_for_update().get(pk=event.pk), shift


def transfer_approve(*, event: FloatEvent, approved_by) -> FloatEvent:
    with transaction.atomic():
        event, shift = _locked_event(event)
        _require(
            approved_by,
            shift.table,
            SIGNERS,
            _("Only a pit boss of pit %(pit)s approves fills and credits for table %(table)s."),
        )
        _require_open(shift, _("fills or credits"))
        if event.kind not in CHIP_KINDS or event.status != TransferStatus.REQUESTED:
            raise _refuse(_("Only a requested fill or credit can be approved."), "not_requested")
        if approved_by.pk == event.requested_by_id:
            raise _refuse(
                _("Four eyes: a fill or credit is approved by a pit boss other than the one who requested it."),
                "four_eyes",
                status=403,
            )
        event.status = TransferStatus.APPROVED
        event.approved_by = approved_by
        event.approved_at = timezone.now()
        event.save(update_fields=["status", "approved_by", "approved_at"])
        slip_issue(event=event, issued_by=approved_by)  # the slip goes to the cage with the approval
        return event


def transfer_receive(*, event: FloatEvent, received_by, counts) -> FloatEvent:
    """The chips counted in at the table (a fill) or out of it (a credit): the count must be what
    was approved; only then does the transfer move the float."""
    with transaction.atomic():
        event, shift = _locked_event(event)
        _require(
            received_by,
            shift.table,
            HANDLERS,
            _("Only a dealer or pit boss of pit %(pit)s receives fills and credits at table %(table)s."),
        )
        _require_open(shift, _("fills or credits"))
        if event.status != TransferStatus.APPROVED:
            raise _refuse(_("Only an approved fill or credit can be received."), "not_approved")
        require_receivable(event)
        if received_by.pk == event.approved_by_id:
            raise _refuse(
                _(
                    "Four eyes: the chips are counted in at the table by someone other than the pit boss "
                    "who approved them."
                ),
                "four_eyes",
                status=403,
            )
        count = read_count(shift.table, counts, field="counts", allow_empty=False)
        if {d: n for d, n in count.items() if n} != event.chips:
            raise _refuse(
                _(
                    "The chips counted (%(counted)s) are not those approved (%(approved)s): count again "
                    "or have the difference requested on its own."
                )
                % {"counted": f"{selectors.count_value(count):f}", "approved": f"{event.amount:f}"},
                "count_mismatch",
                field="counts",
            )
        event.status = TransferStatus.RECEIVED
        event.received_by = received_by
        event.received_at = timezone.now()
        event.save(update_fields=["status", "received_by", "received_at"])
        return event


# --- cash ----------------------------------------------------------------------------------------------


def cash_record(*, shift: TableShift, kind: str, amount, recorded_by) -> FloatEvent:
    """Chips sold for cash at the table (chips leave the tray), or cash taken to the drop box."""
    if kind not in CASH_KINDS:
        raise _refuse(_("Choose chips sold or cash to the drop box."), "kind", field="kind")
    value = _amount(amount)
    with transaction.atomic():
        shift = _locked(shift)
        _require(
            recorded_by,
            shift.table,
            HANDLERS,
            _("Only a dealer or pit boss of pit %(pit)s records sales and drops at table %(table)s."),
        )
        _require_open(shift, _("sales or drops") if kind == EventKind.CHIPS_SOLD else _("drops"))
        return FloatEvent.objects.create(shift=shift, kind=kind, amount=value, requested_by=recorded_by)


# --- closing -------------------------------------------------------------------------------------------


def shift_count_closing(*, shift: TableShift, counted_by, counts, total=None) -> TableShift:
    """The closing count (again, if it was counted before: a recount voids an explanation given
    for another variance)."""
    with transaction.atomic():
        shift = _locked(shift)
        _require(
            counted_by,
            shift.table,
            HANDLERS,
            _("Only a dealer or pit boss of pit %(pit)s counts the float of table %(table)s."),
        )
        _require_open(shift, _("counts"))
        count = read_count(shift.table, counts, total, field="counts")
        shift.closing = count
        shift.closing_total = selectors.count_value(count)
        shift.closing_counted_by = counted_by
        shift.closing_counted_at = timezone.now()
        shift.save(update_fields=["closing", "closing_total", "closing_counted_by", "closing_counted_at"])
        return shift


def _require_counted(shift: TableShift) -> None:
    if shift.closing is None:
        raise _refuse(_("Count the closing float first."), "not_counted")


def shift_explain(*, shift: TableShift, explained_by, text: str) -> TableShift:
    text = (text or "").strip()
    with transaction.atomic():
        shift = _locked(shift)
        _require(
            explained_by,
            shift.table,
            SIGNERS,
            _("Only a pit boss of pit %(pit)s explains a variance at table %(table)s."),
        )
        _require_open(shift, _("explanations"))
        _require_counted(shift)
        if not text:
            raise _refuse(_("Say what explains the variance."), "explanation", field="text")
        if len(text) > 4000:
            raise _refuse(_("Keep the explanation under 4,000 characters."), "explanation", field="text")
        if explained_by.pk in (shift.closing_counted_by_id, shift.dealer_id):
            raise _refuse(
                _("Four eyes: a variance is explained by a pit boss other than the one who counted the float."),
                "four_eyes",
                status=403,
            )
        books = selectors.shift_books(shift)
        shift.explanation = text
        shift.explained_variance = books.variance
        shift.explained_by = explained_by
        shift.explained_at = timezone.now()
        shift.save(update_fields=["explanation", "explained_variance", "explained_by", "explained_at"])
        return shift


def shift_close(*, shift: TableShift, closed_by) -> TableShift:
    with transaction.atomic():
        shift = _locked(shift)
        _require(closed_by, shift.table, SIGNERS, _("Only a pit boss of pit %(pit)s closes table %(table)s."))
        _require_open(shift, _("closing"))
        _require_counted(shift)
        if closed_by.pk == shift.closing_counted_by_id:
            raise _refuse(
                _("Four eyes: the shift is closed by a pit boss other than the one who counted the closing float."),
                "four_eyes",
                status=403,
            )
        books = selectors.shift_books(shift)
        if books.needs_explanation:
            raise _refuse(
                _(
                    "The variance of %(variance)s is beyond the tolerance of %(tolerance)s: a pit boss "
                    "explains it (and signs) before the shift is closed."
                )
                % {"variance": f"{books.variance:f}", "tolerance": f"{shift.tolerance:f}"},
                "unexplained_variance",
            )
        shift.status = ShiftStatus.CLOSED
        shift.closed_by = closed_by
        shift.closed_at = timezone.now()
        shift.save(update_fields=["status", "closed_by", "closed_at"])
        # A round still open at the table's terminal is not dropped: the pit boss voids it with a reason.
        dealing_services.drafts_leave_behind(table=shift.table, why=TerminalDraft.Left.SHIFT_END)
        return shift
