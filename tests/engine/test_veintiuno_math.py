"""Veintiuno's game math (dealing/engine/veintiuno/math/__init__.py): the special hands' chances against an
independent count, and the bank's exact edge against rounds dealt from a shuffled pack, played
by the documented strategies here and settled by the engine's own replay."""

import functools
import math
import os
import random
from decimal import Decimal
from fractions import Fraction
from itertools import permutations

import pytest

from dealing import engine
from dealing.engine.veintiuno import math as vm

PACK = [r + s for r in "A234567JQK" for s in "SHDC"]
VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 8)}}


def test_the_two_card_hands_match_a_count_by_hand():
    # 40·39 ordered pairs, counted here from the rules' definitions.
    pairs = list(permutations(PACK, 2))
    assert len(pairs) == 1560

    def share(test):
        return Fraction(sum(1 for a, b in pairs if test(a, b)), len(pairs))

    def twelve(a, b):
        return "A" not in (a[0], b[0]) and not (a[0] in "JQK" and b[0] in "JQK") and VALUE[a[0]] + VALUE[b[0]] == 12

    def best(a, b):
        hard = VALUE[a[0]] + VALUE[b[0]]
        return hard + 10 if "A" in (a[0], b[0]) and hard <= 11 else hard

    chance = vm.specials()
    assert (
        chance["natural"]
        == share(lambda a, b: {a[0], b[0]} & {"A"} and ({a[0], b[0]} - {"A"}) <= set("JQK") and a[0] != b[0])
        == Fraction(4 * 12 * 2, 1560)
    )
    assert chance["monona"] == Fraction(4 * 3, 1560)
    assert chance["suited_twelve"] == share(lambda a, b: twelve(a, b) and a[1] == b[1])
    assert chance["twelve"] == share(lambda a, b: twelve(a, b) and a[1] != b[1])
    assert chance["relancina"] == share(lambda a, b: a[0] in "JQK" and b[0] in "JQK" and a[0] != b[0])
    assert chance["thirteen"] == share(lambda a, b: best(a, b) == 13)
    # 5+7 suited: 4 suits × 2 orders; a picture and a 2 of one suit: 3 × 4 suits × 2 orders.
    assert chance["suited_twelve"] == Fraction(8 + 24, 1560)


def test_the_chasing_trillona_matches_a_card_by_card_recursion_in_fractions():
    # Independently: follow the actual cards (not value classes), memoised on the values left,
    # in Fractions. A chaser draws while under 21; a two-card 21 (natural, moñona, suited 12)
    # stops; the chance the hand ends on 21 with exactly its seventh card.

    def count(hard, aces):
        return hard + 10 if aces and hard <= 11 else hard

    values = (1, 2, 3, 4, 5, 6, 7, 10)

    @functools.cache
    def chase(left, hard, aces, n):
        c = count(hard, aces)
        if c >= 21 or n == 7:
            return Fraction(int(c == 21 and n == 7))
        total = sum(left)
        return sum(
            (
                Fraction(k, total)
                * chase(left[:i] + (k - 1,) + left[i + 1 :], hard + values[i], aces + (i == 0), n + 1)
                for i, k in enumerate(left)
                if k
            ),
            Fraction(0),
        )

    start = Fraction(0)
    for a, b in permutations(PACK, 2):
        kind, value = _two_card([a, b])
        if value == 21:
            continue
        left = [4, 4, 4, 4, 4, 4, 4, 12]
        for c in (a, b):
            left[values.index(VALUE[c[0]]) if c[0] != "A" else 0] -= 1
        hard = VALUE[a[0]] + VALUE[b[0]]
        start += Fraction(1, 1560) * chase(tuple(left), hard, (a[0] == "A") + (b[0] == "A"), 2)
    assert vm.specials()["trillona_chasing"] == start


