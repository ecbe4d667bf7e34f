"""Reads of the reports (nothing here writes): the shift report of a table and the period report
of a pit, each as figures for a page, rows for a CSV and a document for the API.

- The shift report: the float's figures of one shift (books.selectors.shift_books), the
  theoretical win of its rounds and its band (books/theory/arithmetic.py; the rounds' initial wagers read
  off their logs, no replay), the dealer errors (win as logged − as owed) and who signed what.
- The period report: one row per table of the pit — handle, win, theoretical, band, flag, errors
  (ONE grouped aggregate over the rollups, books.theory.selectors.grouped) — and the float's
  variances of the shifts closed in the period (ONE query: each shift with its rounds' logged float
  and its events summed in subqueries).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import DecimalField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Pit, Table
from casino.roles import user_pits
from casino.scope import restrict
from dealing.choices import BurnReason, RoundStatus, ShoeEventKind
from dealing.models import Round, ShoeEvent

from .choices import EventKind, ShiftStatus, TransferStatus
from .models import FloatEvent, TableShift
from .selectors import money, shift_books, shift_rounds
from .theory.arithmetic import Figures, edge_for
from .theory.selectors import TheoryFilters, grouped, parse_filters

ZERO = Decimal("0.00")


def report_shifts(user):
    """The shifts whose report the user may read: those of his pits (every pit for an auditor)."""
    return restrict(TableShift.objects, user)


def shift_for_report(user, pk) -> TableShift:
    return get_object_or_404(
        report_shifts(user).select_related(
            "table__pit", "dealer", "opening_signed_by", "closing_counted_by", "explained_by", "closed_by"
        ),
        pk=pk,
    )


# --- the shift report ----------------------------------------------------------------------------


def shift_theory(shift: TableShift) -> Figures:
    """Theoretical against actual for the rounds of the shift (read off their logs: the initial
    wagers as the rollups count them, audit.rollups.handle)."""
    from audit.rollups import handle

    edge = edge_for(shift.table.variant, shift.table.rules)
    figures = Figures()
    for document, logged, owed in shift_rounds(shift).values_list("document", "float_logged", "float_owed"):
        initial, _total = handle(document or {}, None)
        figures.add(
            rounds=1,
            initial_wagers=initial,
            initial_wagers_sq=initial * initial,
            total_wagered=initial,
            win_logged=logged or ZERO,
            win_owed=owed or ZERO,
            edge=edge,
        )
    return figures


@dataclass
class ShiftReport:
    shift: TableShift
    books: object  # books.selectors.Books
    theory: Figures

    def signatures(self) -> list[tuple[str, str | None, object]]:
        s = self.shift

        def name(user):
            return None if user is None else user.get_username()

        return [
            (_("opening counted by"), name(s.dealer), s.opened_at),
            (_("opening signed by"), name(s.opening_signed_by), s.opening_signed_at),
            (_("closing counted by"), name(s.closing_counted_by), s.closing_counted_at),
            (_("variance explained by"), name(s.explained_by), s.explained_at),
            (_("closed by"), name(s.closed_by), s.closed_at),
        ]

    def lines(self) -> list[tuple[str, Decimal | None]]:
        """The report's figures in order, for the page and the CSV."""
        b, t = self.books, self.theory
        return [
            (_("opening float"), b.opening),
            (_("fills"), b.fills),
            (_("credits"), b.credits),
            (_("chips sold for cash"), b.chips_sold),
            (_("paid burns' fees"), b.burn_fees),
            (_("drop"), b.drop),
            (_("expected closing float"), b.expected),
            (_("closing float"), b.closing),
            (_("variance"), b.variance),
            (_("table win"), b.win),
            (_("win as logged by the rounds"), t.actual),
            (_("theoretical win"), t.theoretical),
            (_("band low (95 %)"), t.band_low),
            (_("band high (95 %)"), t.band_high),
            (_("dealer errors (logged − owed)"), t.errors),
            (_("chance (owed − theoretical)"), t.chance),
            (_("payment findings' effect on the tray"), b.findings_effect),
        ]

    def as_dict(self) -> dict:
        s = self.shift

        def fmt(value):
            return None if value is None else f"{money(value):f}"

        return {
            "shift": s.pk,
            "table": s.table.name,
            "pit": s.table.pit.name,
            "status": s.status,
            "opened_at": s.opened_at,
            "closed_at": s.closed_at,
            "opening": fmt(self.books.opening),
            "fills": fmt(self.books.fills),
            "credits": fmt(self.books.credits),
            "chips_sold": fmt(self.books.chips_sold),
            "burn_fees": fmt(self.books.burn_fees),
            "drop": fmt(self.books.drop),
            "expected": fmt(self.books.expected),
            "closing": fmt(self.books.closing),
            "variance": fmt(self.books.variance),
            "win": fmt(self.books.win),
            "explanation": s.explanation,
            "theory": self.theory.as_dict(),
            "findings": [
                {"round": f.round_id, "link": f.chain_index, "codes": f.codes, "player_delta": fmt(f.player_delta)}
                for f in self.books.findings
            ],
            "signatures": [{"step": step, "by": by, "at": at} for step, by, at in self.signatures()],
        }


