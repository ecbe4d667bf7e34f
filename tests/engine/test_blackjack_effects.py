"""What the rules are worth (dealing/engine/blackjack/math/effects.py): single-rule effects against
the published rule table, the jackpot side bet exactly, the cut-card simulation's own check."""

from decimal import Decimal
from fractions import Fraction

import pytest

from dealing.engine.blackjack import math as bj
from dealing.engine.blackjack.math import effects as fx


def _edge(**change) -> float:
    return float(Decimal(bj.edge(rules=change or None, preset="salon")["house_edge"]))


@pytest.mark.parametrize(
    "change, low, high",
    [
        # the published effects (thecolorofblackjack.com/solution_one.html, after Wizard of Odds), in points of %:
        ({"hit_soft_17": True}, 0.0017, 0.0025),  # dealer hits soft 17: +0.20
        ({"blackjack_pays": "6:5"}, 0.0125, 0.0142),  # 6:5: +1.39 single deck (the edge takes no even money)
        ({"surrender": True}, -0.0010, -0.0004),  # late surrender: −0.06 … −0.08
        ({"double_after_split": False}, 0.0010, 0.0017),  # no DAS: +0.13 … +0.14
        ({"decks": 1}, -0.0065, -0.0045),  # six decks to one: −0.53 − 0.02 … −0.51
    ],
)
def test_a_single_rule_moves_the_edge_as_published(change, low, high):
    base = _edge()
    moved = _edge(**change)
    assert low < moved - base < high, (change, moved - base)
    bj.forget(bj.read_rules("salon", change))


def test_the_jackpot_is_exact():
    doc = fx.jackpot("online")
    p = Fraction(2 * 8 * 8, 416 * 415)
    assert p == Fraction(4, 5395)
    assert abs(Decimal(doc["probability"]) - Decimal(4) / Decimal(5395)) < Decimal("1e-21")
    assert abs(Decimal(doc["ev"]) - Decimal(float(p * 1000 - (1 - p)))) < Decimal("1e-15")
    # at the break-even jackpot the side bet's EV is zero
    at_break_even = fx.jackpot("online", {"jackpot_amount": doc["break_even_amount"][:20]})
    assert abs(Decimal(at_break_even["ev"])) < Decimal("1e-12")
    assert doc["one_in"] == "1348.75"


def test_the_simulation_of_a_continuous_shuffle_is_the_exact_basic_edge():
    sim = fx.simulate(100_000, 5, "salon", cut=None)
    exact = float(Decimal(bj.edge(preset="salon", strategy="basic")["expected_return"]))
    assert abs(sim["mean"] - exact) < 4 * sim["se"], (sim, exact)
    assert abs(sim["sd"] - float(Decimal(bj.edge(preset="salon", strategy="basic")["sd"]))) < 0.03


def test_the_cut_card_is_reported_with_its_interval():
    doc = fx.cut_card(20_000, seed=3)
    low, mid, high = (float(Decimal(doc[k])) for k in ("difference_low", "difference", "difference_high"))
    assert low < mid < high and doc["cut_remaining"] == 78 and doc["rounds"] == 20_000
    assert doc == fx.cut_card(20_000, seed=3)  # the seed makes it reproducible


def test_insurance_is_worse_with_tens_in_the_hand():
    doc = fx.insurance("salon")
    values = [Decimal(r["insurance"]) for r in doc["rows"]]
    assert values[0] > values[1] > values[2] and all(v < 0 for v in values)
    assert not doc["even_money_best"] and Decimal(doc["even_money"]) == 1


def test_a_rule_set_tried_and_forgotten_leaves_no_dealer_odds_behind():
    """The rule-effects table solves a rule set, keeps its edge and forgets the solve: the dealer
    odds its shoes added go too (kept, another deck count's and the other dealer rule's odds held
    most of a warmed server's memory), and the same edge comes back when it is solved again."""
    from dealing.engine.blackjack.math.question import read_rules
    from dealing.engine.blackjack.math.solver import dealer_marks

    change = {"decks": 1, "hit_soft_17": True}
    before = dealer_marks()
    first = bj.edge(rules=change, preset="salon")
    grown = dealer_marks()
    assert grown.get(True, 0) > before.get(True, 0)
    bj.forget(read_rules("salon", change), before)
    assert dealer_marks() == before
    bj.clear_cache()  # the edges too, so the rule set is solved again from its dealer odds
    assert bj.edge(rules=change, preset="salon") == first
