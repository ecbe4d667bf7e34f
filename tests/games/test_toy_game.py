"""The proof that the seam per game is real: a toy game that exists only in the tests — one card to
each box and one to the dealer, the higher card wins — is registered on both sides (its engine
module and simulator, its `dealing.games` entry with a round form, drill set-ups, a part of the
strategy trainer, a house edge and a math page) and a round of it goes through the form, the
engine's check, the stored round, the audit, the round page and the audit's replay page, and
through the API; a payout drill and the strategy trainer deal it, the theory report prices it and
the game math mounts its page and endpoint — without a line of the project naming it."""

import json
import uuid
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import Finding
from casino.roles import AUDITOR, DEALER, PIT_BOSS, TRAINEE
from dealing import engine, games
from dealing.choices import AuditStatus
from dealing.models import Round
from drills.models import Drill
from tests.factories import PitFactory, StaffFactory, TableFactory, UserFactory

from . import toy
from .toy.forms import ToyRoundForm

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(monkeypatch, settings):
    registered = toy.register(monkeypatch, settings)
    yield registered
    toy.unregister()


@pytest.fixture
def floor(game):
    pit = PitFactory(name="Toy pit")
    # The table model lists the shipped games as its variant's choices; they describe, they do not
    # bind: a table of a registered game is stored like any other (its clean() only checks the games
    # the floor knows the limits of).
    table = TableFactory(
        name="Toy-1", pit=pit, variant="toy", boxes=2, min_bet=Decimal(10), max_bet=Decimal(100), chips=[]
    )
    dealer, boss = UserFactory(username="toy-dealer", role=DEALER), UserFactory(username="toy-boss", role=PIT_BOSS)
    for user in (dealer, boss):
        StaffFactory(user=user, pits=[pit])
    return table, dealer, boss


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def round_data(**changes) -> dict:
    """Box 1 (20 on 9♠) beats the dealer's 5♥ and is paid 20; box 2 (10 on 3♣) loses and is taken."""
    data = {
        "round_id": str(uuid.uuid4()),
        "s1_player": "P-1",
        "s1_bet": "20",
        "b1_card": "9S",
        "s1_bet_result": "pay",
        "s1_bet_amount": "20",
        "s2_player": "P-2",
        "s2_bet": "10",
        "b2_card": "3C",
        "s2_bet_result": "take",
        "s2_bet_amount": "10",
        "dealer_card": "5H",
    }
    data.update(changes)
    return data


def test_both_sides_of_the_seam_know_the_toy(game):
    assert games.form_for("toy") is ToyRoundForm
    assert engine.variant("toy") is toy.toy_engine
    assert "toy" in engine.VARIANTS


def test_a_toy_round_goes_from_the_form_to_the_audit_and_the_replay(floor, eager, django_capture_on_commit_callbacks):
    table, dealer, boss = floor
    client = login(dealer)
    url = reverse("dealing:round_new", kwargs={"name": table.name})
    assert client.get(reverse("dealing:table_list")).context["rows"][0]["has_form"]
    page = client.get(url)
    assert page.status_code == 200 and isinstance(page.context["form"], ToyRoundForm)

    data = round_data()
    checked = client.post(url, {**data, "action": "check"})
    result = checked.context["result"]
    assert result.ok and result.clean and result.may_save, [f.message for f in result.findings]
    assert result.float_owed == Decimal("-10")

    with django_capture_on_commit_callbacks(execute=True):
        saved = client.post(url, {**data, "action": "save", "checked": result.token})
    record = Round.objects.get()
    assert saved.status_code == 302 and saved["Location"] == reverse("dealing:round_detail", args=[record.pk])
    assert record.variant == "toy" and record.table == table and record.dealer == dealer
    assert [e["e"] for e in record.document["events"]] == ["deal", "deal", "deal", "pay", "take"]
    assert engine.settle(record.document)["findings"] == []
    assert record.float_owed == record.float_logged == Decimal("-10")
    record.refresh_from_db()
    assert record.audit_status == AuditStatus.CLEAN  # the audit ran on commit, through the toy engine

    detail = client.get(reverse("dealing:round_detail", args=[record.pk]))
    assert detail.status_code == 200 and "Clean: every wager settled as owed" in detail.content.decode()
    assert "Log the next round" in detail.content.decode()  # the toy has a form: the page offers it

    # The audit's replay page. The table drawing there is each game's layout (the `layout` slot of
    # dealing.games, not filled for the toy): until the replay asks that slot, a game without one is
    # drawn by the generic walk of boxes and cards — the page answers and shows the cards dealt.
    replay = login(boss).get(reverse("audit:round_replay", args=[record.pk]))
    assert replay.status_code == 200
    html = replay.content.decode()
    assert "9S" in html or "9♠" in html


def test_a_wrong_toy_payout_is_found_on_its_field_and_by_the_audit(floor, eager, django_capture_on_commit_callbacks):
    table, dealer, _boss = floor
    client = login(dealer)
    url = reverse("dealing:round_new", kwargs={"name": table.name})
    data = round_data(s1_bet_amount="15")
    result = client.post(url, {**data, "action": "check"}).context["result"]
    (finding,) = result.findings
    assert finding.code == "WRONG_AMOUNT" and finding.field == "s1_bet_result"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {**data, "action": "save", "checked": result.token})
    record = Round.objects.get()
    record.refresh_from_db()
    assert record.audit_status == AuditStatus.FINDINGS
    assert list(Finding.objects.filter(round=record).values_list("code", flat=True)) == ["WRONG_AMOUNT"]