def test_the_distribution_is_a_whole_and_the_edge_document_is_consistent():
    doc = vm.edge()
    assert doc["format"] == "edge/1" and doc["variant"] == "veintiuno" and doc["strategy"] == "documented"
    assert Decimal(doc["probabilities"]["total"]) == 1
    assert Decimal(doc["house_edge"]) == -Decimal(doc["expected_return"])
    assert doc["player"]["threshold"] == vm.THRESHOLD and doc["bank"]["stands_on"] == vm.BANK_STANDS


def test_withdrawn_rounds_are_exactly_the_two_card_thirteens():
    solved = vm.round_distribution(vm.THRESHOLD, vm.BANK_STANDS, 2, 1)
    assert solved["withdrawn"] == vm.specials()["thirteen"]
    assert sum(solved["results"].values()) == 1


def test_a_richer_suited_twelve_moves_the_edge_by_its_chance():
    # Paying 3 instead of 2 for a suited 12 adds 1 × P(player's suited 12, bank without a natural).
    base = vm.expected_return(suited_pays=2)
    richer = vm.expected_return(suited_pays=3)
    assert 0 < richer - base < vm.specials()["suited_twelve"]


def test_bad_questions_are_refused():
    with pytest.raises(vm.QuestionError):
        vm.edge({"suited_twelve_pays": 0})
    with pytest.raises(vm.QuestionError):
        vm.edge(threshold=30)
    with pytest.raises(vm.QuestionError):
        vm.specials(packs=0)


# --- Monte Carlo through the engine ----------------------------------------------------------


def _value(cards: list[str]) -> int:
    hard = sum(VALUE[c[0]] for c in cards)
    return hard + 10 if any(c[0] == "A" for c in cards) and hard <= 11 else hard


def _two_card(cards: list[str]) -> tuple[str | None, int]:
    a, b = cards
    r = {a[0], b[0]}
    if r == {"A"}:
        return "monona", 21
    if "A" in r and len(r) == 2 and r - {"A"} <= set("JQK"):
        return "natural", 21
    if r <= set("JQK"):
        return None, 20
    if "A" not in r and VALUE[a[0]] + VALUE[b[0]] == 12:
        return ("suited", 21) if a[1] == b[1] else (None, 20)
    return None, _value(cards)


def play_rounds(n: int, seed: int, threshold: int = vm.THRESHOLD, stands: int = vm.BANK_STANDS) -> list[float]:
    """Heads-up rounds from a freshly shuffled pack each, played by the documented strategies;
    each settled by the engine (engine.settle), the player's net per unit bet."""
    rng = random.Random(seed)
    nets = []
    for _ in range(n):
        pack = PACK[:]
        rng.shuffle(pack)
        p1, b1, p2, b2 = pack.pop(), pack.pop(), pack.pop(), pack.pop()
        events = [
            {"e": "deal", "to": 1, "card": p1},
            {"e": "deal", "to": "bank", "card": b1},
            {"e": "bet", "stake": "P", "amount": 10},
            {"e": "deal", "to": 1, "card": p2},
            {"e": "deal", "to": "bank", "card": b2},
        ]
        hand, bank = [p1, p2], [b1, b2]
        kind, value = _two_card(hand)
        still_in = True
        if kind == "natural":
            events.append({"e": "declare", "hand": "1"})
            still_in = False
        elif _value(hand) == 13:
            events.append({"e": "withdraw", "hand": "1"})
            still_in = False
        else:
            if kind is None and value < threshold:
                while _value(hand) < threshold:
                    card = pack.pop()
                    hand.append(card)
                    events.append({"e": "hit", "hand": "1", "card": card})
            if _value(hand) > 21 and len(hand) > 2:
                still_in = False
            else:
                events.append({"e": "stand", "hand": "1"})
        if still_in:
            _, bank_value = _two_card(bank)
            while bank_value < stands:
                card = pack.pop()
                bank.append(card)
                events.append({"e": "draw", "card": card})
                bank_value = _value(bank)
        doc = {
            "format": "round/1",
            "variant": "veintiuno",
            "table": {"min": 5, "max": 100},
            "bank": "Ana",
            "stakes": [{"id": "P", "seat": 1, "player": "Pia"}],
            "events": events,
        }
        settled = engine.settle(doc)
        (wager,) = settled["wagers"]
        amount = Decimal(wager["amount"]) / 10
        nets.append(float({"pay": amount, "take": -amount}.get(wager["result"], 0)))
    return nets