def shift_report(shift: TableShift) -> ShiftReport:
    return ShiftReport(shift, shift_books(shift), shift_theory(shift))


# --- the period report ---------------------------------------------------------------------------


@dataclass
class FloatVariances:
    shifts: int = 0
    net: Decimal = ZERO  # Σ variance (closing − expected)
    absolute: Decimal = ZERO  # Σ |variance|
    over_tolerance: int = 0


@dataclass
class PeriodRow:
    table: Table
    figures: Figures
    floats: FloatVariances


@dataclass
class PeriodReport:
    pit: Pit
    filters: TheoryFilters
    rows: list[PeriodRow] = field(default_factory=list)
    total: Figures = field(default_factory=Figures)
    floats: FloatVariances = field(default_factory=FloatVariances)
    holds: list[HoldBlock] = field(default_factory=list)  # period, month to date, year to date

    def as_dict(self) -> dict:
        def floats(v: FloatVariances) -> dict:
            return {
                "shifts": v.shifts,
                "net": f"{money(v.net):f}",
                "absolute": f"{money(v.absolute):f}",
                "over_tolerance": v.over_tolerance,
            }

        return {
            "pit": self.pit.name,
            "start": self.filters.start,
            "end": self.filters.end,
            "rows": [
                {
                    "table": r.table.name,
                    "variant": r.table.variant,
                    **r.figures.as_dict(),
                    "float_variances": floats(r.floats),
                }
                for r in self.rows
            ],
            "total": {**self.total.as_dict(), "float_variances": floats(self.floats)},
            "hold": {block.name: block.as_dict() for block in self.holds},
        }


def _sum(qs, column="amount"):
    return Coalesce(
        Subquery(qs.values(column)[:1]), Value(ZERO), output_field=DecimalField(max_digits=18, decimal_places=2)
    )


def _day_bounds(start: dt.date, end: dt.date):
    """From the start of `start` to the start of the day after `end`, in the current time zone."""
    from django.utils import timezone

    zone = timezone.get_current_timezone()
    return (
        dt.datetime.combine(start, dt.time.min, tzinfo=zone),
        dt.datetime.combine(end + dt.timedelta(days=1), dt.time.min, tzinfo=zone),
    )


def _events(*kinds, received=False):
    """Σ the outer shift's float events of these kinds (fills and credits: once received)."""
    q = Q(shift=OuterRef("pk"), kind__in=kinds)
    if received:
        q &= Q(status=TransferStatus.RECEIVED)
    return _sum(FloatEvent.objects.filter(q).order_by().values("shift").annotate(s=Sum("amount")), "s")


