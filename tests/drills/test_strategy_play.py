"""The strategy trainer after the first decision: the hands of a split played on one by one under
the preset's house rules, insurance and even money graded against their EVs, and ochko tables
with house rules other than the default."""

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from casino.errors import ServiceError
from casino.roles import TRAINEE
from dealing.engine.blackjack import math as bj_math
from dealing.engine.ochko import math as ochko_math
from dealing.games.blackjack import strategy as bj_strategy
from dealing.games.veintiuno import strategy as v_strategy
from drills import services, strategy
from drills.choices import Kind
from drills.models import Drill

pytestmark = pytest.mark.django_db


@pytest.fixture
def trainee(make_user, floor):
    return make_user(TRAINEE, pits=[floor.pit_a])


def _drill(trainee, variant="blackjack", preset="salon", **kwargs):
    return services.drill_start(
        trainee=trainee, variant=variant, preset=preset, kind=Kind.STRATEGY, **{"seed": 41, "rounds": 3, **kwargs}
    )


def _set_hand(drill, trainee, cards, dealer, draws=()):
    """Deal round 1, then put a known hand on it, the cards a hit takes first in `draws`."""
    current = services.drill_next(drill=drill, user=trainee)
    draws = list(draws) + [c for c in current.doc["draws"] if c not in draws and c not in cards and c != dealer]
    current.doc = {**current.doc, "cards": list(cards), "dealer": dealer, "draws": draws}
    current.script = {"state": strategy.start_state(drill.variant, current.doc)}
    current.save()
    return current


def _answer(drill, trainee, choice):
    return services.strategy_answer(drill=drill, user=trainee, choice=choice)


def _state(current):
    current.refresh_from_db()
    return current.script["state"]


# --- play after a split ---------------------------------------------------------------------------


def test_each_hand_of_a_split_is_played_and_graded_in_turn(trainee):
    drill = _drill(trainee, rounds=1)
    current = _set_hand(drill, trainee, ["8S", "8H"], "6C", draws=["3D", "TC", "2S"])
    split = _answer(drill, trainee, "P")
    assert split.correct  # 8s against a 6 split
    state = _state(current)
    assert [h["cards"] for h in state["hands"]] == [["8S", "3D"], ["8H"]]  # the second hand waits its turn
    assert state["hand"] == 0 and not current.done

    first = _answer(drill, trainee, "D")  # 11 vs 6 after a split: salon doubles after a split
    engine = bj_math.ev(["8S", "3D"], dealer="6C", preset="salon", hands=2, removed=["8H"])
    assert first.expected["options"] == engine["options"] and "double" in engine["options"]
    assert "split" not in engine["options"] and "insurance" not in engine["options"]
    assert first.expected["situation"] == "hard 11 vs 6 (split)"
    assert first.correct == (engine["best"] == "double")
    state = _state(current)
    assert state["hands"][0] == {"cards": ["8S", "3D", "TC"], "end": "double"}
    assert state["hand"] == 1 and state["cards"] == ["8H", "2S"]  # its second card when its turn comes

    second = _answer(drill, trainee, "S")  # 10 vs 6: standing is a mistake
    engine = bj_math.ev(["8H", "2S"], dealer="6C", preset="salon", hands=2, removed=["8S", "3D", "TC"])
    assert second.expected["options"] == engine["options"]
    assert engine["best"] != "stand" and not second.correct
    best = Decimal(engine["options"][engine["best"]])
    assert Decimal(second.expected["cost"]) == (
        (best - Decimal(engine["options"]["stand"])) * drill.table_min
    ).quantize(Decimal("0.01"))
    assert second.expected["hand"] == 1 and second.expected["hands"] == 2
    state = _state(current)
    assert current.done and state["end"] == "double · stand"
    drill.refresh_from_db()
    assert drill.decisions == 3 and drill.correct == 1 + int(first.correct)


