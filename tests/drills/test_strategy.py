"""The strategy trainer: each decision graded against the engine's exact EVs of that hand, the
cost of a mistake in money at the table's stakes, the seeded (and weighted) dealing, the hand
played on after a hit, the counts and the mistakes by situation, the API and the pages by role."""

import random
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from casino.errors import ServiceError
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing.engine.blackjack import math as bj_math
from dealing.engine.ochko import math as ochko_math
from drills import selectors, services, strategy
from drills.choices import Kind
from drills.models import Drill

pytestmark = pytest.mark.django_db
CENT = Decimal("0.01")


def _cost(options: dict, best: str, chosen: str, wager: Decimal) -> Decimal:
    return ((Decimal(options[best]) - Decimal(options[chosen])) * wager).quantize(CENT, rounding=ROUND_HALF_UP)


@pytest.fixture
def trainee(make_user, floor):
    return make_user(TRAINEE, pits=[floor.pit_a])


def _drill(trainee, variant="blackjack", preset="salon", **kwargs):
    return services.drill_start(
        trainee=trainee, variant=variant, preset=preset, kind=Kind.STRATEGY, **{"seed": 41, "rounds": 3, **kwargs}
    )


def _set_hand(drill, trainee, cards, dealer, draws=(), phase=None):
    """Deal round 1, then put a known hand on it (the situation under test)."""
    current = services.drill_next(drill=drill, user=trainee)
    draws = list(draws) + [c for c in current.doc["draws"] if c not in draws][: 10 - len(draws)]
    current.doc = {**current.doc, "cards": list(cards), "dealer": dealer, "draws": draws}
    current.script = {
        "state": {**strategy.start_state(drill.variant, current.doc), **({"phase": phase} if phase else {})}
    }
    current.save()
    return current


def _answer(drill, trainee, choice):
    return services.strategy_answer(drill=drill, user=trainee, choice=choice)


# --- grading against the engine -------------------------------------------------------------------


def test_hard_16_vs_ten_standing_costs_the_ev_gap_at_the_stakes(trainee):
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["TS", "6H"], "TD")
    step = _answer(drill, trainee, "S")
    engine = bj_math.ev(["TS", "6H"], dealer="TD", preset="salon")
    assert engine["best"] == "hit"
    assert not step.correct and step.given["choice"] == "stand"
    assert step.expected["options"] == engine["options"]  # every option, exactly as the engine says
    assert step.expected["choice"] == "hit" and step.expected["situation"] == "hard 16 vs T"
    wager = drill.table_min
    assert Decimal(step.expected["cost"]) == _cost(engine["options"], "hit", "stand", wager)
    assert Decimal(step.expected["cost"]) > 0
    assert step.expected["chart"] == "hit"  # the published chart hits 16 against a ten too
    assert step.codes == ["STRATEGY_PLAY"]
    assert step.drill_round.done  # a stand ends the hand


def test_soft_18_vs_9_is_a_hit(trainee):
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["AS", "7H"], "9C")
    step = _answer(drill, trainee, "stand")
    engine = bj_math.ev(["AS", "7H"], dealer="9C", preset="salon")
    assert engine["best"] == "hit" and step.expected["choice"] == "hit"
    assert step.expected["situation"] == "soft 18 vs 9"
    assert Decimal(step.expected["cost"]) == _cost(engine["options"], "hit", "stand", drill.table_min)


def test_eights_are_split_against_a_ten(trainee):
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["8S", "8H"], "KC")
    step = _answer(drill, trainee, "p")
    engine = bj_math.ev(["8S", "8H"], dealer="KC", preset="salon")
    assert engine["best"] == "split"
    assert step.correct and Decimal(step.expected["cost"]) == 0 and step.codes == []
    assert step.expected["situation"] == "pair of 8s vs T"
    assert set(step.expected["options"]) == {"stand", "hit", "double", "split"}


def test_a_hit_deals_the_next_card_and_every_decision_is_graded(trainee):
    drill = _drill(trainee, rounds=1)
    current = _set_hand(drill, trainee, ["TS", "2H"], "3C", draws=["4D", "2C"])
    first = _answer(drill, trainee, "H")
    current.refresh_from_db()
    assert current.script["state"]["cards"] == ["TS", "2H", "4D"] and not current.done
    second = _answer(drill, trainee, "S")  # hard 16 vs 3: stand
    engine = bj_math.ev(["TS", "2H", "4D"], dealer="3C", preset="salon")
    assert set(engine["options"]) == {"stand", "hit"}  # no double after three cards
    assert second.expected["options"] == engine["options"] and second.expected["situation"] == "hard 16 vs 3"
    assert second.correct == (engine["best"] == "stand")
    current.refresh_from_db()
    drill.refresh_from_db()
    assert current.done and current.decisions == 2 and drill.decisions == 2
    assert drill.correct == int(first.correct) + int(second.correct)
    assert drill.rounds_done == 1 and not drill.is_active


def test_a_bust_ends_the_hand(trainee):
    drill = _drill(trainee)
    current = _set_hand(drill, trainee, ["TS", "5H"], "TC", draws=["9D"])
    _answer(drill, trainee, "H")
    current.refresh_from_db()
    assert current.done and current.script["state"]["end"] == "bust"


