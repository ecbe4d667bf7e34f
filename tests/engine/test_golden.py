"""Every golden round of every variant, unchanged: the settlement and the finding codes."""

import json
from decimal import Decimal
from pathlib import Path

import pytest

from dealing import engine

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.json"))


def _amounts(wagers):
    if wagers is None:
        return None
    return [{**w, "amount": Decimal(w["amount"])} for w in wagers]


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden_round(path):
    case = json.loads(path.read_text(encoding="utf-8"))
    variant = path.parent.name
    # A game whose rules module is missing fails here: a golden case is never skipped.
    assert variant in engine.VARIANTS, f"{variant} has golden cases but is not a registered game"
    # The engine reads the file's text itself, exactly as a client would send it.
    round_text = json.dumps(case["round"])
    settlement = engine.settle(round_text)
    expected = case["expected"]

    assert settlement["format"] == "settlement/1"
    assert settlement["variant"] == variant
    assert _amounts(settlement["wagers"]) == _amounts(expected["wagers"]), case["why"]
    if expected["float"] is None:
        assert settlement["float"] is None
    else:
        assert Decimal(settlement["float"]) == Decimal(expected["float"]), case["why"]
    assert {f["code"] for f in settlement["findings"]} == set(expected["finding_codes"]), case["why"]
    if "bank_next" in expected:
        assert settlement["bank_next"] == expected["bank_next"]


def test_every_game_of_the_engine_has_golden_cases():
    assert {p.parent.name for p in CASES} == set(engine.VARIANTS)


def test_golden_cases_are_all_here():
    """The copies in tests/golden match ../shared/golden when it is present (it is data, copied unchanged)."""
    shared = GOLDEN.parent.parent.parent / "shared" / "golden"
    if not shared.is_dir():
        pytest.skip("../shared/golden is not next to this checkout")
    for original in shared.glob("*/*.json"):
        copy = GOLDEN / original.parent.name / original.name
        assert copy.read_bytes() == original.read_bytes(), f"{copy} differs from {original}"


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_a_round_walked_event_by_event_ends_as_its_replay(path):
    """`engine.walk` (a builder's one walk, asked what comes next after each event) finishes every
    golden round as `replay` does, and says at each step what `next_events` says of the log so far."""
    doc = engine.load(json.dumps(json.loads(path.read_text(encoding="utf-8"))["round"]))
    whole = engine.replay(doc)
    state = engine.walk({**doc, "events": []})
    for i, event in enumerate(doc["events"]):
        if i % 3 == 0:  # a question now and then, as a builder asks them: it changes nothing
            assert state.moves() == engine.next_events({**doc, "events": doc["events"][:i]})
        state.apply(i, event)
    assert state.finish().settlement() == whole.settlement()