def test_the_presets_decide_resplits(trainee):
    salon = _drill(trainee)
    current = _set_hand(salon, trainee, ["8S", "8H"], "TC", draws=["8D"])
    _answer(salon, trainee, "P")
    current.refresh_from_db()
    decision = services.strategy_decision(current)
    assert decision.cards == ["8S", "8D"] and "split" in decision.options  # salon: up to 4 hands
    assert decision.options == bj_math.ev(["8S", "8D"], dealer="TC", preset="salon", hands=2, removed=["8H"])["options"]

    online = _drill(trainee, preset="online", seed=42)
    current = _set_hand(online, trainee, ["8S", "8H"], "TC", draws=["8D"])
    _answer(online, trainee, "P")
    current.refresh_from_db()
    decision = services.strategy_decision(current)
    assert decision.cards == ["8S", "8D"] and "split" not in decision.options  # online: 2 hands, no resplit
    assert "double" in decision.options  # online doubles after a split too


def test_split_aces_take_one_card_each_and_nothing_is_asked(trainee):
    drill = _drill(trainee, rounds=1)
    current = _set_hand(drill, trainee, ["AS", "AH"], "6C", draws=["5D", "KC"])
    step = _answer(drill, trainee, "P")
    state = _state(current)
    assert [h["cards"] for h in state["hands"]] == [["AS", "5D"], ["AH", "KC"]]
    assert [h["end"] for h in state["hands"]] == ["stand", "21"]  # an ace and a ten after a split: a plain 21
    assert current.done and current.decisions == 1 and step.expected["choice"] == "split"
    assert set(bj_math.ev(["AS", "5D"], dealer="6C", preset="salon", hands=2, removed=["AH"])["options"]) == {"stand"}


# --- insurance and even money ---------------------------------------------------------------------


def test_insurance_is_graded_against_its_ev_then_the_hand_is_played(trainee):
    drill = _drill(trainee)
    current = _set_hand(drill, trainee, ["TS", "6H"], "AC")
    hand = services.strategy_decision(current)
    assert hand.phase == "insurance" and hand.keys == {"insurance": "I", "no_insurance": "N"}
    step = _answer(drill, trainee, "I")
    engine = bj_math.ev(["TS", "6H"], dealer="AC", preset="salon")
    per_unit = Decimal(engine["options"]["insurance"])
    assert per_unit < 0  # a full shoe: fewer than a third tens
    # the insurance is half the bet: its EV in initial wagers is half the engine's per unit
    assert Decimal(step.expected["options"]["insurance"]) == per_unit / 2
    assert step.expected["choice"] == "no_insurance" and not step.correct
    assert Decimal(step.expected["cost"]) == (-per_unit / 2 * drill.table_min).quantize(Decimal("0.01"))
    assert step.expected["situation"] == "insurance vs A (hard 16)"
    state = _state(current)
    assert state["phase"] == "play" and state["insured"] is True
    play = _answer(drill, trainee, "H")
    assert play.expected["options"] == {k: v for k, v in engine["options"].items() if k != "insurance"}
    assert play.expected["situation"] == "hard 16 vs A"


def test_even_money_is_offered_on_a_blackjack_against_an_ace(trainee):
    drill = _drill(trainee)
    current = _set_hand(drill, trainee, ["AS", "KH"], "AD")
    step = _answer(drill, trainee, "E")
    engine = bj_math.ev(["AS", "KH"], dealer="AD", preset="salon")
    assert step.expected["options"] == engine["options"] and set(engine["options"]) == {"stand", "even_money"}
    assert step.correct == (engine["best"] == "even_money")
    assert step.expected["situation"] == "blackjack vs A: even money"
    state = _state(current)
    assert current.done and state["end"] == "even_money"


def test_a_blackjack_against_a_ten_is_never_dealt():
    import random

    for n in range(30):
        hand = strategy.deal("blackjack", "salon", random.Random(f"bj/{n}"))
        assert not (bj_strategy.STRATEGY.no_decision(hand))
        assert len(hand["draws"]) == strategy.DRAWS + bj_strategy.EXTRA_DRAWS


# --- ochko house rules ----------------------------------------------------------------------------

TAKE_BOTH = {"dark_win_bet": "take", "dark_double_bust_bet": "take"}


