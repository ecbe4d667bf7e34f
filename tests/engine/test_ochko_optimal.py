"""The ochko simulator's `play="optimal"`: the game math's decisions, so the house keeps `edge`.

Pure: no Django. The casual play (the default) is covered, seed for seed, by the other tests.
"""

import random
import statistics
from decimal import Decimal

import pytest

from dealing import engine
from dealing.engine.ochko.math import edge
from dealing.engine.ochko.simulator import MISTAKES, simulate_round

# Heads up (one box, one stake), as the edge's model: 60 000 rounds take ~6 s here and give a
# standard error of ~0.022 Antes (sd ≈ 5.45), against edges of 0.043 … 0.066.
ROUNDS = 60_000
HEADS_UP = dict(boxes=(1, 1), shared=0, incidents=0)


def house_win_per_ante(doc: dict) -> float:
    ante = sum(s["ante"] for s in doc["stakes"])
    win = Decimal(0)
    for event in doc["events"]:
        if event["e"] == "take":
            win += event["amount"]
        elif event["e"] == "pay":
            win -= event["amount"]
    return float(win / ante)


@pytest.mark.parametrize(
    "rules", [{}, {"dark_win_bet": "take", "dark_double_bust_bet": "take"}], ids=["default", "take_take"]
)
def test_the_house_wins_the_optimal_edge_per_ante(rules):
    rng = random.Random(2026)
    wins = [house_win_per_ante(simulate_round(rng, play="optimal", rules=rules, **HEADS_UP).doc) for _ in range(ROUNDS)]
    mean = statistics.fmean(wins)
    se = statistics.stdev(wins) / len(wins) ** 0.5
    expected = float(edge(rules)["house_edge"])
    assert abs(mean - expected) < 3 * se, (mean, expected, se)
    # And well away from the casual floor's ~1.25 per Ante.
    assert se < 0.03


def test_optimal_rounds_are_correct_and_have_no_dealer_bets():
    rng = random.Random(5)
    for k in range(300):
        sim = simulate_round(rng, play="optimal", number=k, rules={"dark_win_bet": "take"} if k % 2 else None)
        assert engine.replay(sim.doc).findings == []
        assert all("dealer_bet" not in s for s in sim.doc["stakes"])
        bets = {e["stake"]: e["amount"] for e in sim.doc["events"] if e["e"] == "bet"}
        antes = {s["id"]: s["ante"] for s in sim.doc["stakes"]}
        assert all(amount % antes[stake] == 0 and 1 <= amount / antes[stake] <= 10 for stake, amount in bets.items())


def test_optimal_play_follows_the_engine_decisions():
    from dealing.engine.ochko.math import ev

    rng = random.Random(11)
    for _ in range(200):
        doc = simulate_round(rng, play="optimal", **HEADS_UP).doc
        events = doc["events"]
        first = events[0]["card"]
        best = ev([first])["best"]
        if best == "fold":
            assert events[2]["e"] == "fold"
            continue
        bet = events[2]
        assert bet["e"] == "bet" and bet["amount"] == doc["stakes"][0]["ante"] * int(best.split(":")[1])
        up = events[1]["card"]
        cards = [first]
        for event in events[4:]:
            if event["e"] not in ("hit", "stand", "dark"):
                break
            assert event["e"] == ev(cards, dealer=up, bet=int(best.split(":")[1]))["best"]
            if "card" in event:
                cards.append(event["card"])


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_mistakes_still_happen_with_optimal_play(mistake):
    rng = random.Random(3)
    sims = [simulate_round(rng, play="optimal", mistake=mistake) for _ in range(5)]
    placed = [sim for sim in sims if sim.mistake is not None]
    assert placed, "no place for the mistake in five deals"
    for sim in placed:
        assert sim.code in [f.code for f in engine.replay(sim.doc).findings]


def test_an_unknown_play_is_refused():
    with pytest.raises(ValueError):
        simulate_round(random.Random(1), play="perfect")