def paid_burns():
    """Σ the paid burns' fees of the outer shift's table within its window (a subquery)."""
    return (
        ShoeEvent.objects.filter(
            shoe__table_id=OuterRef("table_id"),
            kind=ShoeEventKind.BURN,
            reason=BurnReason.PAID,
            recorded_at__gte=OuterRef("opened_at"),
            recorded_at__lte=OuterRef("closing_counted_at"),
        )
        .order_by()
        .values("shoe__table_id")
        .annotate(s=Sum("fee"))
    )


def float_variances(pit: Pit, start: dt.date, end: dt.date) -> dict[int, FloatVariances]:
    """Per table, the variances of the shifts of `pit` closed (counted) within start…end."""
    lo, hi = _day_bounds(start, end)
    events = _events

    rounds = (
        Round.objects.filter(
            table_id=OuterRef("table_id"),
            status=RoundStatus.RECORDED,
            played_at__gte=OuterRef("opened_at"),
            played_at__lte=OuterRef("closing_counted_at"),
        )
        .order_by()
        .values("table_id")
        .annotate(s=Sum("float_logged"))
    )
    shifts = (
        TableShift.objects.filter(
            table__pit=pit, status=ShiftStatus.CLOSED, closing_counted_at__gte=lo, closing_counted_at__lt=hi
        )
        .annotate(
            logged=_sum(rounds, "s"),
            fees=_sum(paid_burns(), "s"),
            fills=events(EventKind.FILL, received=True),
            credits=events(EventKind.CREDIT, received=True),
            sold=events(EventKind.CHIPS_SOLD),
        )
        .values_list(
            "table_id", "opening_total", "closing_total", "tolerance", "logged", "fees", "fills", "credits", "sold"
        )
    )
    out: dict[int, FloatVariances] = {}
    for table_id, opening, closing, tolerance, logged, fees, fills, credits, sold in shifts:
        # The expected closing float as the shift's books say it (books.selectors.Books.expected).
        variance = money(closing - (opening + logged + fees - sold + fills - credits))
        v = out.setdefault(table_id, FloatVariances())
        v.shifts += 1
        v.net += variance
        v.absolute += abs(variance)
        v.over_tolerance += abs(variance) > tolerance
    return out


# --- hold: drop, win and hold % by table, game and pit, for the period, month to date, year to date ------


HUNDRED = Decimal(100)


@dataclass
class Hold:
    """The closed shifts' drop and win, and the hold: win ÷ drop (table games accounting).

    A shift's win is its books' (books.selectors.Books.win): closing + credits + drop − opening − fills."""

    shifts: int = 0
    drop: Decimal = ZERO
    win: Decimal = ZERO

    @property
    def hold_pct(self) -> Decimal | None:
        """Win as a percentage of the drop, to 0.01; None without a drop (no hold to speak of)."""
        return None if not self.drop else (self.win * HUNDRED / self.drop).quantize(Decimal("0.01"))

    def add(self, other: Hold) -> None:
        self.shifts += other.shifts
        self.drop += other.drop
        self.win += other.win

    def as_dict(self) -> dict:
        pct = self.hold_pct
        return {
            "shifts": self.shifts,
            "drop": f"{money(self.drop):f}",
            "win": f"{money(self.win):f}",
            "hold_pct": None if pct is None else f"{pct:f}",
        }


@dataclass
class HoldBlock:
    """Hold over one span ending at the report's end: by table, by game, and the pit's."""

    name: str  # period | month_to_date | year_to_date
    start: dt.date
    end: dt.date
    tables: list[tuple[Table, Hold]] = field(default_factory=list)
    games: dict[str, Hold] = field(default_factory=dict)
    pit: Hold = field(default_factory=Hold)

    @property
    def label(self) -> str:
        return {"period": _("Period"), "month_to_date": _("Month to date"), "year_to_date": _("Year to date")}[
            self.name
        ]

    def rows(self) -> list[list]:
        """The block's lines for the CSV and XLSX: span, level, name, shifts, drop, win, hold %."""

        def line(level, name, h: Hold):
            return [self.label, level, name, h.shifts, money(h.drop), money(h.win), h.hold_pct]

        out = [line(_("table"), t.name, h) for t, h in self.tables]
        out += [line(_("game"), g, h) for g, h in sorted(self.games.items())]
        out.append(line(_("pit"), "", self.pit))
        return out

    def as_dict(self) -> dict:
        return {
            "start": self.start,
            "end": self.end,
            "tables": [{"table": t.name, "variant": t.variant, **h.as_dict()} for t, h in self.tables],
            "games": [{"variant": g, **h.as_dict()} for g, h in sorted(self.games.items())],
            "pit": self.pit.as_dict(),
        }


