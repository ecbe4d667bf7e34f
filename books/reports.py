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
from dealing.choices import RoundStatus
from dealing.models import Round

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
        }


def _sum(qs, column="amount"):
    return Coalesce(
        Subquery(qs.values(column)[:1]), Value(ZERO), output_field=DecimalField(max_digits=18, decimal_places=2)
    )


def float_variances(pit: Pit, start: dt.date, end: dt.date) -> dict[int, FloatVariances]:
    """Per table, the variances of the shifts of `pit` closed (counted) within start…end."""
    from django.utils import timezone

    zone = timezone.get_current_timezone()
    lo = dt.datetime.combine(start, dt.time.min, tzinfo=zone)
    hi = dt.datetime.combine(end + dt.timedelta(days=1), dt.time.min, tzinfo=zone)

    def events(*kinds, received=False):
        q = Q(shift=OuterRef("pk"), kind__in=kinds)
        if received:
            q &= Q(status=TransferStatus.RECEIVED)
        return _sum(FloatEvent.objects.filter(q).order_by().values("shift").annotate(s=Sum("amount")), "s")

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
            fills=events(EventKind.FILL, received=True),
            credits=events(EventKind.CREDIT, received=True),
            sold=events(EventKind.CHIPS_SOLD),
        )
        .values_list("table_id", "opening_total", "closing_total", "tolerance", "logged", "fills", "credits", "sold")
    )
    out: dict[int, FloatVariances] = {}
    for table_id, opening, closing, tolerance, logged, fills, credits, sold in shifts:
        variance = money(closing - (opening + logged - sold + fills - credits))
        v = out.setdefault(table_id, FloatVariances())
        v.shifts += 1
        v.net += variance
        v.absolute += abs(variance)
        v.over_tolerance += abs(variance) > tolerance
    return out


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
    return report
