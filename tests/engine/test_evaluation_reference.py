"""The evaluation's fast path (memoised cells, one walk of the events, the collector paused, the
compiled build) gives exactly the Evaluation of a straightforward reference: every decision worked
out from scratch, every shoe state recounted from the shoe's first card."""

import json
import os
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from dealing.engine import evaluation, native, protection
from dealing.engine.blackjack import count as blackjack_count
from dealing.engine.blackjack import evaluation as wing
from dealing.engine.blackjack.math.question import RANK_INDEX, RANK_NAMES, full_shoe
from dealing.engine.blackjack.math.solver import DOUBLE, HIT, SPLIT, STAND, can_double, total
from dealing.engine.blackjack.simulator import simulate_shoe
from dealing.engine.evaluation import ShoeLog

ROOT = Path(__file__).resolve().parents[2]


def _shoes(seed: int, rounds: int) -> list[list[dict]]:
    doc = simulate_shoe(random.Random(seed), rounds=rounds, preset="salon", boxes=(2, 5), errors=0.1)
    shoes: list[list[dict]] = []
    for item in doc["items"]:
        if item["e"] == "shuffle":
            shoes.append([])
            continue
        for stake in item["round"]["stakes"]:
            if stake["box"] == 1:
                stake["player"] = "W"
        shoes[-1].append(json.loads(json.dumps(item["round"], default=str)))  # as the store gives them
    return shoes


def _logs(shoes) -> list[ShoeLog]:
    return [
        ShoeLog(f"S{k}", "blackjack", 6, rounds, {(d["id"], s["id"]): Decimal(7) for d in rounds for s in d["stakes"]})
        for k, rounds in enumerate(shoes)
    ]


def _reference_states(rounds: list[dict]) -> list[tuple]:
    """Each round's composition counted again from the full shoe and every card dealt before it."""
    out = []
    for k in range(len(rounds)):
        remaining = {r: blackjack_count.PER_DECK[r] * 6 for r in blackjack_count.RANKS}
        for doc in rounds[:k]:
            for r in blackjack_count.round_ranks(doc):
                remaining[r] = max(0, remaining[r] - 1)
        running = sum(blackjack_count.TAGS[r] * (blackjack_count.PER_DECK[r] * 6 - n) for r, n in remaining.items())
        out.append((remaining, running))
    return out


