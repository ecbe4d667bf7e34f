"""Every order of payment the rules allow grades clean in the payout drill (issue: a drill that
marks a lawful order wrong teaches the wrong thing). Ochko (rules/ochko.md, settlement 9–10): the
boxes 6 → 1, each box's Bet and Ante — in either order, and whichever stake of the box first —
before its dealer bets; what is settled during the round (a fold, an instant, even money) may be
named anywhere, since the drill shows the finished table. Blackjack and veintiuno set no order."""

import random

import pytest

from drills import payout, setups

GAMES = [("ochko", ""), ("blackjack", "salon"), ("blackjack", "online"), ("veintiuno", "")]


def _round(variant, preset, seed):
    setup = setups.tables_for(variant, preset)[0]
    options = setups.default_options(variant, preset)
    return setups.deal_round(
        variant=variant, preset=preset, options=options, setup=setup, rng=setups.round_rng(seed, 1)
    )


def _lawful_order(variant, doc, answers, rng):
    spots = {s["id"]: s.get("box", s.get("seat")) for s in doc["stakes"]}
    shuffled = answers[:]
    rng.shuffle(shuffled)
    if variant != "ochko":
        return shuffled
    # A stable sort keeps the shuffled order wherever the rules leave it free.
    return sorted(shuffled, key=lambda a: (-spots[a["stake"]], a["wager"] == "dealer_bet"))


@pytest.mark.parametrize(("variant", "preset"), GAMES)
def test_every_lawful_order_of_payment_grades_clean(variant, preset):
    rng = random.Random(f"{variant}-{preset}")
    reordered = 0
    for seed in range(40):
        doc = _round(variant, preset, seed)
        answers = payout.simulated_answers(doc)
        for _ in range(4):
            order = _lawful_order(variant, doc, answers, rng)
            reordered += order != answers
            graded = payout.grade(doc, order)
            assert graded.clean, (seed, [(a["stake"], a["wager"]) for a in order], graded.findings)
            assert graded.correct == graded.decisions
    assert reordered > 40  # the test did try orders other than the dealer's own
