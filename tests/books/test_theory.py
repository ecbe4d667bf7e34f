"""Theoretical against actual (books/theory/arithmetic.py, books/theory/selectors.py): the band covers an honest
table's win about 95 % of the time; planted mistakes come out as the dealer errors to the cent; the
rollups' Σ initial wagers² is kept; bad filters are a clear 400."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db.models import Sum
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from audit import rollups
from audit.models import Rollup
from books.theory import selectors
from books.theory.arithmetic import Figures, edge_for
from dealing import engine
from dealing.engine.simulators import simulate
from dealing.models import Round
from dealing.services.rounds import logged_float
from tests.audit.conftest import log_rounds, people  # noqa: F401 - the audit tests' fixtures

HONEST = dict(boxes=(1, 1), insurance=0.0, even_money=0.0, errors=0.0, table_min=Decimal(10), table_max=Decimal(500))


OCHKO_HONEST = dict(boxes=(1, 1), shared=0.0, incidents=0.0, play="optimal")


def honest_table(seed: int, rounds: int, variant: str = "blackjack", rules: dict | None = None) -> Figures:
    """One simulated one-box table without mistakes, summed as the rollups sum it: the initial wagers
    and their squares, the win the engine settles. Blackjack: salon, basic strategy; ochko: played
    optimally (the play the edge assumes, no dealer bets)."""
    if variant == "blackjack":
        edge, options = edge_for("blackjack", {"preset": "salon"}), HONEST
    else:
        edge, options = edge_for(variant, rules), dict(OCHKO_HONEST, rules=rules)
    figures = Figures()
    for sim in simulate(variant, rounds, seed=seed, **options):
        outcome = engine.replay(sim.doc)
        initial, total = rollups.handle(sim.doc, outcome)
        win = logged_float(outcome)
        figures.add(
            rounds=1,
            initial_wagers=initial,
            initial_wagers_sq=initial * initial,
            total_wagered=total,
            win_logged=win,
            win_owed=win,
            edge=edge,
        )
    return figures


def test_an_honest_tables_win_falls_inside_its_95_percent_band_about_95_percent_of_the_time():
    tables = [honest_table(seed, 60) for seed in range(400)]
    inside = sum(not t.outside for t in tables) / len(tables)
    # 400 tables: the fraction inside is binomial(400, 0.95)/400, sd 0.011; ±3 sd either side.
    assert 0.91 <= inside <= 0.98, inside
    # The p-value says how far out: those outside have p < 5 %, those inside p ≥ 5 %.
    assert all((t.p_value < 0.05) == t.outside for t in tables)
    assert all(t.errors == 0 for t in tables)
    # Summed, the 400 tables' win stays within the band of their sum too.
    floor = Figures()
    for t in tables:
        floor.merge(t)
    assert floor.band_low <= floor.actual <= floor.band_high


def test_an_honest_ochko_tables_win_falls_inside_its_95_percent_band_about_95_percent_of_the_time():
    tables = [honest_table(seed, 60, "ochko") for seed in range(400)]
    inside = sum(not t.outside for t in tables) / len(tables)
    # As for blackjack: binomial(400, 0.95)/400, sd 0.011; ±3 sd either side.
    assert 0.91 <= inside <= 0.98, inside
    assert all((t.p_value < 0.05) == t.outside for t in tables)
    assert all(t.errors == 0 for t in tables)
    # Summed, the floor's win is within 3 sd of the edge (its own 95 % band misses 1 time in 20; these
    # seeds sit at z ≈ −2.1, the house winning less than the edge, by chance).
    floor = Figures()
    for t in tables:
        floor.merge(t)
    assert abs(floor.z) < 3, floor.z


def test_the_band_widens_with_the_wagers_squared_not_the_wagers():
    edge = edge_for("blackjack", {"preset": "salon"})
    even, lumpy = Figures(), Figures()
    for _ in range(100):
        even.add(
            rounds=1,
            initial_wagers=Decimal(100),
            initial_wagers_sq=Decimal(10000),
            total_wagered=Decimal(100),
            win_logged=0,
            win_owed=0,
            edge=edge,
        )
    lumpy.add(
        rounds=1,
        initial_wagers=Decimal(10000),
        initial_wagers_sq=Decimal(10000) ** 2,
        total_wagered=Decimal(10000),
        win_logged=0,
        win_owed=0,
        edge=edge,
    )
    assert even.theoretical == lumpy.theoretical  # the same handle …
    assert lumpy.sd == pytest.approx(10 * even.sd)  # … but one big wager swings ten times as far
    assert isinstance(even.theoretical, Decimal) and even.theoretical > 0


@pytest.mark.django_db
def test_planted_mistakes_are_the_dealer_errors_to_the_cent(eager, people, floor, log_rounds):
    rows = log_rounds(
        floor.table_a, people.dealer, n=40, seed=11, mistake_rate=0.4, kinds=["wrong_amount", "wrong_result"]
    )
    planted = sum((sim.player_delta for _r, sim in rows if sim.player_delta is not None), Decimal(0))
    assert planted != 0
    f = selectors.parse_filters(people.auditor, {"by": "table"})
    rows_by_table, total = selectors.theory_rows(people.auditor, f)
    assert [r.label for r in rows_by_table] == [floor.table_a.name]
    # What the players received beyond what they were owed is what the house's win is short.
    assert total.errors == -planted
    assert total.actual == Round.objects.aggregate(s=Sum("float_logged"))["s"]
    assert total.chance == total.owed - total.theoretical
    assert total.difference == total.errors + total.chance
    assert total.rounds == 40


@pytest.mark.django_db
def test_the_rollups_keep_the_initial_wagers_squared_and_rebuild_them(eager, people, floor, log_rounds):
    rows = log_rounds(floor.table_a, people.dealer, n=12, seed=5)
    want = Decimal(0)
    for _record, sim in rows:
        initial, _total = rollups.handle(sim.doc, engine.replay(sim.doc))
        want += initial * initial
    assert Rollup.objects.aggregate(s=Sum("initial_wagers_sq"))["s"] == want
    assert rollups.differences() == []
    Rollup.objects.update(initial_wagers_sq=0)
    assert rollups.differences()
    rollups.rebuild()
    assert Rollup.objects.aggregate(s=Sum("initial_wagers_sq"))["s"] == want


@pytest.mark.django_db
def test_rows_by_dealer_day_game_and_shift_add_up_to_the_same_total(eager, people, floor, log_rounds):
    log_rounds(floor.table_a, people.dealer, n=8, seed=1)
    log_rounds(floor.table_a, people.other_dealer, n=6, seed=2)
    log_rounds(floor.table_b, people.other_dealer, n=5, seed=3)
    totals = {}
    for by in selectors.BY:
        rows, total = selectors.theory_rows(people.auditor, selectors.parse_filters(people.auditor, {"by": by}))
        assert sum(r.figures.rounds for r in rows) == 19
        totals[by] = (total.actual, total.theoretical, round(total.variance, 6))
    assert len(set(totals.values())) == 1
    rows, _ = selectors.theory_rows(people.auditor, selectors.parse_filters(people.auditor, {"by": "dealer"}))
    assert {r.label: r.figures.rounds for r in rows} == {"dealer-a": 8, "dealer-b": 11}
    # The pit boss of pit A sees pit A's table only.
    rows, total = selectors.theory_rows(people.pit_boss, selectors.parse_filters(people.pit_boss, {}))
    assert [r.label for r in rows] == [floor.table_a.name] and total.rounds == 14
    # Filters combine: dealer-b at R-1.
    _rows, total = selectors.theory_rows(
        people.auditor, selectors.parse_filters(people.auditor, {"dealer": "dealer-b", "table": floor.table_a.name})
    )
    assert total.rounds == 6
    # The funnel ends where the total does.
    points = selectors.funnel(people.auditor, selectors.parse_filters(people.auditor, {}))
    assert points[-1].actual == totals["table"][0] and points[-1].low <= points[-1].theoretical <= points[-1].high


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params, field",
    [
        ({"start": "2026-13-01"}, "start"),
        ({"end": "yesterday"}, "end"),
        ({"start": "2026-05-02", "end": "2026-05-01"}, "start"),
        ({"table": "NO-SUCH"}, "table"),
        ({"dealer": "nobody-here"}, "dealer"),
        ({"variant": "poker"}, "variant"),
        ({"by": "colour"}, "by"),
        ({"shift": "9"}, "shift"),
        ({"pit": "Pit B"}, "pit"),
    ],
)
def test_bad_filters_are_a_400_naming_the_field(people, floor, params, field):
    api, page = Client(), Client()
    api.force_login(people.pit_boss)  # works in Pit A only: Pit B is not his
    page.force_login(people.pit_boss)
    response = api.get("/api/v1/books/theory/", params)
    assert response.status_code == 400
    assert response.json()["extra"] == {"code": "bad_filter", "field": field}
    assert response.json()["message"]
    response = page.get("/books/theory/", params)
    assert response.status_code == 400
    assert response.context["error_field"] == field
    # The sentence is shown next to its field, and no figures.
    html = response.content.decode()
    field_html = html[html.index(f'id="f-{field}"') :]
    field_html = field_html[: field_html.index("</div>")]
    assert f'<span class="errorlist">{escape(response.context["error"])}</span>' in field_html
    assert 'class="funnel"' not in html and "theory-rows" not in html
    assert page.get("/books/reports/period.csv", params).status_code == 400


@pytest.mark.django_db
def test_the_theory_page_and_api_show_the_rows_the_band_and_the_funnel(eager, people, floor, log_rounds):
    log_rounds(floor.table_a, people.dealer, n=6, seed=9)
    client = Client()
    client.force_login(people.auditor)
    page = client.get("/books/theory/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="funnel"' in html and "<polygon" in html and floor.table_a.name in html
    data = client.get("/api/v1/books/theory/", {"by": "day"}).json()
    today = timezone.localdate()
    assert [r["label"] for r in data["rows"]] == [today.isoformat()]
    assert data["total"]["rounds"] == 6 and len(data["funnel"]) == 1
    assert (
        Decimal(data["total"]["band_low"])
        <= Decimal(data["total"]["theoretical"])
        <= Decimal(data["total"]["band_high"])
    )
    old = (today - dt.timedelta(days=400)).isoformat()
    assert client.get("/api/v1/books/theory/", {"start": old, "end": old}).json()["total"]["rounds"] == 0


@pytest.mark.django_db
def test_the_migration_refills_the_squares_unless_told_to_fill_later(eager, people, floor, log_rounds, monkeypatch):
    import importlib

    from django.apps import apps

    fill = importlib.import_module("audit.migrations.0006_rollup_initial_wagers_sq").fill
    log_rounds(floor.table_a, people.dealer, n=5, seed=6)
    want = Rollup.objects.aggregate(s=Sum("initial_wagers_sq"))["s"]
    assert want > 0
    Rollup.objects.update(initial_wagers_sq=0)
    monkeypatch.setenv("ROLLUPS_FILL_LATER", "1")
    fill(apps, None)
    assert Rollup.objects.aggregate(s=Sum("initial_wagers_sq"))["s"] == 0
    monkeypatch.delenv("ROLLUPS_FILL_LATER")
    fill(apps, None)
    assert Rollup.objects.aggregate(s=Sum("initial_wagers_sq"))["s"] == want
