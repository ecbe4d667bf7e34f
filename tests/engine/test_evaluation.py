"""A player's evaluation (engine/evaluation.py and each wing's evaluation.py): the decisions against
the optimal play for the shoe as it stood, the bet against the count, entries and exits, the edge
and its interval."""

import random
from decimal import Decimal

import pytest

from dealing.engine import evaluation, games, protection
from dealing.engine.blackjack import evaluation as blackjack_evaluation
from dealing.engine.blackjack.simulator import simulate_shoe
from dealing.engine.evaluation import ShoeLog
from dealing.engine.ochko import math as ochko_math
from dealing.engine.ochko import simulator as ochko_simulator

FULL_BJ = {r: (96 if r == "T" else 24) for r in "A23456789T"}


def _state(remaining: dict, tc: float = 0.0) -> protection.ShoeState:
    left = sum(remaining.values())
    return protection.ShoeState("r", dict(remaining), left, left / 52, 0, tc, 0.0)


def _bj_round(box_cards, up, hole, events, *, bet=100, stakes=None):
    doc = {
        "format": "round/1",
        "id": "r1",
        "variant": "blackjack",
        "table": {"min": 100, "max": 5000},
        "rules": {"preset": "salon"},
        "stakes": stakes or [{"id": "1", "box": 1, "player": "P", "bet": bet}],
        "events": [
            {"e": "deal", "to": 1, "card": box_cards[0]},
            {"e": "deal", "to": "dealer", "card": up},
            {"e": "deal", "to": 1, "card": box_cards[1]},
            {"e": "deal", "to": "dealer", "card": hole},
            *events,
        ],
    }
    return doc


def _ten_rich() -> dict:
    """A six-deck shoe after 60 small cards went (Hi-Lo +60 over ~4.8 decks: a true count near +12)."""
    rich = dict(FULL_BJ)
    for r in "23456":
        rich[r] -= 12
    return rich


# --- the statistics ------------------------------------------------------------------------------------


def test_bet_statistics_of_a_flat_bettor_a_linear_spreader_and_a_one_to_eight_counter():
    counts = [random.Random(k).uniform(-4, 12) for k in range(400)]
    flat = evaluation.bet_statistics(counts, [100.0] * 400)
    assert flat["spread"] == 1 and flat["slope"] == pytest.approx(0) and flat["correlation"] is None

    linear = evaluation.bet_statistics(counts, [500 + 25 * c for c in counts])
    assert linear["slope"] == pytest.approx(25) and linear["intercept"] == pytest.approx(500)
    assert linear["correlation"] == pytest.approx(1)

    ramp = [100.0 * max(1, min(8, int(c))) for c in counts]
    counter = evaluation.bet_statistics(counts, ramp)
    assert counter["spread"] == pytest.approx(8)
    assert counter["correlation"] > 0.9


def test_the_edge_interval_covers_the_true_edge_about_95_times_in_100():
    # Even-money rounds won with p = 0.48 and wagers of 1–8 units: the edge is 2p − 1 = −4 %.
    rng = random.Random(38)
    covered = 0
    for _ in range(400):
        wagers = [float(rng.choice((1, 1, 2, 4, 8))) for _ in range(600)]
        nets = [w if rng.random() < 0.48 else -w for w in wagers]
        _edge, low, high = evaluation.edge_interval(nets, wagers)
        covered += low <= -4.0 <= high
    assert 0.92 <= covered / 400 <= 0.98


# --- blackjack -----------------------------------------------------------------------------------------


