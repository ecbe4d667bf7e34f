"""Dealer performance: the exact statistics against published and independently computed values, the
flag on simulated floors (honest and with a planted dealer), the pace, and who sees what."""

import datetime as dt
import math
import random
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from audit.dashboard import Period
from audit.models import Rollup, RollupFinding
from books.performance import selectors, stats

# --- the statistics ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "k, low, high, places",
    [
        # Exact Poisson 95 % limits as tabled (e.g. Ulm 1990; Garwood 1936): χ²(.025; 2k)/2, χ²(.975; 2k+2)/2.
        (0, 0.0, 3.6889, 4),
        (1, 0.0253, 5.5716, 4),
        (2, 0.2422, 7.2247, 4),
        (5, 1.6235, 11.6683, 4),
        (10, 4.7954, 18.3904, 4),
        (50, 37.11, 65.92, 2),
    ],
)
def test_garwood_interval_matches_the_tables(k, low, high, places):
    got_low, got_high = stats.garwood(k)
    assert got_low == pytest.approx(low, abs=10**-places)
    assert got_high == pytest.approx(high, abs=10**-places)


def test_rate_interval_is_per_100_rounds():
    assert stats.rate_interval(10, 1000) == (Decimal("0.48"), Decimal("1.84"))
    assert stats.per_100(10, 1000) == Decimal("1.00")


def _tail(x, t, p):
    return sum(math.comb(t, i) * p**i * (1 - p) ** (t - i) for i in range(x, t + 1))


@pytest.mark.parametrize("x, t, p", [(10, 12, 0.5), (3, 40, 0.02), (0, 5, 0.3), (17, 30, 0.25), (30, 30, 0.9)])
def test_binomial_tail_against_the_plain_sum(x, t, p):
    assert stats.binom_sf(x, t, p) == pytest.approx(_tail(x, t, p), rel=1e-9)
    assert stats.binom_sf(10, 12, 0.5) == pytest.approx(79 / 4096, rel=1e-12)


def test_conditional_test_is_the_binomial_of_the_dealers_share_of_the_rounds():
    # 30 errors in 1,000 rounds against 60 in 4,000: given 90 errors, the dealer's share is 1/5.
    assert stats.conditional_test(30, 1000, 60, 4000) == pytest.approx(_tail(30, 90, 0.2), rel=1e-9)
    # At the floor's rate the test does not reject; far above it, it does.
    assert stats.conditional_test(20, 1000, 80, 4000) > 0.4
    assert stats.conditional_test(60, 1000, 80, 4000) < 1e-8


def test_holm_steps_down():
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])


def _poisson(rng, mu):
    u, k, term = rng.random(), 0, math.exp(-mu)
    total = term
    while u > total:
        k += 1
        term *= mu / k
        total += term
    return k


def _flags(rng, rates, rounds):
    errors = [_poisson(rng, r * n) for r, n in zip(rates, rounds)]
    total_e, total_n = sum(errors), sum(rounds)
    p = [stats.conditional_test(e, n, total_e - e, total_n - n) for e, n in zip(errors, rounds)]
    return [adj < 0.05 for adj in stats.holm(p)]


def test_an_honest_floor_raises_false_flags_no_more_often_than_the_level():
    rng = random.Random(21)
    reps = 400
    floors_flagged = 0
    for _ in range(reps):
        rounds = [rng.randint(500, 2500) for _ in range(8)]
        floors_flagged += any(_flags(rng, [0.05] * 8, rounds))
    # Holm keeps the chance of any false flag on a floor at most 5 %; three standard errors of slack.
    assert floors_flagged / reps <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps)


def test_a_dealer_at_twice_the_floors_rate_is_flagged_and_only_he():
    rng = random.Random(7)
    reps = 100
    planted = others = 0
    for _ in range(reps):
        flags = _flags(rng, [0.10] + [0.05] * 7, [2000] * 8)
        planted += flags[0]
        others += any(flags[1:])
    assert planted >= 90
    assert others <= 10


def _at(minutes):
    return dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC) + dt.timedelta(minutes=minutes)


def test_pace_leaves_out_breaks_and_shoe_changes():
    rows = [
        (1, 10, _at(0)),
        (1, 10, _at(1)),
        (1, 10, _at(2)),
        (1, 10, _at(3)),  # 3 gaps of a minute
        (1, 10, _at(33)),  # a 30-minute break
        (1, 11, _at(38)),  # a new shoe: the shuffle
        (1, 11, _at(38.5)),
        (1, 11, _at(39)),  # 2 gaps of half a minute
        (2, 20, _at(39.25)),  # another table: its own first round
        (1, 11, _at(39.01)),  # typed in with the one before: not a round's worth of dealing
    ]
    pace = stats.pace(rows, dt.timedelta(minutes=10), dt.timedelta(seconds=5))
    assert (pace.rounds, pace.intervals, pace.breaks, pace.shoe_changes) == (10, 5, 1, 1)
    assert pace.seconds == 240
    assert pace.per_hour == Decimal("75.0")  # 5 rounds in 4 minutes