def test_an_ochko_table_with_other_house_rules_grades_by_its_own_evs(trainee):
    drill = _drill(trainee, variant="ochko", preset="", options={"house_rules": TAKE_BOTH})
    assert drill.options["house_rules"] == TAKE_BOTH
    current = services.drill_next(drill=drill, user=trainee)
    assert current.doc["rules"] == TAKE_BOTH
    current.doc = {**current.doc, "cards": ["8S"], "dealer": "9C", "draws": ["7H", *current.doc["draws"][1:]]}
    current.script = {"state": strategy.start_state("ochko", current.doc)}
    current.save()
    bet = _answer(drill, trainee, "3")
    assert bet.expected["options"] == ochko_math.ev(["8S"], rules=TAKE_BOTH)["options"]
    play = _answer(drill, trainee, "D")
    taken = ochko_math.ev(["8S"], dealer="9C", bet=3, rules=TAKE_BOTH)
    default = ochko_math.ev(["8S"], dealer="9C", bet=3)
    assert play.expected["options"] == taken["options"]
    assert Decimal(taken["options"]["dark"]) < Decimal(default["options"]["dark"])  # the Bet is no longer returned
    assert play.expected["chart"] == strategy.chart_action("ochko", "", ["8S"], "9C", 3, taken["options"], TAKE_BOTH)


def test_unknown_house_rules_are_refused(trainee):
    for bad in ({"dark_win_bet": "pay"}, {"hit_soft_17": True}, "take"):
        with pytest.raises(ServiceError) as refused:
            _drill(trainee, variant="ochko", preset="", options={"house_rules": bad})
        assert refused.value.extra["field"] == "options"


def test_the_start_page_sets_the_ochko_house_rules(trainee, client):
    client.force_login(trainee)
    page = client.get(reverse("drills:home"))
    assert 'name="dark_win_bet"' in page.content.decode()
    started = client.post(
        reverse("drills:start"),
        {
            "game": "ochko",
            "kind": "strategy",
            "table": "r100",
            "incidents": "none",
            "dark_win_bet": "take",
            "dark_double_bust_bet": "leave",
        },
    )
    assert started.status_code == 302
    drill = Drill.objects.get(trainee=trainee)
    assert drill.options["house_rules"] == {"dark_win_bet": "take"}  # the default is not kept


def test_a_split_through_the_api_shows_every_hand(trainee):
    client = APIClient()
    client.force_authenticate(trainee)
    drill = _drill(trainee)
    _set_hand(drill, trainee, ["8S", "8H"], "6C", draws=["3D"])
    answered = client.post(reverse("api:drill-answer", args=[drill.pk]), {"choice": "P"}, format="json")
    assert answered.status_code == 200, answered.json()
    hand = client.post(reverse("api:drill-next", args=[drill.pk])).json()["hand"]
    assert [[c["code"] for c in h["cards"]] for h in hand["hands"]] == [["8S", "3D"], ["8H"]]
    assert hand["hands"][0]["current"] and not hand["hands"][1]["current"]


# --- veintiuno ------------------------------------------------------------------------------------


def test_veintiuno_hands_are_graded_against_the_engines_values(trainee):
    from dealing.engine.veintiuno.math import ev as veintiuno_ev

    drill = _drill(trainee, variant="veintiuno", preset="", rounds=1)
    current = _set_hand(drill, trainee, ["6S", "7H"], "KC", draws=["4D", "5C"])
    hand = services.strategy_decision(current)
    engine = veintiuno_ev.ev(["6S", "7H"], bank="KC")
    assert set(engine["options"]) == {"stand", "hit", "tapo", "withdraw"}  # a 13 in two cards may withdraw
    assert hand.options == engine["options"] and hand.best == engine["best"]
    assert hand.keys == {"stand": "S", "hit": "H", "tapo": "T", "withdraw": "W"}
    assert hand.situation == "13 in two cards vs K"
    step = _answer(drill, trainee, "H")
    assert step.correct == (engine["best"] == "hit")
    second = _answer(drill, trainee, "S")  # 17 against a picture
    engine = veintiuno_ev.ev(["6S", "7H", "4D"], bank="KC")
    assert set(engine["options"]) == {"stand", "hit", "tapo"}
    assert second.expected["options"] == engine["options"] and second.expected["situation"] == "hard 17 vs K"
    current.refresh_from_db()
    assert current.done and current.script["state"]["end"] == "stand"


