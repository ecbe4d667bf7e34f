"""Reads of theoretical against actual: the rollups (audit's, read only) grouped by what a row is
about, each (table, game) part priced by its table's house rules (books/theory.py).

Every read is ONE grouped aggregate over audit.models.Rollup — `GROUP BY` the row's dimension,
the table and the game — and one read of the tables concerned: a year of a floor answers from a
few thousand rollup rows, whatever the number of rounds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.models import Rollup
from casino.choices import Variant
from casino.errors import ServiceError
from casino.models import Pit, Table
from casino.roles import user_pits

from .theory import Figures, edge_for

BY = ("table", "dealer", "day", "game", "shift")
DEFAULT_DAYS = 30
MAX_DAYS = 3660
SUMS = {"rounds": Sum("rounds"), "initial_wagers": Sum("initial_wagers"),
        "initial_wagers_sq": Sum("initial_wagers_sq"), "total_wagered": Sum("total_wagered"),
        "win_logged": Sum("win_logged"), "win_owed": Sum("win_owed")}
_GROUP = {"table": ("table_id",), "dealer": ("dealer_id",), "day": ("day",), "game": ("variant",),
          "shift": ("shift_date", "shift")}


def _bad(field_name: str, message: str):
    return ServiceError(message, extra={"code": "bad_filter", "field": field_name})


@dataclass
class TheoryFilters:
    start: dt.date
    end: dt.date
    pit: Pit | None = None
    table: Table | None = None
    dealer: object | None = None
    variant: str | None = None
    shift: int | None = None
    by: str = "table"
    query: dict = field(default_factory=dict)  # the filters as given, for links and the form

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def _date(params, name: str, default: dt.date) -> dt.date:
    raw = (params.get(name) or "").strip()
    if not raw:
        return default
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise _bad(name, _("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": raw}) from None


def parse_filters(user, params, *, default_by: str = "table") -> TheoryFilters:
    """The filters of a page or API call (a QueryDict or dict), checked against what the user may
    see: a bad date, an unknown table, dealer, pit or game is a 400 ServiceError naming the field."""
    from django.contrib.auth import get_user_model

    today = timezone.localdate()
    end = _date(params, "end", today)
    start = _date(params, "start", end - dt.timedelta(days=DEFAULT_DAYS - 1))
    if start > end:
        raise _bad("start", _("The period starts after it ends."))
    if (end - start).days + 1 > MAX_DAYS:
        raise _bad("start", _("A period is at most %(days)d days.") % {"days": MAX_DAYS})
    pits = user_pits(user)
    f = TheoryFilters(start=start, end=end)
    raw = (params.get("pit") or "").strip()
    if raw:
        pit = pits.filter(name=raw).first() or (pits.filter(pk=int(raw)).first() if raw.isdigit() else None)
        if pit is None:
            raise _bad("pit", _("There is no pit “%(value)s” among yours.") % {"value": raw})
        f.pit = pit
    raw = (params.get("table") or "").strip()
    if raw:
        tables = Table.objects.filter(pit__in=pits)
        table = tables.filter(name=raw).first() or (tables.filter(pk=int(raw)).first() if raw.isdigit() else None)
        if table is None:
            raise _bad("table", _("There is no table “%(value)s” in your pits.") % {"value": raw})
        f.table = table
    raw = (params.get("dealer") or "").strip()
    if raw:
        users = get_user_model().objects
        dealer = users.filter(username=raw).first() or (users.filter(pk=int(raw)).first() if raw.isdigit() else None)
        if dealer is None:
            raise _bad("dealer", _("There is no dealer “%(value)s”.") % {"value": raw})
        f.dealer = dealer
    raw = (params.get("variant") or params.get("game") or "").strip()
    if raw:
        if raw not in Variant.values:
            raise _bad("variant", _("“%(value)s” is not one of %(choices)s.")
                       % {"value": raw, "choices": ", ".join(Variant.values)})
        f.variant = raw
    raw = (params.get("shift") or "").strip()
    if raw:
        from audit.rollups import shifts

        if not raw.isdigit() or int(raw) >= len(shifts()):
            raise _bad("shift", _("The shift is a number from 0 to %(last)d.") % {"last": len(shifts()) - 1})
        f.shift = int(raw)
    by = (params.get("by") or default_by).strip()
    if by not in BY:
        raise _bad("by", _("“%(value)s” is not one of %(choices)s.") % {"value": by, "choices": ", ".join(BY)})
    f.by = by
    f.query = {k: v for k, v in {
        "start": start.isoformat(), "end": end.isoformat(), "pit": f.pit.name if f.pit else "",
        "table": f.table.name if f.table else "", "dealer": f.dealer.get_username() if f.dealer else "",
        "variant": f.variant or "", "shift": "" if f.shift is None else str(f.shift), "by": by}.items()}
    return f


def _rollups(user, f: TheoryFilters):
    q = Q(day__gte=f.start, day__lte=f.end, table__pit__in=user_pits(user))
    if f.pit is not None:
        q &= Q(table__pit=f.pit)
    if f.table is not None:
        q &= Q(table=f.table)
    if f.dealer is not None:
        q &= Q(dealer_id=f.dealer.pk)
    if f.variant:
        q &= Q(variant=f.variant)
    if f.shift is not None:
        q &= Q(shift=f.shift)
    return Rollup.objects.filter(q)


def grouped(user, f: TheoryFilters, by: tuple[str, ...]) -> dict[tuple, Figures]:
    """Figures per value of the `by` columns of Rollup: one GROUP BY (by…, table, game) query."""
    rows = list(_rollups(user, f).values(*by, "table_id", "variant").annotate(**SUMS).order_by())
    tables = {t.pk: t for t in Table.objects.filter(pk__in={r["table_id"] for r in rows}).only("pk", "rules",
                                                                                                "variant")}
    out: dict[tuple, Figures] = {}
    for r in rows:
        table = tables.get(r["table_id"])
        edge = edge_for(r["variant"], table.rules if table is not None and table.variant == r["variant"] else None)
        figures = out.setdefault(tuple(r[c] for c in by), Figures())
        figures.add(rounds=r["rounds"], initial_wagers=r["initial_wagers"], initial_wagers_sq=r["initial_wagers_sq"],
                    total_wagered=r["total_wagered"], win_logged=r["win_logged"], win_owed=r["win_owed"], edge=edge)
    return out


@dataclass
class TheoryRow:
    key: tuple
    label: str
    figures: Figures
    link: dict = field(default_factory=dict)  # filters narrowing the page to this row


def _labels(by: str, keys) -> dict:
    from django.contrib.auth import get_user_model

    from audit.rollups import shifts

    if by == "table":
        return {t.pk: t.name for t in Table.objects.filter(pk__in=[k[0] for k in keys])}
    if by == "dealer":
        names = dict(get_user_model().objects.filter(pk__in=[k[0] for k in keys]).values_list("pk", "username"))
        names[0] = _("(no dealer)")
        return names
    if by == "game":
        return dict(Variant.choices)
    if by == "shift":
        return {s.number: s.name for s in shifts()}
    return {}


def theory_rows(user, f: TheoryFilters) -> tuple[list[TheoryRow], Figures]:
    """The rows of the chosen dimension, and the total of them all."""
    parts = grouped(user, f, _GROUP[f.by])
    labels = _labels(f.by, parts.keys())
    rows = []
    total = Figures()
    for key in sorted(parts, key=lambda k: tuple(str(x) for x in k)):
        figures = parts[key]
        total.merge(figures)
        if f.by == "table":
            label, link = labels.get(key[0], str(key[0])), {"table": labels.get(key[0], key[0])}
        elif f.by == "dealer":
            label = labels.get(key[0], str(key[0]))
            link = {"dealer": label} if key[0] else {}
        elif f.by == "day":
            label, link = key[0].isoformat(), {"start": key[0].isoformat(), "end": key[0].isoformat()}
        elif f.by == "game":
            label, link = str(labels.get(key[0], key[0])), {"variant": key[0]}
        else:
            label = f"{key[0].isoformat()} {labels.get(key[1], key[1])}"
            link = {"start": key[0].isoformat(), "end": key[0].isoformat(), "shift": str(key[1])}
        rows.append(TheoryRow(key, label, figures, link))
    if f.by == "table":
        rows.sort(key=lambda r: r.label)
    return rows, total


@dataclass(frozen=True)
class FunnelPoint:
    day: dt.date
    actual: object  # cumulative, Decimal
    theoretical: object
    low: object
    high: object


def funnel(user, f: TheoryFilters) -> list[FunnelPoint]:
    """Cumulative actual and theoretical win with the band, by day (days without rounds left out)."""
    parts = grouped(user, f, ("day",))
    running = Figures()
    out = []
    for (day,) in sorted(parts):
        running.merge(parts[(day,)])
        out.append(FunnelPoint(day, running.actual, running.theoretical, running.band_low, running.band_high))
    return out