def test_ochko_bet_then_play(trainee):
    drill = _drill(trainee, variant="ochko", preset="")
    wager = drill.table_min
    current = _set_hand(drill, trainee, ["8S"], "9C", draws=["7H"])
    bet_engine = ochko_math.ev(["8S"])
    bet = _answer(drill, trainee, "3")
    assert bet.expected["situation"] == "first card 8: fold/bet" and bet.expected["dealer"] is None
    assert bet.expected["options"] == bet_engine["options"]
    assert bet.correct == (bet_engine["best"] == "bet:3")
    assert Decimal(bet.expected["cost"]) == _cost(bet_engine["options"], bet_engine["best"], "bet:3", wager)
    current.refresh_from_db()
    assert current.script["state"]["bet"] == 3 and current.script["state"]["phase"] == "play"
    play = _answer(drill, trainee, "D")  # a dark card on a lone 8 against a 9
    engine = ochko_math.ev(["8S"], dealer="9C", bet=3)
    assert engine["best"] == "hit" and play.expected["choice"] == "hit"
    assert play.expected["situation"] == "8 vs 9 (Bet 3)" and not play.correct
    assert play.expected["options"] == engine["options"]
    assert Decimal(play.expected["cost"]) == _cost(engine["options"], "hit", "dark", wager)
    assert play.codes == ["STRATEGY_PLAY"] and bet.codes in ([], ["STRATEGY_BET"])
    current.refresh_from_db()
    assert current.done and current.script["state"]["end"] == "dark"


def test_ochko_fold_ends_the_hand_and_zero_is_a_bet_of_ten(trainee):
    drill = _drill(trainee, variant="ochko", preset="")
    current = _set_hand(drill, trainee, ["AS"], "TC")
    step = _answer(drill, trainee, "0")
    assert step.given["choice"] == "bet:10" and step.correct  # an ace: the largest Bet
    current.refresh_from_db()
    assert current.script["state"]["bet"] == 10
    drill2 = _drill(trainee, variant="ochko", preset="", seed=42)
    current2 = _set_hand(drill2, trainee, ["6S"], "TC")
    _answer(drill2, trainee, "f")
    current2.refresh_from_db()
    assert current2.done and current2.script["state"]["end"] == "fold"


def test_an_option_not_offered_is_refused_and_changes_nothing(trainee):
    drill = _drill(trainee)
    current = _set_hand(drill, trainee, ["TS", "6H"], "TD")
    with pytest.raises(ServiceError) as refused:
        _answer(drill, trainee, "P")  # not a pair
    assert refused.value.status == 400 and refused.value.extra["field"] == "choice"
    current.refresh_from_db()
    assert current.step == 0 and not current.steps.exists()


def test_only_the_drills_trainee_answers(trainee, make_user, floor):
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["TS", "6H"], "TD")
    other = make_user(TRAINEE, pits=[floor.pit_a])
    with pytest.raises(ServiceError) as refused:
        services.strategy_answer(drill=drill, user=other, choice="H")
    assert refused.value.status == 403


def test_the_trainer_refuses_a_game_it_does_not_know(trainee):
    with pytest.raises(ServiceError) as refused:
        services.drill_start(trainee=trainee, variant="baccarat", kind=Kind.STRATEGY)
    assert refused.value.extra["field"] == "variant"


# --- dealing --------------------------------------------------------------------------------------


def test_the_same_seed_deals_the_same_hands(trainee):
    one = _drill(trainee, seed=777)
    two = _drill(trainee, seed=777)
    three = _drill(trainee, seed=778)
    hands = [[services.round_content(drill=d, number=n)[0] for n in (1, 2, 3)] for d in (one, two, three)]
    assert hands[0] == hands[1]
    assert hands[0] != hands[2]


@pytest.mark.parametrize("variant,preset", [("blackjack", "salon"), ("ochko", "")])
def test_weighting_deals_close_decisions_more_often_than_uniform(variant, preset):
    close = Decimal("0.05")

    def share(weighted):
        hands = [strategy.deal(variant, preset, random.Random(f"w/{n}"), weighted=weighted) for n in range(40)]
        return sum(1 for h in hands if h["gap"] is not None and Decimal(h["gap"]) < close)

    assert share(True) > share(False) + 5


def test_the_weight_favours_small_real_gaps():
    assert strategy.weight(Decimal("0.01")) > strategy.weight(Decimal("0.2")) > strategy.weight(Decimal(0))
    assert strategy.weight(None) == strategy.weight(Decimal(0)) == strategy.NO_DECISION


# --- counts, situations, pages and API ------------------------------------------------------------