def test_standing_on_16_against_a_ten_is_a_deviation_off_the_top_and_right_in_a_ten_rich_shoe():
    doc = _bj_round(["TS", "6H"], "TC", "7D", [{"e": "stand", "hand": "1"}])
    full = blackjack_evaluation.decisions(doc, ["1"], _state(FULL_BJ))
    [off_top] = [d for d in full if d.situation == "hard 16 v T"]
    assert off_top.chosen == "stand" and off_top.optimal == "hit" and off_top.deviation
    # Off the top the loss is the chart's margin between hitting and standing 16 v T (a few % of the bet).
    assert 0 < off_top.ev_lost < 0.05
    assert off_top.given_up == (Decimal(100) * Decimal(repr(round(off_top.ev_lost, 6)))).quantize(Decimal("0.01"))

    [rich] = [d for d in blackjack_evaluation.decisions(doc, ["1"], _state(_ten_rich(), 12)) if d.hand == "1"]
    assert rich.optimal == "stand" and not rich.deviation  # the best-known index play


def test_insurance_is_judged_exactly_on_the_tens_left():
    took = _bj_round(["9S", "7H"], "AC", "5D", [{"e": "insurance", "stake": "1", "amount": 50}, {"e": "peek"}])
    [off_top] = [d for d in blackjack_evaluation.decisions(took, ["1"], _state(FULL_BJ)) if d.situation == "insurance"]
    # Seen: the 9, the 7 and the ace: 96 tens among 309 cards left, a share under a third.
    p = 96 / 309
    assert off_top.optimal == "decline" and off_top.deviation
    assert off_top.ev_chosen == pytest.approx((3 * p - 1) / 2)

    rich = _ten_rich()
    [counted] = [d for d in blackjack_evaluation.decisions(took, ["1"], _state(rich, 12)) if d.situation == "insurance"]
    p = 96 / (sum(rich.values()) - 3)
    assert counted.optimal == "insure" and not counted.deviation
    assert counted.ev_chosen == pytest.approx((3 * p - 1) / 2)


def test_a_split_hands_second_card_is_dealt_not_decided():
    doc = _bj_round(
        ["8S", "8H"],
        "6C",
        "TD",
        [
            {"e": "split", "hand": "1"},
            {"e": "hit", "hand": "1.1", "card": "3D"},
            {"e": "double", "hand": "1.1", "card": "TH"},
            {"e": "hit", "hand": "1.2", "card": "9C"},
            {"e": "stand", "hand": "1.2"},
        ],
    )
    got = [(d.hand, d.situation, d.chosen) for d in blackjack_evaluation.decisions(doc, ["1"], _state(FULL_BJ))]
    assert got == [("1", "8,8 v 6", "split"), ("1.1", "hard 11 v 6", "double"), ("1.2", "hard 17 v 6", "stand")]


def test_each_rounds_rules_are_read_for_it_even_when_equal_to_the_last_rounds():
    """The rules of the previous round are reused only when they are the same rules: equal values of
    another type (6.0 decks for 6) are read afresh, and refused as the rules refuse them."""
    salon = _bj_round(["TS", "6H"], "TC", "7D", [{"e": "stand", "hand": "1"}])
    online = {**salon, "rules": {"preset": "online"}}
    alone = [blackjack_evaluation.decisions(doc, ["1"], _state(FULL_BJ)) for doc in (online, salon)]
    # Alternating with rounds of other rules, each round is judged as when it is judged alone.
    for doc, expected in ((salon, alone[1]), (online, alone[0]), (salon, alone[1]), (online, alone[0])):
        got = blackjack_evaluation.decisions(doc, ["1"], _state(FULL_BJ))
        assert [(d.optimal, d.ev_chosen, d.ev_optimal) for d in got] == [
            (d.optimal, d.ev_chosen, d.ev_optimal) for d in expected
        ]
    six = {**salon, "rules": {"decks": 6}}
    blackjack_evaluation.decisions(six, ["1"], _state(FULL_BJ))
    with pytest.raises(Exception, match="whole number"):
        blackjack_evaluation.decisions({**salon, "rules": {"decks": 6.0}}, ["1"], _state(FULL_BJ))


