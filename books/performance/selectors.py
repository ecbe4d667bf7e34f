"""Reads of dealer performance (docs/dealer-performance.md): error rates, their intervals, the money
the findings moved and the weekly trend from audit's rollups (never the period's rounds), and the
game pace from one dealer's rounds of one period (index round_dealer_pace: dealer, table, played_at, id).

Who sees what:
- auditors (and superusers): every pit;
- pit bosses: the rounds dealt at the tables of their pits, each dealer against the rest of those pits;
- dealers: their own row only, measured against the floor of the pits they work in.
The floor a dealer is compared with is always the viewer's floor; a dealer never sees another's row.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, Sum
from django.db.models.functions import TruncWeek
from django.utils.translation import gettext as _

from audit.choices import FindingStatus
from audit.dashboard import Period
from audit.models import Rollup, RollupFinding
from casino.roles import AUDITOR, DEALER, PIT_BOSS, has_role
from casino.scope import FLOOR, restrict, scope_q, sees_every_pit
from dealing.models import Round

from . import stats

ROLES = (DEALER, PIT_BOSS, AUDITOR)
ZERO = Decimal("0.00")


def alpha() -> float:
    return float(getattr(settings, "BOOKS_PERFORMANCE_ALPHA", stats.ALPHA))


def break_after() -> dt.timedelta:
    return dt.timedelta(minutes=float(getattr(settings, "BOOKS_PACE_BREAK_MINUTES", 10)))


def test_name() -> str:
    return _(
        "exact conditional binomial test (one-sided: the dealer above the rest of the floor), "
        "Holm-corrected across the floor's dealers"
    )


def shortest_round() -> dt.timedelta:
    return dt.timedelta(seconds=float(getattr(settings, "BOOKS_PACE_SHORTEST_SECONDS", 5)))


def _floor_q(user) -> Q:
    """The rollup rows of the viewer's floor: every pit for an auditor, his pits otherwise."""
    return scope_q(Rollup, user, FLOOR)


def own_row_only(user) -> bool:
    """A dealer (without a pit boss's or an auditor's role) sees only his own row."""
    return not sees_every_pit(user) and not has_role(user, PIT_BOSS, AUDITOR)


@dataclass
class Week:
    start: dt.date
    rounds: int = 0
    errors: int = 0

    @property
    def per_100(self) -> Decimal:
        return stats.per_100(self.errors, self.rounds)


@dataclass
class DealerRow:
    dealer_id: int
    username: str
    name: str
    rounds: int
    errors: int
    over: Decimal
    under: Decimal
    per_100: Decimal = ZERO
    ci_low: Decimal = ZERO
    ci_high: Decimal = ZERO
    p_value: float = 1.0
    p_holm: float = 1.0
    flagged: bool = False
    weeks: list[Week] = field(default_factory=list)

    @property
    def net(self) -> Decimal:
        """What the findings moved to the players, net (over + under, under being negative)."""
        return self.over + self.under


@dataclass
class FloorPerformance:
    period: Period
    rounds: int
    errors: int
    per_100: Decimal
    ci_low: Decimal
    ci_high: Decimal
    alpha: float
    rows: list[DealerRow]
    weeks: list[Week]
    test: str = ""


