"""Blackjack (rules/blackjack.md) over many rounds and shoes: properties of simulated rounds of both
presets against the simulator's own arithmetic, fuzzing, the checks across a shoe, and the exact
dealer odds."""

import copy
import json
import random
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import RoundError
from dealing.engine.blackjack.odds import RESULTS, exact, outcomes, without_blackjack
from dealing.engine.blackjack.simulator import MISTAKES, simulate_round, simulate_shoe
from dealing.engine.simulators import simulate

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ("salon", "online")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- properties over simulated rounds of both presets -------------------------------------------------


def one(seed, preset, **kw):
    return next(simulate("blackjack", 1, seed=seed, preset=preset, **kw))


@pytest.mark.parametrize("preset", PRESETS)
@PROPERTY
@given(seed=SEEDS)
def test_a_correct_simulated_round_is_clean_and_every_wager_is_settled_once(preset, seed):
    sim = one(seed, preset, insurance=0.5, even_money=0.5, errors=0.2)
    outcome = engine.replay(sim.doc)
    assert [f.to_dict() for f in outcome.findings] == []
    keys = [(w.stake, w.hand, w.wager) for w in outcome.wagers]
    assert len(keys) == len(set(keys))
    assert sorted((s.stake, s.hand, s.wager) for s in outcome.settled) == sorted(keys)
    assert all(w.hand is not None and w.amount > 0 for w in outcome.wagers)


@pytest.mark.parametrize("preset", PRESETS)
@PROPERTY
@given(seed=SEEDS)
def test_float_is_takes_minus_pays_and_matches_the_dealers_chips(preset, seed):
    sim = one(seed, preset)
    s = engine.settle(json.dumps(sim.doc, default=str))
    takes = sum(Decimal(w["amount"]) for w in s["wagers"] if w["result"] == "take")
    pays = sum(Decimal(w["amount"]) for w in s["wagers"] if w["result"] == "pay")
    assert Decimal(s["float"]) == takes - pays
    moved = Decimal(0)
    for event in sim.doc["events"]:
        if event["e"] == "pay":
            moved -= Decimal(str(event["amount"]))
        elif event["e"] == "take":
            moved += Decimal(str(event["amount"]))
    assert moved == Decimal(s["float"])


CASES = [(p, kind) for p in PRESETS for kind in MISTAKES]


@pytest.mark.parametrize("preset, kind", CASES, ids=[f"{p}-{k}" for p, k in CASES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_each_injected_mistake_yields_its_code_and_player_delta(preset, kind, seed):
    sim = one(seed, preset, mistake_rate=1.0, kinds=[kind])
    outcome = engine.replay(json.loads(json.dumps(sim.doc, default=str)))
    found = {f.code for f in outcome.findings}
    assert sim.mistake == kind  # the simulator stacks its own shoe: every mistake finds its place
    assert found == {MISTAKES[kind]}, [f.message for f in outcome.findings]
    if MISTAKES[kind] in ("WRONG_AMOUNT", "WRONG_RESULT", "MISSING_SETTLEMENT", "UNEXPECTED_SETTLEMENT"):
        assert sim.player_delta is not None
        assert sum(f.player_delta for f in outcome.findings) == sim.player_delta


def test_a_dealt_shoe_that_cannot_host_a_mistake_gives_a_correct_round():
    rng = random.Random(5)
    shoe = [r + s for r in "23456789" for s in "SHDC"] * 6  # no aces: no split aces to hit
    rng.shuffle(shoe)
    sim = simulate_round(rng, mistake="hit_split_aces", shoe=shoe)
    assert sim.mistake is None and len(shoe) + len(sim.doc["events"]) > 0
    assert engine.replay(sim.doc).findings == []


# --- fuzz --------------------------------------------------------------------------------------

_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.sampled_from(
        [
            "1",
            "2",
            "1.1",
            "1.2",
            "1.1.1",
            "dealer",
            "AS",
            "TD",
            "KH",
            "5C",
            "ZZ",
            "bet",
            "double",
            "insurance",
            "jackpot",
            "100",
            "7.50",
            "0",
            "-1",
            "1e2",
            "0.001",
        ]
    ),
    st.decimals(allow_nan=False, places=3),
)
_event = st.fixed_dictionaries(
    {
        "e": st.sampled_from(
            [
                "deal",
                "insurance",
                "even_money",
                "peek",
                "hit",
                "stand",
                "double",
                "split",
                "draw",
                "pay",
                "take",
                "leave",
            ]
        )
    },
    optional={"to": _values, "card": _values, "hand": _values, "stake": _values, "amount": _values, "wager": _values},
)


def _never_crashes(doc):
    for call in (engine.settle, engine.next_events):
        try:
            call(doc)
        except RoundError as error:
            assert error.code and error.message


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, extra=st.lists(_event, max_size=6), data=st.data())
def test_bad_input_raises_only_round_error(preset, seed, extra, data):
    doc = json.loads(json.dumps(one(seed, preset).doc, default=str))
    events = doc["events"]
    for event in extra:
        events.insert(data.draw(st.integers(0, len(events))), event)
    _never_crashes(doc)
    doc["events"] = data.draw(st.permutations(events))
    _never_crashes(doc)