def test_another_players_hands_change_nothing_in_the_players_decisions():
    mine = [{"e": "stand", "hand": "1"}]
    theirs = [
        {"e": "split", "hand": "2"},
        {"e": "hit", "hand": "2.1", "card": "3D"},
        {"e": "stand", "hand": "2.1"},
        {"e": "hit", "hand": "2.2", "card": "9C"},
        {"e": "stand", "hand": "2.2"},
    ]
    stakes = [{"id": "1", "box": 1, "player": "P", "bet": 100}, {"id": "2", "box": 2, "player": "Q", "bet": 100}]
    alone = _bj_round(["TS", "6H"], "TC", "7D", mine, stakes=stakes)
    beside = {**alone, "events": [*alone["events"][:4], *mine, *theirs]}
    beside["events"][2:2] = [{"e": "deal", "to": 2, "card": "8S"}, {"e": "deal", "to": 2, "card": "8H"}]
    got = [
        (d.stake, d.hand, d.situation, d.chosen) for d in blackjack_evaluation.decisions(beside, ["1"], _state(FULL_BJ))
    ]
    assert got == [("1", "1", "hard 16 v T", "stand")]
    both = blackjack_evaluation.decisions(beside, ["1", "2"], _state(FULL_BJ))
    assert [(d.stake, d.hand, d.chosen) for d in both] == [
        ("1", "1", "stand"),
        ("2", "2", "split"),
        ("2", "2.1", "stand"),
        ("2", "2.2", "stand"),
    ]


def test_option_effects_agree_with_the_solver_for_a_shoe_short_of_one_card():
    # The shipped table's effect of removing a five on hitting 16 v T, against the solver itself.
    from dealing.engine.blackjack.math.dealer import no_blackjack
    from dealing.engine.blackjack.math.question import read_rules
    from dealing.engine.blackjack.math.solver import Solver, deal_probabilities

    rules = read_rules("salon", {})
    table = blackjack_evaluation.option_effects(rules)
    full = (24, 24, 24, 24, 24, 24, 24, 24, 24, 96)
    short = (24, 24, 24, 24, 23, 24, 24, 24, 24, 96)  # a five gone (rank index 4)
    values = []
    for shoe in (full, short):
        s = Solver(rules, shoe)
        weights = {(a, b, up): p for a, b, up, p in deal_probabilities(full)}
        acc = reach = 0.0
        for (a, b, up), w in weights.items():
            hand = tuple((a == k) + (b == k) for k in range(10))
            # The chart's cell: every two-card hard 16 (rank index + 1 is the card's value) against a ten.
            if up != 9 or (a + 1) + (b + 1) != 16 or 0 in (a, b):
                continue
            reach += w * no_blackjack(up, s.left(up, hand))
            acc += w * s.hit(up, hand)[0]
        values.append(acc / reach)
    base, eor = table[("hard", 16, 9)]["hit"]
    assert eor[4] == pytest.approx(values[1] - values[0], rel=1e-6, abs=1e-9)
    assert base == pytest.approx(values[0], rel=1e-3)


# --- ochko ---------------------------------------------------------------------------------------------


def test_an_ochko_fold_on_an_ace_gives_up_what_the_game_math_prices():
    doc = {
        "format": "round/1",
        "id": "o1",
        "variant": "ochko",
        "table": {"min": 100, "max": 5000},
        "rules": {},
        "stakes": [{"id": "1a", "box": 1, "player": "P", "ante": 200}],
        "events": [
            {"e": "deal", "to": 1, "card": "AS"},
            {"e": "deal", "to": "dealer", "card": "7C"},
            {"e": "fold", "stake": "1a"},
        ],
    }
    state = protection.shoe_states("ochko", [doc], decks=8)[0]
    [d] = games.evaluation("ochko").decisions(doc, ["1a"], state)
    priced = ochko_math.ev(["AS"])
    assert d.chosen == "fold" and d.optimal == priced["best"] and d.deviation
    assert d.ev_optimal == pytest.approx(float(Decimal(priced["options"][priced["best"]])))
    assert d.ev_chosen == -1
    assert d.given_up > 0 and d.wager == 200


# --- players over shoes --------------------------------------------------------------------------------


