"""Reads of the books: the rounds of a shift (dealing's records, read only here), the payment
findings on them (audit's, read only), and the figures of a shift computed from its counts and
events. Nothing here writes.

    expected closing float = opening + Σ float_logged + paid-burn fees − chips sold + fills − credits
    variance               = closing count − expected
    table win              = closing + credits + drop − opening − fills

Σ float_logged is Σ take − Σ pay as the dealer logged it, over the table's rounds in force
(`status == recorded`) logged from the opening count to the closing count (or now). The paid-burn
fees are the fees of the table's paid burns recorded in the same window: a player's fee for a burn
goes into the float (rules/ochko.md, The shoe), so it is expected there.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from audit.choices import FindingStatus
from audit.models import Finding
from casino.models import Table
from casino.scope import restrict
from dealing.choices import BurnReason, RoundStatus, ShoeEventKind
from dealing.models import Round, ShoeEvent

from .access import visible_shifts
from .choices import EventKind, ShiftStatus, TransferStatus
from .models import FloatEvent, TableShift

ZERO = Decimal("0.00")


def money(value) -> Decimal:
    return (Decimal(value) if value is not None else ZERO).quantize(Decimal("0.01"))


def denominations(table: Table) -> list[str]:
    """The table's chips as canonical strings, smallest first (the keys of every count)."""
    return [str(chip) for chip in table.chips or []]


def count_value(counts: dict | None) -> Decimal:
    return money(sum((Decimal(denom) * int(n) for denom, n in (counts or {}).items()), ZERO))


# --- the rounds of a shift ---------------------------------------------------------------------------


def shift_window(shift: TableShift):
    """From the opening count to the closing count; an open shift runs to now."""
    return shift.opened_at, shift.closing_counted_at or timezone.now()


def shift_rounds(shift: TableShift) -> QuerySet:
    """The table's rounds in force logged during the shift (dealing's records, read only)."""
    start, end = shift_window(shift)
    return Round.objects.filter(
        table_id=shift.table_id, status=RoundStatus.RECORDED, played_at__gte=start, played_at__lte=end
    )


def burn_fees(shift: TableShift) -> Decimal:
    """Σ the fees of the table's paid burns recorded during the shift (dealing's records, read only)."""
    start, end = shift_window(shift)
    total = ShoeEvent.objects.filter(
        shoe__table_id=shift.table_id,
        kind=ShoeEventKind.BURN,
        reason=BurnReason.PAID,
        recorded_at__gte=start,
        recorded_at__lte=end,
    ).aggregate(total=Sum("fee"))["total"]
    return money(total)


@dataclass(frozen=True)
class RoundsFloat:
    rounds: int
    logged: Decimal  # Σ float_logged: take − pay as the dealer logged it
    owed: Decimal  # Σ float_owed: take − pay as the rules owed
    unfigured: int  # rounds without a logged float (none are expected)


def rounds_float(shift: TableShift) -> RoundsFloat:
    agg = shift_rounds(shift).aggregate(
        n=Count("id"),
        logged=Sum("float_logged"),
        owed=Sum("float_owed"),
        missing=Count("id", filter=Q(float_logged__isnull=True)),
    )
    return RoundsFloat(agg["n"], money(agg["logged"]), money(agg["owed"]), agg["missing"])


@dataclass(frozen=True)
class FindingRound:
    """A round of the shift with payment findings: what they say the player received beyond (+) or
    short of (−) what he was owed, i.e. what the tray is short (−) or over (+) against the rules."""

    round_id: int
    chain_index: int
    logged_at: object
    dealer: str
    codes: list[str]
    player_delta: Decimal

    @property
    def float_effect(self) -> Decimal:
        return -self.player_delta


def payment_findings(shift: TableShift) -> list[FindingRound]:
    """The shift's rounds whose payment findings (those with a money impact, not dismissed) explain
    part of the difference between the logged and the owed float (audit's findings, read only)."""
    rows = (
        Finding.objects.filter(round__in=shift_rounds(shift), player_delta__isnull=False)
        .exclude(status=FindingStatus.DISMISSED)
        .values("round_id", "round__chain_index", "round__played_at", "round__dealer__username", "code", "player_delta")
        .order_by("round__played_at", "round_id", "id")
    )
    out: dict[int, dict] = {}
    for row in rows:
        one = out.setdefault(
            row["round_id"],
            {
                "chain_index": row["round__chain_index"],
                "logged_at": row["round__played_at"],
                "dealer": row["round__dealer__username"],
                "codes": [],
                "delta": ZERO,
            },
        )
        one["codes"].append(row["code"])
        one["delta"] += money(row["player_delta"])
    return [
        FindingRound(pk, o["chain_index"], o["logged_at"], o["dealer"], o["codes"], money(o["delta"]))
        for pk, o in out.items()
    ]