# --- the floor from the rollups, and who sees it ---------------------------------------------------------------


@pytest.fixture
def rated(floor, make_user):
    """Three dealers over the last days: dealer-a at R-1 (Pit A) honest, dealer-b at R-1 far above the floor
    (with overpayments), dealer-c at R-2 (Pit B)."""
    a = make_user("dealer", pits=floor.pits, username="dealer-a")
    b = make_user("dealer", pits=floor.pits, username="dealer-b")
    c = make_user("dealer", pits=floor.pits, username="dealer-c")
    today = timezone.localdate()
    for dealer, table, rounds, errors, over in [
        (a, floor.table_a, 3000, 60, "500.00"),
        (b, floor.table_a, 1000, 90, "12000.00"),
        (c, floor.table_b, 2000, 40, "300.00"),
    ]:
        for d in range(2):
            day = today - dt.timedelta(days=d)
            Rollup.objects.create(
                day=day,
                shift_date=day,
                shift=0,
                table=table,
                dealer_id=dealer.pk,
                variant="ochko",
                rounds=rounds // 2,
                clean=rounds // 2,
            )
            RollupFinding.objects.create(
                day=day,
                shift_date=day,
                shift=0,
                table=table,
                dealer_id=dealer.pk,
                variant="ochko",
                code="WRONG_AMOUNT",
                severity="major",
                status="open",
                n=errors // 2,
                over=Decimal(over) / 2,
                under=Decimal("-100.00"),
            )
        # Dismissed findings are not errors.
        RollupFinding.objects.create(
            day=today,
            shift_date=today,
            shift=0,
            table=table,
            dealer_id=dealer.pk,
            variant="ochko",
            code="WRONG_AMOUNT",
            severity="major",
            status="dismissed",
            n=500,
            over=Decimal("99999.00"),
        )
    return a, b, c


def _period(days=7):
    today = timezone.localdate()
    return Period(today - dt.timedelta(days=days - 1), today)


def test_floor_rates_intervals_money_and_the_flag(rated, make_user):
    a, b, c = rated
    auditor = make_user("auditor")
    floor = selectors.floor_performance(user=auditor, period=_period())
    rows = {r.username: r for r in floor.rows}
    assert (floor.rounds, floor.errors) == (6000, 190)
    assert rows["dealer-b"].per_100 == Decimal("9.00")
    assert (rows["dealer-b"].ci_low, rows["dealer-b"].ci_high) == stats.rate_interval(90, 1000)
    assert rows["dealer-b"].over == Decimal("12000.00") and rows["dealer-b"].under == Decimal("-200.00")
    assert rows["dealer-b"].net == Decimal("11800.00")
    assert rows["dealer-b"].flagged and rows["dealer-b"].p_holm < 1e-6
    assert not rows["dealer-a"].flagged and not rows["dealer-c"].flagged
    assert rows["dealer-b"].p_value == pytest.approx(stats.conditional_test(90, 1000, 100, 5000))
    assert sum(w.errors for w in rows["dealer-b"].weeks) == 90


def test_a_pit_boss_sees_his_pits_dealers_a_dealer_only_himself(rated, floor, make_user):
    a, b, c = rated
    boss_a = make_user("pit_boss", pits=[floor.pit_a])
    seen = {r.username for r in selectors.floor_performance(user=boss_a, period=_period()).rows}
    assert seen == {"dealer-a", "dealer-b"}
    mine = selectors.floor_performance(user=b, period=_period())
    assert [r.username for r in mine.rows] == ["dealer-b"]
    assert mine.rows[0].flagged  # against the floor of his pits


@pytest.mark.parametrize(
    "role, status",
    [("auditor", 200), ("pit_boss", 200), ("superuser", 200), ("dealer", 200), ("inspector", 403), ("trainee", 403)],
)
def test_the_pages_by_role(rated, client_for, role, status):
    response = client_for(role).get(reverse("books:performance_list"))
    assert response.status_code == status
    if status == 200 and role != "dealer":
        assert b"dealer-b" in response.content and b"above the floor" in response.content