def test_veintiuno_values_by_hand():
    from dealing.engine.veintiuno.math import ev as veintiuno_ev

    # a 20 stands, a 10 draws, against any up card; a moñona stands (it pays 3:1 unless the bank has a natural)
    for up in ("2S", "7H", "KC", "AD"):
        assert veintiuno_ev.ev(["KS", "QH"], bank=up)["best"] == "stand"
        assert veintiuno_ev.ev(["4S", "6H"], bank=up)["best"] == "hit"
        monona = veintiuno_ev.ev(["AS", "AH"], bank=up)
        assert monona["best"] == "stand" and Decimal(monona["options"]["stand"]) > 1
    with pytest.raises(Exception) as refused:
        veintiuno_ev.ev(["AS", "KH"], bank="5C")
    assert refused.value.field == "cards"  # a natural is paid at once


def test_the_play_page_asks_insurance_then_draws_every_hand_of_a_split(trainee, client):
    drill = _drill(trainee, rounds=1)
    _set_hand(drill, trainee, ["8S", "8H"], "AC", draws=["3D", "TC", "2S"])
    client.force_login(trainee)
    url = reverse("drills:play", args=[drill.pk])
    html = client.get(url).content.decode()
    assert 'data-key="I"' in html and 'data-key="N"' in html and 'data-key="P"' not in html
    for step, choice in enumerate(("N", "P")):
        assert (
            client.post(
                reverse("drills:answer", args=[drill.pk]), {"choice": choice, "step": step, "round": 1}
            ).status_code
            == 302
        )
    html = client.get(url).content.decode()
    assert html.count('class="s-row s-box s-split') == 2 and 'data-hand="1" aria-current="true"' in html
    assert "No insurance. The dealer checked: no blackjack." in html
    assert "Your play on hand 1?" in html and 'data-key="D"' in html


def test_a_split_hands_values_are_those_of_its_cards_with_the_other_hands_cards_out():
    split = bj_math.ev(["8S", "3D"], dealer="6C", preset="salon", hands=2, removed=["8H"])
    plain = bj_math.ev(["8S", "3D"], dealer="6C", preset="salon", removed=["8H"])
    assert split["options"] == {k: plain["options"][k] for k in ("stand", "hit", "double")}
    no_das = bj_math.ev(["8S", "3D"], dealer="6C", rules={"double_after_split": False}, hands=2, removed=["8H"])
    assert set(no_das["options"]) == {"stand", "hit"}
    hit_aces = bj_math.ev(["AS", "5D"], dealer="6C", rules={"hit_split_aces": True}, hands=2, removed=["AH"])
    assert set(hit_aces["options"]) >= {"stand", "hit"}
    # the fourth hand of the salon may not split again; a resplit counts the hands left free
    assert "split" not in bj_math.ev(["8S", "8D"], dealer="TC", preset="salon", hands=4)["options"]
    three = Decimal(bj_math.ev(["8S", "8D"], dealer="TC", preset="salon", hands=3)["options"]["split"])
    two = Decimal(bj_math.ev(["8S", "8D"], dealer="TC", preset="salon", hands=2)["options"]["split"])
    assert three != two
    with pytest.raises(Exception) as refused:
        bj_math.ev(["8S", "8D"], dealer="TC", preset="online", hands=3)
    assert refused.value.field == "hands"


def test_veintiuno_through_the_api_and_the_page(trainee, client):
    api = APIClient()
    api.force_authenticate(trainee)
    started = api.post(
        reverse("api:drill-start"), {"variant": "veintiuno", "kind": "strategy", "rounds": 1, "seed": 12}, format="json"
    )
    assert started.status_code == 201, started.json()
    pk = started.json()["id"]
    hand = api.post(reverse("api:drill-next", args=[pk])).json()["hand"]
    assert len(hand["cards"]) == 2 and hand["dealer"]["code"]
    assert {o["key"] for o in hand["options"]} <= {"S", "H", "T", "W"} and {"S", "H"} <= {
        o["key"] for o in hand["options"]
    }
    client.force_login(trainee)
    html = client.get(reverse("drills:play", args=[pk])).content.decode()
    assert 'data-key="T"' in html and "Tapo y quedo" in html
    answered = api.post(reverse("api:drill-answer", args=[pk]), {"choice": "T"}, format="json").json()
    assert answered["round_done"] and answered["graded"]["end"] == "tapo"
    assert len(answered["graded"]["hand_cards"]) == 3