# --- the figures of a shift --------------------------------------------------------------------------


@dataclass(frozen=True)
class DenominationLine:
    """One denomination through the shift: counts, and the change the rounds and sales made to it."""

    denomination: Decimal
    opening: int
    fills: int
    credits: int
    closing: int | None

    @property
    def expected_from_chips(self) -> int:
        """Opening + fills − credits: what the tray would hold if no chip had crossed the layout."""
        return self.opening + self.fills - self.credits

    @property
    def change(self) -> int | None:
        return None if self.closing is None else self.closing - self.expected_from_chips

    @property
    def change_value(self) -> Decimal | None:
        return None if self.change is None else money(self.denomination * self.change)


@dataclass
class Books:
    shift: TableShift
    opening: Decimal
    fills: Decimal
    credits: Decimal
    chips_sold: Decimal
    drop: Decimal
    rounds: RoundsFloat
    closing: Decimal | None
    denominations: list[DenominationLine]
    events: list[FloatEvent]
    findings: list[FindingRound] = field(default_factory=list)
    burn_fees: Decimal = ZERO  # the paid burns' fees, paid into the float

    @property
    def slipped(self) -> list[FloatEvent]:
        """The events with a fill or credit slip, in the shift's order."""
        return [e for e in self.events if getattr(e, "slip", None) is not None]

    @property
    def expected(self) -> Decimal:
        return money(self.opening + self.rounds.logged + self.burn_fees - self.chips_sold + self.fills - self.credits)

    @property
    def expected_owed(self) -> Decimal:
        """The same with the rounds' float as the rules owed it (what a correct dealer's tray holds)."""
        return money(self.opening + self.rounds.owed + self.burn_fees - self.chips_sold + self.fills - self.credits)

    @property
    def variance(self) -> Decimal | None:
        return None if self.closing is None else money(self.closing - self.expected)

    @property
    def variance_owed(self) -> Decimal | None:
        return None if self.closing is None else money(self.closing - self.expected_owed)

    @property
    def findings_effect(self) -> Decimal:
        """Σ of what the payment findings moved in the tray (− what they overpaid, + what they underpaid)."""
        return money(sum((f.float_effect for f in self.findings), ZERO))

    @property
    def win(self) -> Decimal | None:
        if self.closing is None:
            return None
        return money(self.closing + self.credits + self.drop - self.opening - self.fills)

    @property
    def pending(self) -> list[FloatEvent]:
        return [
            e
            for e in self.events
            if e.kind in (EventKind.FILL, EventKind.CREDIT) and e.status != TransferStatus.RECEIVED
        ]

    @property
    def over_tolerance(self) -> bool:
        return self.variance is not None and abs(self.variance) > self.shift.tolerance

    @property
    def explained(self) -> bool:
        """The pit boss's explanation stands for the variance as it is now (a recount voids it)."""
        return bool(self.shift.explanation) and self.shift.explained_variance == self.variance

    @property
    def needs_explanation(self) -> bool:
        return self.over_tolerance and not self.explained

    def as_dict(self) -> dict:
        s = self.shift
        fmt = _fmt
        return {
            "id": s.pk,
            "table": s.table.name,
            "status": s.status,
            "dealer": s.dealer.get_username(),
            "opened_at": s.opened_at,
            "opening_signed_by": _name(s.opening_signed_by),
            "opening_signed_at": s.opening_signed_at,
            "opening_count": s.opening,
            "closing_count": s.closing,
            "closing_counted_by": _name(s.closing_counted_by),
            "closing_counted_at": s.closing_counted_at,
            "closed_by": _name(s.closed_by),
            "closed_at": s.closed_at,
            "tolerance": fmt(s.tolerance),
            "explanation": s.explanation,
            "explained_by": _name(s.explained_by),
            "explained_at": s.explained_at,
            "explained_variance": fmt(s.explained_variance),
            "figures": {
                "opening": fmt(self.opening),
                "fills": fmt(self.fills),
                "credits": fmt(self.credits),
                "chips_sold": fmt(self.chips_sold),
                "drop": fmt(self.drop),
                "rounds": self.rounds.rounds,
                "rounds_float_logged": fmt(self.rounds.logged),
                "rounds_float_owed": fmt(self.rounds.owed),
                "burn_fees": fmt(self.burn_fees),
                "expected": fmt(self.expected),
                "expected_owed": fmt(self.expected_owed),
                "closing": fmt(self.closing),
                "variance": fmt(self.variance),
                "variance_owed": fmt(self.variance_owed),
                "findings_effect": fmt(self.findings_effect),
                "win": fmt(self.win),
                "needs_explanation": self.needs_explanation,
            },
            "denominations": [
                {
                    "denomination": fmt(d.denomination),
                    "opening": d.opening,
                    "fills": d.fills,
                    "credits": d.credits,
                    "closing": d.closing,
                    "change": d.change,
                    "change_value": fmt(d.change_value),
                }
                for d in self.denominations
            ],
            "events": [
                {
                    "id": e.pk,
                    "kind": e.kind,
                    "status": e.status,
                    "chips": e.chips,
                    "amount": fmt(e.amount),
                    "requested_by": _name(e.requested_by),
                    "requested_at": e.requested_at,
                    "approved_by": _name(e.approved_by),
                    "approved_at": e.approved_at,
                    "received_by": _name(e.received_by),
                    "received_at": e.received_at,
                }
                for e in self.events
            ],
            "finding_rounds": [
                {
                    "round": f.round_id,
                    "link": f.chain_index,
                    "logged_at": f.logged_at,
                    "dealer": f.dealer,
                    "codes": f.codes,
                    "player_delta": fmt(f.player_delta),
                    "float_effect": fmt(f.float_effect),
                }
                for f in self.findings
            ],
        }


