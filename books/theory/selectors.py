"""Reads of theoretical against actual: the rollups (audit's, read only) grouped by what a row is
about, each (table, game) part priced by its table's house rules (books/theory.py).

Every read is ONE grouped aggregate over audit.models.Rollup — `GROUP BY` the row's dimension
only, each rollup row priced by its table's house edge and σ² joined from a VALUES list — and one
read of the tables concerned: a year of a floor answers from its rollup rows, whatever the number of rounds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.models import Rollup
from casino.choices import Variant
from casino.dates import BadDay, parse_day
from casino.errors import ServiceError
from casino.models import Pit, Table
from casino.roles import user_pits
from casino.scope import restrict, table_named

from .arithmetic import Figures, edge_for, priced

BY = ("table", "dealer", "day", "game", "shift")
DEFAULT_DAYS = 30
MAX_DAYS = 3660
_GROUP = {
    "table": ("table_id",),
    "dealer": ("dealer_id",),
    "day": ("day",),
    "game": ("variant",),
    "shift": ("shift_date", "shift"),
}


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
        return parse_day(raw)
    except BadDay as exc:
        raise _bad(name, str(exc)) from None


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
        pit = pits.filter(name=raw).first() or (
            pits.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None
        )
        if pit is None:
            raise _bad("pit", _("There is no pit “%(value)s” among yours.") % {"value": raw})
        f.pit = pit
    raw = (params.get("table") or "").strip()
    if raw:
        table = table_named(user, raw, by_pk=True)
        if table is None:
            raise _bad("table", _("There is no table “%(value)s” in your pits.") % {"value": raw})
        f.table = table
    raw = (params.get("dealer") or "").strip()
    if raw:
        users = get_user_model().objects
        dealer = users.filter(username=raw).first() or (
            users.filter(pk=int(raw)).first() if raw.isascii() and raw.isdigit() else None
        )
        if dealer is None:
            raise _bad("dealer", _("There is no dealer “%(value)s”.") % {"value": raw})
        f.dealer = dealer
    raw = (params.get("variant") or params.get("game") or "").strip()
    if raw:
        if raw not in priced():
            raise _bad(
                "variant", _("“%(value)s” is not one of %(choices)s.") % {"value": raw, "choices": ", ".join(priced())}
            )
        f.variant = raw
    raw = (params.get("shift") or "").strip()
    if raw:
        from audit.rollups import shifts

        if not (raw.isascii() and raw.isdigit()) or int(raw) >= len(shifts()):
            raise _bad("shift", _("The shift is a number from 0 to %(last)d.") % {"last": len(shifts()) - 1})
        f.shift = int(raw)
    by = (params.get("by") or default_by).strip()
    if by not in BY:
        raise _bad("by", _("“%(value)s” is not one of %(choices)s.") % {"value": by, "choices": ", ".join(BY)})
    f.by = by
    f.query = {
        k: v
        for k, v in {
            "start": start.isoformat(),
            "end": end.isoformat(),
            "pit": f.pit.name if f.pit else "",
            "table": f.table.name if f.table else "",
            "dealer": f.dealer.get_username() if f.dealer else "",
            "variant": f.variant or "",
            "shift": "" if f.shift is None else str(f.shift),
            "by": by,
        }.items()
    }
    return f


def _price(value) -> str:
    return str(Decimal(value).quantize(Decimal("1e-20")))


def _prices(user, f: TheoryFilters) -> list[tuple]:
    """(table id, game, edge, σ²) of every table in scope and every game (a round of another game than
    its table's now is priced at that game's defaults): the rows the grouped query joins to."""
    tables = restrict(Table.objects, user)
    if f.pit is not None:
        tables = tables.filter(pit=f.pit)
    if f.table is not None:
        tables = tables.filter(pk=f.table.pk)
    out = []
    for table in tables.only("pk", "variant", "rules"):
        for variant in [f.variant] if f.variant else priced():
            edge = edge_for(variant, table.rules if variant == table.variant else None)
            out.append((table.pk, variant, _price(edge.edge), _price(repr(edge.sd**2))))
    return out


_COLUMNS = {
    "table_id": "r.table_id",
    "dealer_id": "r.dealer_id",
    "day": "r.day",
    "variant": "r.variant",
    "shift_date": "r.shift_date",
    "shift": "r.shift",
}


def grouped(user, f: TheoryFilters, by: tuple[str, ...]) -> dict[tuple, Figures]:
    """Figures per value of the `by` columns of Rollup: ONE grouped aggregate query. The prices
    (edge and σ² per table and game) join in as a VALUES list — the join is the scope too (the
    tables of the user's pits and the filters) — so the rows are priced inside the query instead of
    grouped by table as well (a year by day would be days × tables rows)."""
    prices = _prices(user, f)
    if not prices:
        return {}
    qn = connection.ops.quote_name
    dims = ", ".join(_COLUMNS[c] for c in by)
    values = ", ".join(["(%s, %s, CAST(%s AS NUMERIC), CAST(%s AS NUMERIC))"] * len(prices))
    params: list = [v for row in prices for v in row]
    where = ["r.day >= %s", "r.day <= %s"]
    params += [connection.ops.adapt_datefield_value(f.start), connection.ops.adapt_datefield_value(f.end)]
    if f.dealer is not None:
        where.append("r.dealer_id = %s")
        params.append(f.dealer.pk)
    if f.shift is not None:
        where.append("r.shift = %s")
        params.append(f.shift)
    sql = (
        f"WITH p (table_id, variant, edge, sd2) AS (VALUES {values}) "
        f"SELECT {dims}, SUM(r.rounds), SUM(r.initial_wagers), SUM(r.total_wagered), SUM(r.win_logged), "
        f"SUM(r.win_owed), SUM(r.initial_wagers * p.edge), SUM(r.initial_wagers_sq * p.sd2) "
        f"FROM {qn(Rollup._meta.db_table)} r JOIN p ON p.table_id = r.table_id AND p.variant = r.variant "
        f"WHERE {' AND '.join(where)} GROUP BY {dims}"
    )
    out: dict[tuple, Figures] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor.fetchall():
            key = tuple(
                dt.date.fromisoformat(v) if c in ("day", "shift_date") and isinstance(v, str) else v
                for c, v in zip(by, row)
            )
            rounds, initial, total, logged, owed, theoretical, variance = row[len(by) :]
            figures = out.setdefault(key, Figures())
            figures.add_priced(
                rounds=rounds,
                initial_wagers=initial,
                total_wagered=total,
                win_logged=logged,
                win_owed=owed,
                theoretical=theoretical,
                variance=variance,
            )
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