def _bj_shoes(seed: int, n: int, **options) -> list[list[dict]]:
    doc = simulate_shoe(random.Random(seed), rounds=n, preset="salon", boxes=(3, 5), **options)
    shoes: list[list[dict]] = []
    for item in doc["items"]:
        if item["e"] == "shuffle":
            shoes.append([])
        else:
            shoes[-1].append(item["round"])
    return shoes


def _logs(shoes, variant="blackjack", decks=6):
    return [ShoeLog(f"S{k}", variant, decks, rounds) for k, rounds in enumerate(shoes)]


def _name_box_one(shoes, player: str, keep=lambda state: True, bet=None):
    """Give each round's first box to `player` in the rounds `keep(state)` chooses (another player's
    otherwise), his bet `bet(state)`."""
    for rounds in shoes:
        states = protection.shoe_states("blackjack", rounds, decks=6)
        for doc, state in zip(rounds, states):
            stake = min(doc["stakes"], key=lambda s: s["box"])
            stake["player"] = player if keep(state) else "someone else"
            if bet is not None and keep(state):
                stake["bet"] = bet(state)
    return shoes


def test_a_basic_strategy_player_is_accurate_and_a_careless_one_gives_up_ev():
    careful = evaluation.evaluate(_logs(_name_box_one(_bj_shoes(1, 160, errors=0.0), "P")), player="P")
    careless = evaluation.evaluate(_logs(_name_box_one(_bj_shoes(1, 160, errors=0.4), "P")), player="P")
    a, b = careful.summary(), careless.summary()
    assert a["decisions"] > 100 and b["decisions"] > 100
    # Basic strategy departs from the composition's optimum only at counts far from zero.
    assert a["accuracy"] > 0.9
    assert b["accuracy"] < a["accuracy"] - 0.1
    assert b["ev_given_up"] > a["ev_given_up"] >= 0


def test_a_wonger_enters_at_counts_above_the_shoe_and_a_counter_bets_with_the_count():
    shoes = _name_box_one(
        _bj_shoes(5, 400, errors=0.0),
        "W",
        keep=lambda s: s.true_count >= 1,
        bet=lambda s: 100 * max(1, min(8, int(s.true_count))),
    )
    got = evaluation.evaluate(_logs(shoes), player="W").summary()
    assert got["rounds"] > 20 and got["entries_mid_shoe"] > 0
    assert got["entry_count_mean"] >= 1 > got["shoe_count_mean"]
    assert got["bets"]["correlation"] > 0.8 and got["bets"]["slope"] > 0

    flat = evaluation.evaluate(_logs(_name_box_one(_bj_shoes(5, 400, errors=0.0), "F", bet=lambda s: 100)), player="F")
    assert flat.summary()["bets"]["spread"] == 1
    assert flat.summary()["entries_mid_shoe"] == 0


def test_the_edge_is_net_over_wagered_from_the_results_given():
    rng = random.Random(9)
    shoe = ochko_simulator.new_shoe(rng)
    rounds = []
    while len(shoe) > 60:
        rounds.append(ochko_simulator.simulate_round(rng, number=len(rounds), shoe=shoe, play="optimal").doc)
    player = rounds[0]["stakes"][0]["player"]
    results = {}
    for doc in rounds:
        for s in doc["stakes"]:
            if s["player"] == player:
                results[(doc["id"], s["id"])] = Decimal(rng.choice((-300, -100, 100, 250)))
    report = evaluation.evaluate([ShoeLog("S", "ochko", 8, rounds, results)], player=player)
    wagered = sum(
        (games.evaluation("ochko").wager(doc, s) for doc in rounds for s in doc["stakes"] if s["player"] == player),
        Decimal(0),
    )
    summary = report.summary()
    assert summary["net"] == sum(results.values()) and summary["wagered"] == wagered
    assert summary["edge"] == pytest.approx(100 * float(sum(results.values()) / wagered))
    assert summary["edge_low"] < summary["edge"] < summary["edge_high"]