def _mean_se(nets):
    n = len(nets)
    mean = sum(nets) / n
    var = sum((x - mean) ** 2 for x in nets) / (n - 1)
    return mean, math.sqrt(var / n), math.sqrt(var)


def _check(n: int, seed: int):
    mean, se, sd = _mean_se(play_rounds(n, seed))
    doc = vm.edge()
    expected = float(Decimal(doc["expected_return"]))
    assert abs(sd - float(Decimal(doc["sd"]))) < 0.05 * float(Decimal(doc["sd"]))
    return mean, expected, se


def test_monte_carlo_rounds_settled_by_the_engine_land_within_4_se():
    mean, expected, se = _check(30_000, 21)
    assert abs(mean - expected) < 4 * se, (mean, expected, se)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.skipif(not os.environ.get("VEINTIUNO_MC_1M"), reason="the 1,000,000-round check: set VEINTIUNO_MC_1M=1")
def test_monte_carlo_of_a_million_rounds():
    mean, expected, se = _check(1_000_000, 2026)
    print(f"1,000,000 rounds: mean {mean:.6f}, exact {expected:.6f}, se {se:.6f}, {(mean - expected) / se:+.2f} se")
    assert abs(mean - expected) < 4 * se, (mean, expected, se)


# --- the command line --------------------------------------------------------------------------


def _cli(*args):
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "dealing.engine", *args], capture_output=True, text=True, timeout=600)


def test_the_cli_prints_the_edge_and_the_special_hands():
    import json

    edge = _cli("edge", "veintiuno")
    assert edge.returncode == 0, edge.stderr
    assert json.loads(edge.stdout) == json.loads(json.dumps(vm.edge()))
    specials = _cli("specials", "veintiuno")
    assert json.loads(specials.stdout)["chances"]["monona"] == "0.0076923076923076"


@pytest.mark.parametrize(
    "args,words",
    [
        (("ev", "veintiuno", "--cards", "AS"), "edge` and `specials"),
        (("edge", "veintiuno", "--rule", "suited_twelve_pays=0"), "suited_twelve_pays"),
        (("edge", "veintiuno", "--threshold", "40"), "threshold"),
        (("edge", "veintiuno", "--strategy", "optimal"), "documented"),
        (("specials", "ochko"), "only veintiuno"),
        (("edge", "ochko", "--threshold", "12"), "veintiuno only"),
    ],
)
def test_the_cli_refuses_a_question_it_cannot_answer_in_one_line(args, words):
    done = _cli(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr and done.stderr.count("\n") == 1


def test_the_specials_trillona_without_the_bank_equals_the_rounds_tally():
    # The specials table counts the player's draws alone (the bank's cards are exchangeable).
    assert vm.trillona_played(16) == vm.round_distribution(16, vm.BANK_STANDS, 2, 1)["trillona"] > 0


def test_forgetting_the_solves_keeps_every_figure():
    """A warmed web process lets the orderings' memos go (vm.forget_solves): the round distributions
    solved stay, and a rule set solved again from nothing gives the same figures."""
    before = vm.expected_return(15, 17, 2)
    solved = vm.round_distribution.cache_info().currsize
    vm.forget_solves()
    assert vm.round_distribution.cache_info().currsize == solved
    assert vm.expected_return(15, 17, 2) == before
    vm.round_distribution.cache_clear()
    vm.forget_solves()
    assert vm.expected_return(15, 17, 2) == before