def test_a_dealer_sees_his_own_page_and_no_one_elses(rated, client_for, floor):
    a, b, c = rated
    from django.test import Client

    client = Client()
    client.force_login(a)
    listed = client.get(reverse("books:performance_list"))
    assert b"dealer-a" in listed.content and b"dealer-b" not in listed.content
    assert client.get(reverse("books:performance_detail", args=[a.pk])).status_code == 200
    assert client.get(reverse("books:performance_detail", args=[b.pk])).status_code == 404
    assert client.get(reverse("api:books:performance-detail", args=[b.pk])).status_code == 404


def test_a_pit_boss_does_not_see_a_dealer_of_another_pit(rated, floor, make_user):
    a, b, c = rated
    from django.test import Client

    client = Client()
    client.force_login(make_user("pit_boss", pits=[floor.pit_a]))
    assert client.get(reverse("books:performance_detail", args=[c.pk])).status_code == 404
    page = client.get(reverse("books:performance_detail", args=[b.pk]))
    assert page.status_code == 200 and b"<svg" in page.content


@pytest.mark.parametrize(
    "role, status",
    [("auditor", 200), ("pit_boss", 200), ("dealer", 200), ("inspector", 403), ("trainee", 403), (None, 401)],
)
def test_the_api_by_role(rated, client_for, role, status):
    response = client_for(role).get(reverse("api:books:performance-list"))
    assert response.status_code == status
    if role == "auditor":
        body = response.json()
        dealers = {d["username"]: d for d in body["dealers"]}
        assert dealers["dealer-b"]["flagged"] is True and dealers["dealer-b"]["per_100"] == "9.00"
        assert dealers["dealer-b"]["over"] == "12000.00"
        assert body["rounds"] == 6000


@pytest.mark.parametrize("query", [{"to": "AAA"}, {"from": "2026-13-01"}, {"days": "many"}])
def test_the_api_refuses_a_malformed_period_naming_it(rated, client_for, query):
    response = client_for("auditor").get(reverse("api:books:performance-list"), query)
    assert response.status_code == 400
    assert set(response.json()["extra"]["fields"]) == set(query)


def test_the_detail_api_gives_the_pace(floor, make_user, client_for):
    """Rounds logged through dealing's service a minute apart: the pace is read from their played_at."""
    from dealing.models import Round
    from tests.books.conftest import log_rounds

    dealer = make_user("dealer", pits=floor.pits, username="dealer-p")
    records = log_rounds(floor.table_a, dealer, 5, seed=3)
    start = timezone.now() - dt.timedelta(hours=1)
    for k, record in enumerate(records):
        # played_at is sealed into the chain; the pace reads only it, and this test reads no chain.
        Round.objects.filter(pk=record.pk).update(played_at=start + dt.timedelta(minutes=k * 1.5))
    Rollup.objects.create(
        day=timezone.localdate(),
        shift_date=timezone.localdate(),
        shift=0,
        table=floor.table_a,
        dealer_id=dealer.pk,
        variant="ochko",
        rounds=5,
        clean=5,
    )
    body = client_for("auditor").get(reverse("api:books:performance-detail", args=[dealer.pk])).json()
    assert body["pace"]["intervals"] == 4
    assert body["pace"]["per_hour"] == "40.0"
    assert body["dealer"]["rounds"] == 5


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the pace is summed in PostgreSQL only")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_pace_summed_in_postgresql_equals_the_reference(floor, make_user, seed):
    """On PostgreSQL a dealer's pace is one statement (books/performance/selectors.py); it must count
    what `stats.pace` counts over the same rounds — at two tables at once, across shoes, with gaps of
    exactly the break and exactly the shortest round, two rounds at the same instant, a round before
    the period — for an auditor and for a pit boss who sees one of the tables."""
    from dealing.models import Round
    from tests.books.conftest import log_rounds
    from tests.factories import ShoeFactory

    rng = random.Random(seed)
    dealer = make_user("dealer", pits=[floor.pit_a, floor.pit_b], username="dealer-p")
    boss = make_user("pit_boss", pits=[floor.pit_a], username="boss-a")
    auditor = make_user("auditor", username="auditor-p")
    records = log_rounds(floor.table_a, dealer, 30, seed=seed) + log_rounds(floor.table_b, dealer, 15, seed=seed)
    shoes = {
        floor.table_a.pk: [ShoeFactory(table=floor.table_a, number=n).pk for n in (1, 2, 3)],
        floor.table_b.pk: [ShoeFactory(table=floor.table_b, number=n).pk for n in (1, 2)] + [None],
    }
    limit, shortest = selectors.break_after(), selectors.shortest_round()
    gaps = [
        limit,
        limit + dt.timedelta(microseconds=1),
        shortest,
        dt.timedelta(0),
        dt.timedelta(seconds=1),
        dt.timedelta(seconds=45),
        dt.timedelta(minutes=2, microseconds=7),
    ]
    at = timezone.now() - dt.timedelta(days=2)
    for record in records:
        at += rng.choice(gaps)
        Round.objects.filter(pk=record.pk).update(
            played_at=at, shoe_id=rng.choice(shoes[record.table_id][: rng.choice([1, 2, 3])])
        )
    # One round before the period: not read.
    Round.objects.filter(pk=records[0].pk).update(played_at=timezone.now() - dt.timedelta(days=40))
    period = Period(timezone.localdate() - dt.timedelta(days=30), timezone.localdate())
    for user, tables in [(auditor, [floor.table_a.pk, floor.table_b.pk]), (boss, [floor.table_a.pk])]:
        rows = list(
            Round.objects.filter(
                dealer=dealer, table_id__in=tables, played_at__gte=period.start, played_at__lt=period.end
            )
            .order_by("played_at", "id")
            .values_list("table_id", "shoe_id", "played_at")
        )
        expected = stats.pace(rows, limit, shortest)
        got = selectors.dealer_pace(user=user, dealer_id=dealer.pk, period=period)
        # The database sums exact intervals; the reference sums floats.
        assert (got.rounds, got.intervals, got.breaks, got.shoe_changes) == (
            expected.rounds,
            expected.intervals,
            expected.breaks,
            expected.shoe_changes,
        )
        assert got.seconds == pytest.approx(expected.seconds, abs=1e-6)
        assert got.per_hour == expected.per_hour
        if user == auditor:
            assert got.breaks and got.shoe_changes and got.intervals  # the cases were reached