def test_a_toy_round_is_logged_through_the_api(floor):
    table, dealer, _boss = floor
    doc = {
        "format": "round/1",
        "variant": "toy",
        "id": str(uuid.uuid4()),
        "table": {"name": table.name},
        "stakes": [{"id": "1", "box": 1, "player": "P-1", "bet": 20}],
        "events": [
            {"e": "deal", "to": 1, "card": "KS"},
            {"e": "deal", "to": "dealer", "card": "QH"},
            {"e": "pay", "stake": "1", "wager": "bet", "amount": 20},
        ],
    }
    client = login(dealer)
    response = client.post("/api/v1/rounds/", data=json.dumps(doc), content_type="application/json")
    assert response.status_code == 201, response.content
    record = Round.objects.get()
    assert record.variant == "toy" and record.float_owed == Decimal("-20")


# --- the drills, the theory and the math pages reach the toy through the registry --------------------


def test_the_drill_pages_list_the_toy_and_a_payout_drill_of_it_is_dealt_and_graded(game):
    from drills import payout, services
    from drills.choices import Kind

    trainee = UserFactory(username="toy-trainee", role=TRAINEE)
    client = login(trainee)
    home = client.get(reverse("drills:home"))
    assert home.status_code == 200 and "Toy game" in home.content.decode()  # the toy's `drills` labels
    assert ("toy", "Toy game") in list(home.context["form"].fields["game"].choices)

    started = client.post(
        reverse("drills:start"),
        {"game": "toy", "kind": "payout", "table": "toy10", "rounds": 2, "incidents": "none", "seed": 7},
    )
    drill = Drill.objects.get(trainee=trainee)
    assert started.status_code == 302 and (drill.variant, drill.kind, drill.table_name) == ("toy", Kind.PAYOUT, "Toy-1")
    current = services.drill_next(drill=drill, user=trainee)
    assert current.doc["variant"] == "toy" and current.script["sheet"]  # dealt by the toy's simulator
    page = client.get(reverse("drills:play", args=[drill.pk]))
    assert page.status_code == 200
    graded = services.payout_answer(drill=drill, user=trainee, answers=payout.simulated_answers(current.doc))
    assert graded.correct == graded.decisions > 0  # the dealer's own settlement, graded by the toy engine


def test_the_strategy_trainer_deals_and_grades_the_toy(game):
    from drills import services, strategy

    trainee = UserFactory(username="toy-trainee", role=TRAINEE)
    assert "toy" in strategy.strategy_games()
    drill = services.drill_start(trainee=trainee, variant="toy", kind="strategy", rounds=1, seed=3)
    current = services.drill_next(drill=drill, user=trainee)
    decision = services.strategy_decision(current)
    assert set(decision.options) == {"play", "fold"} and decision.situation.endswith(current.doc["dealer"])
    step = services.strategy_answer(drill=drill, user=trainee, choice=decision.keys[decision.best])
    assert step.correct and step.expected["choice"] == decision.best
    current.refresh_from_db()
    assert current.script["state"]["phase"] == strategy.PHASE_DONE


def test_the_theory_report_prices_a_toy_table_with_the_toys_edge(floor, eager, django_capture_on_commit_callbacks):
    from books.theory.arithmetic import edge_for

    from .toy.theory import EDGE

    table, dealer, _boss = floor
    assert edge_for("toy", None).edge == EDGE
    url = reverse("dealing:round_new", kwargs={"name": table.name})
    client, data = login(dealer), round_data()
    result = client.post(url, {**data, "action": "check"}).context["result"]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {**data, "action": "save", "checked": result.token})
    auditor = UserFactory(username="toy-auditor", role=AUDITOR)
    StaffFactory(user=auditor, pits=[table.pit])
    day = Round.objects.get().played_at.date().isoformat()
    answer = login(auditor).get(reverse("api:books:theory"), {"variant": "toy", "by": "game", "start": day, "end": day})
    assert answer.status_code == 200, answer.content
    (row,) = answer.json()["rows"]
    assert row["key"] == ["toy"] and row["rounds"] == 1
    # The handle is the two bets (20 + 10); the theoretical win is the handle times the toy's edge.
    assert Decimal(row["theoretical"]) == (Decimal(30) * EDGE).quantize(Decimal("0.01"))
    page = login(auditor).get(reverse("books:theory"), {"variant": "toy", "by": "game", "start": day, "end": day})
    assert page.status_code == 200


@pytest.fixture
def mounted(game):
    toy.reload_urls()
    yield
    games.unregister(toy.GAME.variant)  # the Django side gone (the `game` fixture takes the engine's), then
    toy.reload_urls()  # the URLconfs without the toy's page


def test_the_math_pages_and_api_mount_the_toys_and_warm_it(mounted):
    from gamemath import warm

    from .toy.math import urls as toy_math
    from .toy.theory import EDGE

    reader = UserFactory(username="toy-reader", role=TRAINEE)
    client = login(reader)
    assert reverse("gamemath:toy") == "/math/toy/" and reverse("api:math-toy-edge") == "/api/v1/math/toy/edge/"
    page = client.get(reverse("gamemath:toy"))
    assert page.status_code == 200 and f"House edge {EDGE}" in page.content.decode()
    assert client.get(reverse("gamemath:ochko")).status_code == 200  # the shipped games' pages stay
    answer = client.get(reverse("api:math-toy-edge"))
    assert answer.status_code == 200 and answer.json() == {"house_edge": str(EDGE)}
    toy_math.WARMED.clear()
    with pytest.MonkeyPatch.context() as patch:
        for other in ("ochko", "blackjack", "veintiuno"):  # the real games' solves take a minute: not here
            patch.setattr(games.get(other).slot("math").load(), "warm", lambda: None)
        warm.warm()
    assert toy_math.WARMED == ["toy"]