def shift_holds(pit: Pit, start: dt.date, end: dt.date) -> list[tuple[int, dt.date, Hold]]:
    """Each shift of the pit closed (counted) within start…end: its table, the day it was counted and
    its drop and win. ONE query, each shift with its events summed in subqueries."""
    from django.utils import timezone

    lo, hi = _day_bounds(start, end)
    shifts = (
        TableShift.objects.filter(
            table__pit=pit, status=ShiftStatus.CLOSED, closing_counted_at__gte=lo, closing_counted_at__lt=hi
        )
        .annotate(
            drop=_events(EventKind.DROP),
            fills=_events(EventKind.FILL, received=True),
            credits=_events(EventKind.CREDIT, received=True),
        )
        .values_list("table_id", "closing_counted_at", "opening_total", "closing_total", "drop", "fills", "credits")
    )
    return [
        (
            table_id,
            timezone.localdate(counted),
            Hold(1, money(drop), money(closing + credits + drop - opening - fills)),
        )
        for table_id, counted, opening, closing, drop, fills, credits in shifts
    ]


def hold_blocks(pit: Pit, f: TheoryFilters, tables: list[Table]) -> list[HoldBlock]:
    """The period's hold, and the month and the year to its end date, over `tables` (the report's)."""
    blocks = [
        HoldBlock("period", f.start, f.end),
        HoldBlock("month_to_date", f.end.replace(day=1), f.end),
        HoldBlock("year_to_date", f.end.replace(month=1, day=1), f.end),
    ]
    shifts = shift_holds(pit, min(b.start for b in blocks), f.end)
    for block in blocks:
        per_table: dict[int, Hold] = {}
        for table_id, day, h in shifts:
            if block.start <= day <= block.end:
                per_table.setdefault(table_id, Hold()).add(h)
        for table in tables:  # by name, as the report's rows
            h = per_table.get(table.pk)
            if h is None:
                continue
            block.tables.append((table, h))
            block.games.setdefault(table.variant, Hold()).add(h)
            block.pit.add(h)
    return blocks


def period_filters(user, params) -> tuple[Pit, TheoryFilters]:
    """The pit (required among the user's; the first of them when not given) and the period."""
    f = parse_filters(user, params)
    if f.pit is None:
        pit = user_pits(user).order_by("name").first()
        if pit is None:
            raise ServiceError(_("You work in no pit."), extra={"code": "bad_filter", "field": "pit"})
        f.pit = pit
        f.query["pit"] = pit.name
    return f.pit, f


def period_report(user, params) -> PeriodReport:
    pit, f = period_filters(user, params)
    f.by = "table"
    parts = grouped(user, f, ("table_id",))
    floats = float_variances(pit, f.start, f.end)
    report = PeriodReport(pit, f)
    tables = Table.objects.filter(pit=pit).order_by("name")
    if f.table is not None:
        tables = tables.filter(pk=f.table.pk)
    tables = list(tables)
    for table in tables:
        figures = parts.get((table.pk,))
        v = floats.get(table.pk, FloatVariances())
        if figures is None and not v.shifts:
            continue
        figures = figures or Figures()
        report.rows.append(PeriodRow(table, figures, v))
        report.total.merge(figures)
        report.floats.shifts += v.shifts
        report.floats.net += v.net
        report.floats.absolute += v.absolute
        report.floats.over_tolerance += v.over_tolerance
    report.holds = hold_blocks(pit, f, tables)
    return report