@pytest.mark.parametrize("k", [1_000, 50_000])
def test_garwood_at_a_years_counts_against_wilson_hilferty(k):
    """At a dealer's year of errors the interval must still be right (it is the chi-square quantile;
    Wilson–Hilferty's approximation of it is good to about 1e-5 at these degrees of freedom)."""
    z = 1.959963984540054

    def wilson_hilferty(p_z, df):
        h = 2 / (9 * df)
        return df * (1 - h + p_z * math.sqrt(h)) ** 3 / 2

    low, high = stats.garwood(k)
    assert low == pytest.approx(wilson_hilferty(-z, 2 * k), rel=1e-4)
    assert high == pytest.approx(wilson_hilferty(z, 2 * k + 2), rel=1e-4)


def test_the_binomial_tail_at_a_years_counts_against_a_log_space_sum():
    """The dealer-against-floor test at 10 million rounds: 6,000 of 50,000 errors where a tenth was due."""

    def log_sum(x, t, p):
        terms = [
            math.lgamma(t + 1)
            - math.lgamma(j + 1)
            - math.lgamma(t - j + 1)
            + j * math.log(p)
            + (t - j) * math.log1p(-p)
            for j in range(x, t + 1)
        ]
        top = max(terms)
        return math.exp(top) * math.fsum(math.exp(v - top) for v in terms)

    for x in (5_000, 5_200, 6_000):
        assert stats.binom_sf(x, 50_000, 0.1) == pytest.approx(log_sum(x, 50_000, 0.1), rel=1e-9)


def test_the_weekly_trend_puts_each_day_in_its_monday_week(floor, make_user):
    """The trend is summed by week in the database: a Sunday belongs to the week before its Monday."""
    dealer = make_user("dealer", pits=floor.pits, username="dealer-w")
    today = timezone.localdate()
    monday = today - dt.timedelta(days=today.weekday() + 7)
    for day, rounds, errors in [
        (monday - dt.timedelta(days=1), 100, 4),
        (monday, 300, 9),
        (monday + dt.timedelta(days=6), 50, 2),
        (monday + dt.timedelta(days=7), 70, 1),
    ]:
        Rollup.objects.create(
            day=day,
            shift_date=day,
            shift=0,
            table=floor.table_a,
            dealer_id=dealer.pk,
            variant="ochko",
            rounds=rounds,
            clean=rounds - errors,
        )
        RollupFinding.objects.create(
            day=day,
            shift_date=day,
            shift=0,
            table=floor.table_a,
            dealer_id=dealer.pk,
            variant="ochko",
            code="WRONG_AMOUNT",
            severity="major",
            status="open",
            n=errors,
        )
    period = Period(monday - dt.timedelta(days=7), today)
    [row] = selectors.floor_performance(user=make_user("auditor"), period=period).rows
    weeks = {w.start: (w.rounds, w.errors) for w in row.weeks}
    assert weeks[monday - dt.timedelta(days=7)] == (100, 4)
    assert weeks[monday] == (350, 11)
    assert weeks[monday + dt.timedelta(days=7)] == (70, 1)