def _week_of(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _weeks(period: Period) -> list[dt.date]:
    first, out = _week_of(period.date_from), []
    while first <= period.date_to:
        out.append(first)
        first += dt.timedelta(days=7)
    return out


def floor_performance(*, user, period: Period) -> FloorPerformance:
    """Every dealer of the viewer's floor over the period (a dealer: his row alone), from the rollups:
    rounds audited, findings not dismissed (errors), the rate per 100 rounds with Garwood's interval,
    over/under, the conditional test against the rest of the floor with Holm's correction, and the
    weekly trend."""
    days = Q(day__gte=period.date_from, day__lte=period.date_to)
    floor = _floor_q(user)
    rounds = {
        row["dealer_id"]: row["rounds"]
        for row in (
            Rollup.objects.filter(floor, days)
            .exclude(dealer_id=0)
            .order_by()
            .values("dealer_id")
            .annotate(rounds=Sum("rounds"))
            .filter(rounds__gt=0)
        )
    }
    findings = (
        RollupFinding.objects.filter(floor, days, of_shoe=False)
        .exclude(dealer_id=0)
        .exclude(status=FindingStatus.DISMISSED)
        .order_by()
    )
    money = {
        row["dealer_id"]: row
        for row in findings.values("dealer_id").annotate(n=Sum("n"), over=Sum("over"), under=Sum("under"))
    }
    week_starts = _weeks(period)
    weekly: dict[int, dict[dt.date, Week]] = {d: {w: Week(w) for w in week_starts} for d in rounds}
    # Summed by week in the database (TruncWeek: the Monday, as _weeks): a year is 52 rows a dealer,
    # not 365 × shifts.
    for row in (
        Rollup.objects.filter(floor, days)
        .exclude(dealer_id=0)
        .order_by()
        .annotate(week=TruncWeek("day"))
        .values("dealer_id", "week")
        .annotate(rounds=Sum("rounds"))
    ):
        if row["dealer_id"] in weekly:
            weekly[row["dealer_id"]][row["week"]].rounds += row["rounds"] or 0
    for row in findings.annotate(week=TruncWeek("day")).values("dealer_id", "week").annotate(n=Sum("n")):
        if row["dealer_id"] in weekly:
            weekly[row["dealer_id"]][row["week"]].errors += row["n"] or 0
    names = {
        pk: (username, f"{first} {last}".strip())
        for pk, username, first, last in get_user_model()
        .objects.filter(pk__in=list(rounds))
        .values_list("pk", "username", "first_name", "last_name")
    }
    rows = []
    for dealer_id, n in rounds.items():
        f = money.get(dealer_id, {})
        username, name = names.get(dealer_id, ("?", ""))
        rows.append(
            DealerRow(
                dealer_id,
                username,
                name,
                n,
                f.get("n") or 0,
                f.get("over") or ZERO,
                f.get("under") or ZERO,
                weeks=list(weekly[dealer_id].values()),
            )
        )
    total_rounds = sum(r.rounds for r in rows)
    total_errors = sum(r.errors for r in rows)
    level = alpha()
    for row in rows:
        row.per_100 = stats.per_100(row.errors, row.rounds)
        row.ci_low, row.ci_high = stats.rate_interval(row.errors, row.rounds, level)
        row.p_value = stats.conditional_test(
            row.errors, row.rounds, total_errors - row.errors, total_rounds - row.rounds
        )
    # Holm across every dealer of the floor, before a dealer's view narrows to his own row.
    for row, adjusted in zip(rows, stats.holm([r.p_value for r in rows])):
        row.p_holm = adjusted
        row.flagged = adjusted < level
    if own_row_only(user):
        rows = [r for r in rows if r.dealer_id == user.pk]
    rows.sort(key=lambda r: (-r.per_100, r.username))
    floor_weeks = [Week(w) for w in week_starts]
    for dealer_weeks in weekly.values():
        for k, week in enumerate(dealer_weeks.values()):
            floor_weeks[k].rounds += week.rounds
            floor_weeks[k].errors += week.errors
    low, high = stats.rate_interval(total_errors, total_rounds, level)
    return FloorPerformance(
        period,
        total_rounds,
        total_errors,
        stats.per_100(total_errors, total_rounds),
        low,
        high,
        level,
        rows,
        floor_weeks,
        test_name(),
    )


def dealer_row(*, user, period: Period, dealer_id: int) -> tuple[FloorPerformance, DealerRow | None]:
    """The floor and one dealer's row in it (None when the viewer may not see him or he dealt nothing)."""
    floor = floor_performance(user=user, period=period)
    return floor, next((r for r in floor.rows if r.dealer_id == dealer_id), None)


def dealer_pace(*, user, dealer_id: int, period: Period) -> stats.Pace:
    """One dealer's game pace over one period, on the tables of the viewer's floor: the rounds he dealt
    (their first revision: a correction is the same round dealt once), read
    on the (dealer, played_at, id) index — bounded by one dealer and one period."""
    rounds = Round.objects.filter(
        dealer_id=dealer_id, played_at__gte=period.start, played_at__lt=period.end, supersedes__isnull=True
    ).order_by()
    rounds = restrict(rounds, user, FLOOR)
    if connection.vendor == "postgresql":
        # The window orders the rounds itself (by table, then time): no ORDER BY inside.
        return _pace_in_database(rounds.values_list("id", "table_id", "shoe_id", "played_at"))
    rows = rounds.order_by("played_at", "id").values_list("table_id", "shoe_id", "played_at")
    return stats.pace(rows.iterator(chunk_size=5000), break_after(), shortest_round())


# `stats.pace` in one statement: each round against the one before it at its table (lag over the
# table's rounds in (played_at, id) order), the gaps classified as `stats.pace` does, with interval
# arithmetic (exact to the microsecond). A dealer deals about 100,000 rounds a year at 50 an hour:
# read into Python they took seconds; summed in the database they never leave it.
_PACE_SQL = """
SELECT count(*),
       count(*) FILTER (WHERE previous_at IS NOT NULL AND previous_shoe IS DISTINCT FROM shoe_id),
       count(*) FILTER (WHERE previous_at IS NOT NULL AND previous_shoe IS NOT DISTINCT FROM shoe_id
                        AND gap > %s),
       count(*) FILTER (WHERE counted),
       coalesce(extract(epoch FROM sum(gap) FILTER (WHERE counted)), 0)
FROM (SELECT shoe_id, previous_shoe, previous_at, gap,
             previous_at IS NOT NULL AND previous_shoe IS NOT DISTINCT FROM shoe_id
             AND gap <= %s AND gap > %s AND gap > interval '0' AS counted
      FROM (SELECT shoe_id, lag(shoe_id) OVER w AS previous_shoe, lag(played_at) OVER w AS previous_at,
                   played_at - lag(played_at) OVER w AS gap
            FROM ({rows}) AS r (id, table_id, shoe_id, played_at)
            WINDOW w AS (PARTITION BY table_id ORDER BY played_at, id)) AS g) AS c
"""


def _pace_in_database(rows) -> stats.Pace:
    sql, params = rows.query.sql_with_params()
    limit, floor = break_after(), max(shortest_round(), dt.timedelta(0))
    with connection.cursor() as cursor:
        # Never a prepared statement (casino/settings.py prepares what a connection repeats): after
        # five runs PostgreSQL may keep a generic plan, which knows neither the dealer nor the period
        # and took 0.3 s here instead of 0.06 (10 million rounds, a dealer's year).
        cursor.cursor.execute(_PACE_SQL.format(rows=sql), [limit, limit, floor, *params], prepare=False)
        rounds, shoe_changes, breaks, intervals, seconds = cursor.cursor.fetchone()
    return stats.Pace(rounds, intervals, float(seconds), breaks, shoe_changes)


# --- the trend chart -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    dealer: str  # SVG polyline points
    floor: str
    dots: list[tuple[float, float, str]]  # x, y, title
    top: Decimal


def trend_chart(row: DealerRow, floor_weeks: list[Week], *, width: int = 320, height: int = 80) -> Chart:
    """A small inline SVG of the dealer's errors per 100 rounds week by week, against the floor's."""
    pad = 6
    values = [w.per_100 for w in row.weeks] + [w.per_100 for w in floor_weeks]
    top = max(values + [Decimal(1)])
    n = max(len(row.weeks), 1)

    def x(k):
        return pad + (width - 2 * pad) * (k / (n - 1) if n > 1 else 0.5)

    def y(v):
        return height - pad - (height - 2 * pad) * float(v / top)

    dealer = " ".join(f"{x(k):.1f},{y(w.per_100):.1f}" for k, w in enumerate(row.weeks) if w.rounds)
    floor = " ".join(f"{x(k):.1f},{y(w.per_100):.1f}" for k, w in enumerate(floor_weeks) if w.rounds)
    dots = [
        (round(x(k), 1), round(y(w.per_100), 1), f"{w.start.isoformat()}: {w.per_100} / 100 ({w.errors}/{w.rounds})")
        for k, w in enumerate(row.weeks)
        if w.rounds
    ]
    return Chart(width, height, dealer, floor, dots, top)