def test_mistakes_are_listed_by_situation_with_their_cost(trainee, client):
    drill = _drill(trainee, rounds=3)
    _set_hand(drill, trainee, ["TS", "6H"], "TD")
    wrong = _answer(drill, trainee, "S")
    results = selectors.drill_results(drill=drill)
    assert [(s.situation, s.count, s.cost) for s in results.situations] == [
        ("hard 16 vs T", 1, Decimal(wrong.expected["cost"]))
    ]
    history = selectors.trainee_results(trainee=trainee, kind=Kind.STRATEGY)
    assert history.decisions == 1 and history.correct == 0 and history.situations[0].situation == "hard 16 vs T"
    client.force_login(trainee)
    for url in (reverse("drills:results", args=[drill.pk]), reverse("drills:progress", args=[trainee.pk])):
        page = client.get(url)
        assert page.status_code == 200 and "hard 16 vs T" in page.content.decode()


def test_the_play_page_offers_the_keys_and_grades_at_once(trainee, client):
    drill = _drill(trainee)
    client.force_login(trainee)
    page = client.get(reverse("drills:play", args=[drill.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="strategy-choices"' in html and 'data-key="H"' in html and 'data-key="S"' in html
    current = drill.rounds.get()
    decision = services.strategy_decision(current)
    chosen = next(o for o in decision.options if o != decision.best)
    answered = client.post(
        reverse("drills:answer", args=[drill.pk]), {"choice": decision.keys[chosen], "step": 0, "round": 1}
    )
    assert answered.status_code == 302
    html = client.get(answered["Location"]).content.decode()
    step = current.steps.get()
    assert step.expected["situation"] in html and "ev-table" in html
    cost = Decimal(step.expected["cost"])
    if cost:
        from casino.templatetags.casino_tags import money

        assert money(cost) in html


@pytest.fixture
def api_for(make_user, floor):
    def make(role):
        client = APIClient()
        user = make_user(role, pits=floor.pits)
        client.force_authenticate(user)
        client.user = user
        return client

    return make


def test_the_trainer_through_the_api(api_for):
    client = api_for(TRAINEE)
    started = client.post(
        reverse("api:drill-start"),
        {"variant": "blackjack", "preset": "salon", "kind": "strategy", "rounds": 1, "seed": 9},
        format="json",
    )
    assert started.status_code == 201, started.json()
    pk = started.json()["id"]
    body = client.post(reverse("api:drill-next", args=[pk])).json()
    hand = body["hand"]
    assert body["kind"] == "strategy" and len(hand["cards"]) == 2 and hand["dealer"]["code"]
    assert {o["key"] for o in hand["options"]} <= {"H", "S", "D", "P"} and "ev" not in str(hand["options"])
    bad = client.post(reverse("api:drill-answer", args=[pk]), {"choice": "Z"}, format="json")
    assert bad.status_code == 400 and bad.json()["extra"]["field"] == "choice"
    missing = client.post(reverse("api:drill-answer", args=[pk]), {}, format="json")
    assert missing.status_code == 400 and "choice" in missing.json()["extra"]["fields"]
    answered = client.post(reverse("api:drill-answer", args=[pk]), {"choice": "S", "step": 0}, format="json")
    assert answered.status_code == 200, answered.json()
    graded = answered.json()["graded"]
    assert graded["situation"] and graded["best"] in {o["option"] for o in graded["options"]}
    assert all(set(o) >= {"option", "ev", "cost"} for o in graded["options"])
    results = client.get(reverse("api:drill-results", args=[pk])).json()
    assert results["decisions"] == 1 and "situations" in results


def test_ochko_through_the_api_hides_the_dealers_card_until_the_bet(api_for):
    client = api_for(TRAINEE)
    pk = client.post(
        reverse("api:drill-start"), {"variant": "ochko", "kind": "strategy", "seed": 3}, format="json"
    ).json()["id"]
    hand = client.post(reverse("api:drill-next", args=[pk])).json()["hand"]
    assert hand["phase"] == "bet" and hand["dealer"]["code"] is None
    assert [o["key"] for o in hand["options"]] == ["F", "1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]
    client.post(reverse("api:drill-answer", args=[pk]), {"choice": "1"}, format="json")
    hand = client.post(reverse("api:drill-next", args=[pk])).json()["hand"]
    if hand["phase"] == "play":
        assert hand["dealer"]["code"] and [o["key"] for o in hand["options"]] == ["S", "H", "D"]


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, PIT_BOSS, AUDITOR])
def test_only_trainees_start_the_trainer(api_for, role):
    refused = api_for(role).post(reverse("api:drill-start"), {"variant": "ochko", "kind": "strategy"}, format="json")
    assert refused.status_code == 403
    assert not Drill.objects.exists()


def test_supervisors_read_a_trainers_results(trainee, make_user, floor, client):
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["TS", "6H"], "TD")
    _answer(drill, trainee, "S")
    url = reverse("drills:results", args=[drill.pk])
    for role, status in ((PIT_BOSS, 200), (AUDITOR, 200), (DEALER, 403), (INSPECTOR, 403)):
        client.force_login(make_user(role, pits=[floor.pit_a]))
        assert client.get(url).status_code == status, role
    client.force_login(make_user(PIT_BOSS, pits=[floor.pit_a]))
    assert "hard 16 vs T" in client.get(reverse("drills:round", args=[drill.pk, 1])).content.decode()
    assert client.get(reverse("drills:trainees")).status_code == 200