def _fmt(value) -> str | None:
    return None if value is None else f"{money(value):f}"


def _name(user) -> str | None:
    return None if user is None else user.get_username()


def shift_books(shift: TableShift) -> Books:
    events = list(
        shift.events.select_related(
            "requested_by",
            "approved_by",
            "received_by",
            "slip__issued_by",
            "slip__void_requested_by",
            "slip__voided_by",
        )
    )
    in_float = [e for e in events if e.in_float]

    def total(kind) -> Decimal:
        return money(sum((e.amount for e in in_float if e.kind == kind), ZERO))

    def chips(kind, denom) -> int:
        return sum(int(e.chips.get(denom, 0)) for e in in_float if e.kind == kind)

    denoms = list(dict.fromkeys([*denominations(shift.table), *shift.opening.keys(), *(shift.closing or {}).keys()]))
    denoms.sort(key=Decimal)
    lines = [
        DenominationLine(
            Decimal(d),
            int(shift.opening.get(d, 0)),
            chips(EventKind.FILL, d),
            chips(EventKind.CREDIT, d),
            None if shift.closing is None else int(shift.closing.get(d, 0)),
        )
        for d in denoms
    ]
    return Books(
        shift=shift,
        opening=money(shift.opening_total),
        fills=total(EventKind.FILL),
        credits=total(EventKind.CREDIT),
        chips_sold=total(EventKind.CHIPS_SOLD),
        drop=total(EventKind.DROP),
        rounds=rounds_float(shift),
        closing=None if shift.closing_total is None else money(shift.closing_total),
        denominations=lines,
        events=events,
        findings=payment_findings(shift),
        burn_fees=burn_fees(shift),
    )


# --- lists ---------------------------------------------------------------------------------------------


def shift_list(*, user, table: Table | None = None, status: str | None = None) -> QuerySet:
    shifts = visible_shifts(user).select_related("table", "dealer", "opening_signed_by", "closed_by")
    if table is not None:
        shifts = shifts.filter(table=table)
    if status in ShiftStatus.values:
        shifts = shifts.filter(status=status)
    return shifts


def tables_with_live_shift(*, user) -> list[tuple[Table, TableShift | None]]:
    """The tables of the user's pits, each with its shift not yet closed (or None)."""
    tables = list(restrict(Table.objects.select_related("pit"), user).order_by("pit__name", "name"))
    live = {s.table_id: s for s in TableShift.objects.filter(table__in=tables).exclude(status=ShiftStatus.CLOSED)}
    return [(t, live.get(t.pk)) for t in tables]


def live_shift(table: Table) -> TableShift | None:
    return TableShift.objects.filter(table=table).exclude(status=ShiftStatus.CLOSED).first()
