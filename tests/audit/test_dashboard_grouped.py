"""The dashboard's counts of findings on PostgreSQL come from one GROUPING SETS statement over the
findings rollups (issue 17: a year of rollups was read seven times). They must be the counts the
seven grouped queries give — every code, severity, review, table, dealer and day, and the money —
for any rollup rows, in every user's scope and period."""

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit import dashboard
from audit.choices import FindingStatus
from audit.models import RollupFinding
from tests.factories import TableFactory

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="GROUPING SETS is PostgreSQL's"),
]

CODES = ("WRONG_PAYOUT", "WRONG_TAKE", "BURN_MISSING", "EXPOSED_CARD", "SHOE_OVERDEALT")
STATUSES = tuple(FindingStatus.values)


def _rows(rng: random.Random, tables, dealers, today: dt.date, count: int) -> list[RollupFinding]:
    rows, seen = [], set()
    while len(rows) < count:
        day = today - dt.timedelta(days=rng.randrange(0, 50))  # some before the period
        key = (
            day,
            rng.choice(tables),
            rng.choice(dealers),
            rng.choice(CODES),
            rng.choice(("critical", "major", "minor")),
            rng.choice(STATUSES),
            rng.random() < 0.2,
        )
        if key in seen:
            continue
        seen.add(key)
        day, table, dealer, code, severity, status, of_shoe = key
        n = rng.choice((0, 1, 1, 2, 3, 7))  # a count taken back to 0 by a re-audit stays a row
        over = Decimal(rng.randrange(0, 50_000)) / 100 if n and rng.random() < 0.6 else Decimal(0)
        under = -Decimal(rng.randrange(0, 50_000)) / 100 if n and rng.random() < 0.4 else Decimal(0)
        rows.append(
            RollupFinding(
                day=day,
                shift_date=day,
                shift=1,
                table=table,
                dealer_id=0 if of_shoe else dealer,
                variant="ochko",
                of_shoe=of_shoe,
                code=code,
                severity=severity,
                status=status,
                classification="dealer_error" if status == FindingStatus.CONFIRMED else "",
                n=n,
                over=over,
                under=under,
            )
        )
    return rows


def _same(counted: dict) -> dict:
    """What the dashboard shows of the counts: a day, table or dealer without findings not dismissed shows nothing."""
    zero = Decimal(0)
    money = lambda row: (row["over"] or zero, row["under"] or zero, row["n"])  # noqa: E731
    return {
        "over": counted["over"] or zero,
        "under": counted["under"] or zero,
        "by_code": [(row["code"], row["n"]) for row in counted["by_code"]],
        "by_severity": {key: n for key, n in counted["by_severity"].items() if n},
        "by_review": {key: n for key, n in counted["by_review"].items() if n},
        "by_table": [(row["table__name"], *money(row)) for row in counted["by_table"]],
        "by_dealer": sorted((row["dealer_id"], *money(row)) for row in counted["by_dealer"]),
        "by_day": {day: money(row) for day, row in counted["by_day"].items() if row["n"]},
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_grouped_statement_counts_what_the_seven_queries_count(people, floor, seed):
    rng = random.Random(seed)
    tables = [floor.table_a, floor.table_b, TableFactory(name="R-3", pit=floor.pit_a)]
    dealers = [people.dealer.pk, people.other_dealer.pk, 0]
    today = dt.date.today()
    RollupFinding.objects.bulk_create(_rows(rng, tables, dealers, today, 300))
    periods = [
        dashboard.Period(today - dt.timedelta(days=29), today),
        dashboard.Period(today, today),
        dashboard.Period(today - dt.timedelta(days=400), today - dt.timedelta(days=380)),
    ]
    for user in (people.auditor, people.pit_boss, people.dealer):
        for period in periods:
            findings = dashboard.rollups_in(RollupFinding, user=user, period=period)
            grouped = dashboard.finding_totals(findings)
            assert _same(grouped) == _same(dashboard.finding_totals_each(findings)), (user, period)
    everything = dashboard.finding_totals(dashboard.rollups_in(RollupFinding, user=people.auditor, period=periods[0]))
    assert everything["by_code"] and everything["by_table"] and everything["by_dealer"]  # the floor was counted


def test_the_dashboard_reads_the_findings_rollups_in_one_statement(people, floor):
    today = dt.date.today()
    RollupFinding.objects.bulk_create(
        _rows(random.Random(9), [floor.table_a, floor.table_b], [people.dealer.pk, 0], today, 60)
    )
    with CaptureQueriesContext(connection) as queries:
        dashboard.dashboard(user=people.auditor, period=dashboard.Period(today - dt.timedelta(days=364), today))
    table = RollupFinding._meta.db_table
    assert sum(table in q["sql"] for q in queries.captured_queries) == 1


def test_the_grouped_counts_are_whole_numbers_and_the_money_decimals(people, floor):
    today = dt.date.today()
    RollupFinding.objects.bulk_create(_rows(random.Random(4), [floor.table_a], [people.dealer.pk], today, 40))
    period = dashboard.Period(today - dt.timedelta(days=60), today)
    counted = dashboard.finding_totals(dashboard.rollups_in(RollupFinding, user=people.auditor, period=period))
    rows = counted["by_code"] + counted["by_table"] + counted["by_dealer"] + list(counted["by_day"].values())
    assert rows and all(type(row["n"]) is int for row in rows)
    assert all(type(n) is int for n in [*counted["by_severity"].values(), *counted["by_review"].values()])
    money = counted["by_table"] + counted["by_dealer"] + list(counted["by_day"].values())
    assert type(counted["over"]) is Decimal and all(type(row["over"]) is Decimal for row in money)