def _veintiuno_play(hand, up, option, rng):
    """One round played out by hand, independently of the engine: the bank draws under 18."""
    from dealing.engine.veintiuno import rules as veintiuno_rules

    def count(cards):
        return v_strategy.total(cards)[0]

    pack = [c for c in veintiuno_rules.PACK if c not in hand and c != up]
    rng.shuffle(pack)
    hole = pack.pop()
    cards = list(hand) + ([pack.pop()] if option == "tapo" else [])
    bank = [hole, up]
    if v_strategy.natural(bank):
        return -1

    def twelve(two):
        values = [10 if c[0] in "JQK" else 1 if c[0] == "A" else int(c[0]) for c in two]
        return "A" not in (two[0][0], two[1][0]) and values != [10, 10] and sum(values) == 12

    if option == "stand" and len(cards) == 2 and twelve(cards) and cards[0][1] == cards[1][1]:
        return 2  # a suited two-card 12 pays 2:1 unless the bank has a natural
    bank_count = (21 if hole[1] == up[1] else 20) if twelve(bank) else count(bank)
    while bank_count < 18:
        bank.append(pack.pop())
        bank_count = count(bank)
    mine = count(cards)
    if bank_count > 21:
        return (1 if mine <= 21 else 0) if option == "tapo" else 1
    return 1 if mine <= 21 and mine > bank_count else -1


@pytest.mark.parametrize(
    "hand,up,option",
    [
        (["KS", "QH"], "7H", "stand"),
        (["4S", "6H"], "7H", "tapo"),
        (["5S", "2H"], "5C", "stand"),
        (["QS", "2S"], "5C", "stand"),
    ],
)
def test_veintiuno_values_agree_with_rounds_played_out(hand, up, option):
    import random

    from dealing.engine.veintiuno.math import ev as veintiuno_ev

    rng = random.Random(f"{hand}/{up}/{option}")
    n = 40_000
    mean = sum(_veintiuno_play(hand, up, option, rng) for _k in range(n)) / n
    exact = float(veintiuno_ev.ev(hand, bank=up)["options"][option])
    assert abs(mean - exact) < 4 * 2 / n**0.5  # within 4 standard errors (|net| ≤ 2)


@pytest.mark.parametrize("rules", [{}, TAKE_BOTH])
def test_the_house_rules_change_the_best_play_of_14_against_a_6(trainee, rules):
    drill = _drill(trainee, variant="ochko", preset="", options={"house_rules": rules} if rules else {})
    current = services.drill_next(drill=drill, user=trainee)
    current.doc = {**current.doc, "cards": ["6S"], "dealer": "6C", "draws": ["8H", *current.doc["draws"][1:]]}
    current.script = {"state": strategy.start_state("ochko", current.doc)}
    current.save()
    _answer(drill, trainee, "1")
    _answer(drill, trainee, "H")  # 6 + 8: 14
    dark = _answer(drill, trainee, "D")
    engine = ochko_math.ev(["6S", "8H"], dealer="6C", bet=1, rules=rules)
    assert dark.expected["options"] == engine["options"] and dark.expected["choice"] == engine["best"]
    # with the Bet of a dark card returned the dark card is best; taken, standing is
    assert engine["best"] == ("stand" if rules else "dark")
    assert dark.correct == (not rules)


def test_a_hand_dealt_before_splits_were_played_on_still_plays(trainee):
    drill = _drill(trainee, rounds=1)
    current = _set_hand(drill, trainee, ["TS", "5H"], "7C", draws=["2D"])
    current.script = {"state": {"phase": "play", "cards": ["TS", "5H"], "bet": None, "drawn": 0, "end": ""}}
    current.save()
    _answer(drill, trainee, "H")
    state = _state(current)
    assert state["cards"] == ["TS", "5H", "2D"] and not current.done
