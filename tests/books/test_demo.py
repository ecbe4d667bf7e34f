"""The demo floor's weeks (books/demo.py) at a tiny size: the sweetheart dealer's and the short float's
signatures are there, the chains hold, and a second load changes nothing."""

import io
from decimal import Decimal

import pytest
from django.core.management import call_command

from audit.models import Finding, Rollup
from books import demo, selectors
from books.models import TableShift
from dealing.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def tiny_floor(settings, django_capture_on_commit_callbacks):
    settings.DEBUG = True
    settings.DEMO_FLOOR_DAYS = 2
    settings.DEMO_FLOOR_SESSION_ROUNDS = 30
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_floor", stdout=io.StringIO())


def _favoured(finding) -> bool:
    stakes = {s["id"]: s for s in finding.round.document["stakes"]}
    stake = stakes.get(finding.stake, {})
    return stake.get("player") == demo.SWEETHEART_PLAYER and stake.get("box") == demo.SWEETHEART_BOX


def test_the_demo_weeks_plant_a_sweetheart_dealer(tiny_floor):
    rounds = Round.objects.filter(table__name__in=demo.TABLES)
    assert rounds.count() == 2 * 2 * 3 * 30 + 50  # the sessions, and the short float's hour
    assert set(rounds.values_list("dealer__username", flat=True)) == {d[0] for d in demo.DEALERS}
    overpaid = Finding.objects.filter(
        table__name__in=demo.TABLES, code="WRONG_AMOUNT", player_delta__gt=0
    ).select_related("round", "dealer")
    favoured = [f for f in overpaid if _favoured(f)]
    assert favoured and {f.dealer.username for f in favoured} == {demo.SWEETHEART}
    # Audited: the rollups count every round of the demo tables.
    assert sum(Rollup.objects.filter(table__name__in=demo.TABLES).values_list("rounds", flat=True)) == rounds.count()
    days = set(rounds.values_list("logged_at__date", flat=True))
    assert len(days) >= 3  # two past days and today


def test_the_demo_weeks_close_one_shift_short(tiny_floor):
    shift = TableShift.objects.get(table__name=demo.SHORT_TABLE)
    books = selectors.shift_books(shift)
    assert shift.is_closed and books.rounds.rounds == 50
    assert books.variance == -Decimal("5000.00")
    assert books.explained


def test_the_demo_weeks_keep_the_chain_and_load_once(tiny_floor, settings, django_capture_on_commit_callbacks):
    out = io.StringIO()
    call_command("verify_chain", stdout=out)
    before = Round.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo_floor", stdout=io.StringIO())
    assert Round.objects.count() == before
    assert TableShift.objects.filter(table__name=demo.SHORT_TABLE).count() == 1


def test_the_demo_weeks_plant_a_card_counter_whom_the_scan_names_alone(tiny_floor):
    from books.models import IntegritySignal

    rounds = Round.objects.filter(table__name=demo.COUNTER_TABLE)
    assert rounds.count() >= 200 and set(rounds.values_list("variant", flat=True)) == {"blackjack"}
    signals = IntegritySignal.objects.filter(kind="advantage_play")
    assert list(signals.values_list("player", flat=True)) == [demo.COUNTER]
    evidence = signals.get().evidence
    assert evidence["game"] == "blackjack"
    assert Decimal(evidence["mean_wager_high_count"]) > Decimal(evidence["mean_wager_low_count"])