def _reference_decisions(document: dict, state) -> list[tuple]:
    """The stakes of W in a round, each decision's (hand, situation, chosen, optimal, EVs), with no
    memo: the chart's cell, the options allowed and their values worked out for every decision."""
    rules = wing.rules_of(document)
    table = wing.option_effects(rules)
    full = full_shoe(rules["decks"])
    n_full = sum(full)
    shares = [c / n_full for c in full]
    counts = [0] * len(RANK_NAMES)
    for rank, n in state.remaining.items():
        counts[RANK_INDEX[rank]] += n
    n_now = sum(counts)
    x = [(shares[r] - counts[r] / n_now) * (n_full - 1) for r in range(len(counts))]
    boxes = {s["box"] for s in document["stakes"] if s.get("player") == "W"}
    hands: dict[str, list[int]] = {}
    up = None
    for e in document["events"]:
        if e["e"] == "deal" and e["to"] == "dealer":
            up = RANK_INDEX[e["card"][0]] if up is None else up
        elif e["e"] == "deal":
            hands.setdefault(str(e["to"]), []).append(RANK_INDEX[e["card"][0]])
    per_box = dict.fromkeys((int(h) for h in hands), 1)
    done: set[str] = set()
    out = []
    for e in document["events"]:
        if e["e"] not in (HIT, STAND, DOUBLE, SPLIT) or "hand" not in e:
            continue
        name, kind = str(e["hand"]), e["e"]
        box = int(name.split(".")[0])
        cards = hands.setdefault(name, [])
        if kind == HIT and len(cards) < 2:
            cards.append(RANK_INDEX[e["card"][0]])
            continue
        hand = tuple(cards.count(k) for k in range(len(RANK_NAMES)))
        best, soft = total(hand)
        if box in boxes and name not in done and best < 21:
            split_hand = "." in name
            may_split = (
                len(cards) == 2
                and cards[0] == cards[1]
                and per_box[box] < rules["max_hands"]
                and (cards[0] != 0 or not split_hand or rules["resplit_aces"])
            )
            if may_split and ("pair", cards[0], up) in table:
                cell = table[("pair", cards[0], up)]
                situation = f"{RANK_NAMES[cards[0]]},{RANK_NAMES[cards[0]]} v {RANK_NAMES[up]}"
            else:
                label = "soft" if soft else "hard"
                cell = table.get((label, best, up))
                situation = f"{label} {best} v {RANK_NAMES[up]}"
            allowed = {STAND, HIT} | ({DOUBLE} if len(cards) == 2 and can_double(rules, hand, split_hand) else set())
            allowed |= {SPLIT} if may_split else set()
            values = {
                n: base + sum(e * d for e, d in zip(eor, x)) for n, (base, eor) in (cell or {}).items() if n in allowed
            }
            if kind in values:
                optimal = max(values, key=lambda n: (values[n], n == kind))
                out.append((name, situation, kind, optimal, values[kind], values[optimal]))
        if kind in (HIT, DOUBLE):
            cards.append(RANK_INDEX[e["card"][0]])
        if kind in (STAND, DOUBLE, SPLIT):
            done.add(name)
        if kind == SPLIT:
            hands[f"{name}.1"], hands[f"{name}.2"] = cards[:1], cards[1:2]
            per_box[box] += 1
    return out


@pytest.mark.parametrize("seed", [3, 38])
def test_the_fast_evaluation_equals_the_reference_decision_by_decision(seed):
    shoes = _shoes(seed, 300)
    report = evaluation.evaluate(_logs(shoes), player="W")
    expected = []
    for rounds in shoes:
        states = protection.shoe_states("blackjack", rounds, decks=6)
        for state, (remaining, running) in zip(states, _reference_states(rounds), strict=True):
            assert state.remaining == remaining and state.running_count == running
        for doc, state in zip(rounds, states):
            expected += _reference_decisions(doc, state)
    got = [(d.hand, d.situation, d.chosen, d.optimal, d.ev_chosen, d.ev_optimal) for d in report.decisions]
    assert len(got) > 100 and got == expected  # the same floats to the last bit


def test_the_collector_is_paused_only_while_evaluating():
    import gc

    assert gc.isenabled()
    evaluation.evaluate(_logs(_shoes(3, 40)), player="W")
    assert gc.isenabled()
    gc.disable()
    try:
        evaluation.evaluate(_logs(_shoes(3, 40)), player="W")
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        gc.enable()


_DUMP = """
import json, random, sys
from dataclasses import astuple
sys.path.insert(0, {root!r})
from dealing.engine import evaluation, native
from tests.engine.test_evaluation_reference import _logs, _shoes
report = evaluation.evaluate(_logs(_shoes(11, 300)), player="W")
print(json.dumps([native.implementation(), [str(astuple(x)) for x in report.rounds + report.decisions + report.insurance],
                  {{k: str(v) for k, v in report.summary().items()}}]))
"""


@pytest.mark.skipif(not native.check()[0], reason="the compiled engine is not built here")
def test_the_compiled_evaluation_equals_the_pure_one():
    def run(pure: bool):
        env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
        if pure:
            env[native.PURE_ENV] = "1"
        done = subprocess.run(
            [sys.executable, "-c", _DUMP.format(root=str(ROOT))], capture_output=True, text=True, env=env, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    compiled, pure = run(False), run(True)
    assert compiled[0].startswith("compiled") and pure[0].startswith("pure")
    assert compiled[1:] == pure[1:]