# --- the shoe -----------------------------------------------------------------------------------


def shoe_doc(preset, rounds, seed=1):
    return json.loads(json.dumps(simulate_shoe(random.Random(seed), rounds=rounds, preset=preset), default=str))


def _found(doc):
    return [(f.code, f.event) for f in engine.check_shoe(doc)]


def test_a_correct_salon_shoe_is_played_down_to_the_cut():
    doc = shoe_doc("salon", 60)
    assert _found(doc) == []
    shuffles = [k for k, item in enumerate(doc["items"]) if item["e"] == "shuffle"]
    assert len(shuffles) >= 2  # sixty rounds need more than one shoe


def test_salon_reshuffle_point_both_ways():
    doc = shoe_doc("salon", 60)
    items = doc["items"]
    second = [k for k, item in enumerate(items) if item["e"] == "shuffle"][1]
    late = copy.deepcopy(doc)
    del late["items"][second]  # the next round is dealt below the cut
    assert ("RESHUFFLE_POINT", second) in _found(late)
    early = copy.deepcopy(doc)
    early["items"].insert(3, {"e": "shuffle"})  # a new shoe while most of it is left
    assert _found(early)[0] == ("RESHUFFLE_POINT", 3)


def test_a_seventh_copy_of_a_card_in_a_salon_shoe():
    doc = {
        "format": "shoe/1",
        "variant": "blackjack",
        "table": {"min": 100, "max": 5000},
        "rules": {"preset": "salon"},
        "items": [{"e": "shuffle"}] + [{"e": "burn", "card": "AS", "reason": "other"}] * 7,
    }
    assert _found(doc) == [("CARD_COUNT", 7)]


def test_online_every_round_from_a_fresh_shoe():
    doc = shoe_doc("online", 20)
    assert _found(doc) == []
    kinds = [item["e"] for item in doc["items"]]
    assert kinds == ["shuffle", "round"] * 20
    del doc["items"][4]  # the third round follows the second without a shuffle
    assert _found(doc) == [("RESHUFFLE_POINT", 4)]


# --- dealer odds --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_each_up_card_sums_to_exactly_one(preset):
    table = exact(preset)
    assert list(table) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    for card, row in table.items():
        assert list(row) == list(RESULTS)
        assert sum(row.values()) == 1, card
        assert sum(without_blackjack(row).values()) == 1
    for card in "23456789":
        assert table[card]["blackjack"] == 0


def test_the_seed_figures():
    salon = exact("salon")
    assert abs(salon["6"]["bust"] - Fraction(42, 100)) < Fraction(1, 200)
    assert abs(without_blackjack(salon["T"])["bust"] - Fraction(23, 100)) < Fraction(1, 200)
    # The hole card is the only card that makes blackjack: an ace (24 of 311) or a ten (96 of 311).
    assert salon["T"]["blackjack"] == Fraction(24, 311)
    assert salon["A"]["blackjack"] == Fraction(96, 311)
    assert exact("online")["A"]["blackjack"] == Fraction(128, 415)


def test_the_recursion_against_every_ordering_of_a_tiny_shoe():
    # Two cards of each value (A, 2 … 9, ten): walk every sequence of draws naively, card by card.
    left = (2,) * 10

    def naive(cards, hard, ace, n):
        best = hard + 10 if ace and hard <= 11 else hard
        if n == 2 and best == 21:
            return {"blackjack": Fraction(1)}
        if hard > 21:
            return {"bust": Fraction(1)}
        if best >= 17:
            return {str(best): Fraction(1)}
        out = {}
        for k in range(len(cards)):
            v = cards[k]
            rest = cards[:k] + cards[k + 1 :]
            for r, p in naive(rest, hard + v, ace or v == 1, n + 1).items():
                out[r] = out.get(r, 0) + p / len(cards)
        return out

    cards = [v for v in range(1, 11) for _ in range(2)]
    for up in (6, 10, 1):
        rest = list(cards)
        rest.remove(up)
        expected = naive(rest, up, up == 1, 1)
        shoe = tuple(c - (k + 1 == up) for k, c in enumerate(left))
        got = dict(zip(RESULTS, outcomes(shoe, up, up == 1, 1)))
        assert {r: p for r, p in got.items() if p} == expected


def test_odds_command_for_blackjack():
    result = subprocess.run(
        [sys.executable, "-m", "dealing.engine", "odds", "blackjack", "--preset", "online"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    out = json.loads(result.stdout)
    assert (out["variant"], out["preset"]) == ("blackjack", "online")
    assert set(out["no_blackjack"]) == {"T", "A"}
    six = out["up_cards"]["6"]
    assert all(len(p.split(".")[1]) == 12 for p in six.values())
    assert six["blackjack"] == "0.000000000000"
    assert abs(sum(Decimal(p) for p in six.values()) - 1) < Decimal("1e-11")
