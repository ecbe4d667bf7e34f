"""The command line, the shoe checks and the dealer odds."""

import json
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from dealing import engine
from dealing.engine.ochko.odds import exact
from dealing.engine.ochko.simulator import simulate_shoe

from .ochko_logs import one_box_win

ROOT = Path(__file__).resolve().parents[2]


def cli(*args, stdin=""):
    # No Django settings in the environment: the engine's CLI must not need them.
    return subprocess.run(
        [sys.executable, "-m", "dealing.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_settle_one_document_from_a_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(one_box_win(), indent=2))
    result = cli("settle", str(path))
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert out["format"] == "settlement/1" and out["float"] == "-400"


def test_settle_json_lines_goes_on_after_an_unreadable_round():
    good = json.dumps(one_box_win())
    result = cli("settle", "-", stdin="\n".join([good, "{broken", good]) + "\n")
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["format"] == lines[2]["format"] == "settlement/1"
    assert lines[1]["error"] == "not_json" and lines[1]["line"] == 2


def test_simulate_then_settle_round_trip():
    sim = cli("simulate", "25", "--seed", "3")
    assert sim.returncode == 0
    assert len(sim.stdout.splitlines()) == 25
    settled = cli("settle", "-", stdin=sim.stdout)
    assert settled.returncode == 0
    assert all(json.loads(line)["findings"] == [] for line in settled.stdout.splitlines())
    again = cli("simulate", "25", "--seed", "3")
    assert again.stdout == sim.stdout


def test_simulate_with_mistakes_produces_findings():
    sim = cli("simulate", "40", "--seed", "5", "--mistakes", "1")
    settled = cli("settle", "-", stdin=sim.stdout)
    assert all(json.loads(line)["findings"] for line in settled.stdout.splitlines())


def test_next_on_a_round_in_progress():
    doc = one_box_win()
    doc["events"] = doc["events"][:4]
    result = cli("next", "-", stdin=json.dumps(doc))
    assert [m["e"] for m in json.loads(result.stdout)] == ["hit", "stand", "dark"]


# --- shoe ----------------------------------------------------------------------------------------


def shoe(seed=1, rounds=30):
    import random

    return json.loads(json.dumps(simulate_shoe(random.Random(seed), rounds=rounds), default=str))


def test_a_correct_shoe_has_no_findings():
    assert engine.check_shoe(shoe()) == []


def test_a_missing_load_burn_a_wrong_fee_and_a_dealer_change_without_a_burn():
    doc = shoe()
    items = doc["items"]
    del items[1]  # one of the 6 load burns
    first_round = next(k for k, item in enumerate(items) if item["e"] == "round")
    items.insert(first_round + 1, {"e": "burn", "card": "9S", "reason": "paid", "fee": 40})
    items.insert(first_round + 2, {"e": "dealer_change", "dealer": "D-9"})
    found = [(f.code, f.event) for f in engine.check_shoe(doc)]
    assert ("BURN_COUNT", first_round) in found
    assert ("BURN_FEE", first_round + 1) in found
    assert ("BURN_COUNT", first_round + 3) in found
    assert {code for code, _ in found} == {"BURN_COUNT", "BURN_FEE"}


def test_a_ninth_copy_of_a_card_in_one_shoe():
    doc = {
        "format": "shoe/1",
        "variant": "ochko",
        "table": {"min": 100, "max": 5000},
        "items": [{"e": "shuffle"}]
        + [{"e": "burn", "card": "AS", "reason": "load"}] * 6
        + [{"e": "round", "round": one_box_win()}]
        + [{"e": "burn", "card": "AS", "reason": "other"}] * 3,
    }
    found = engine.check_shoe(doc)
    assert [(f.code, f.event) for f in found] == [("CARD_COUNT", 10)]
    doc["items"].insert(9, {"e": "shuffle"})  # a fresh shoe before the 8th burn: counts start again
    assert engine.check_shoe(doc) == []


def test_a_shoe_with_an_unreadable_round_is_refused_with_its_path():
    doc = shoe(rounds=3)
    k = next(k for k, item in enumerate(doc["items"]) if item["e"] == "round")
    doc["items"][k]["round"]["events"][0]["e"] = "juggle"
    with pytest.raises(engine.RoundError) as caught:
        engine.check_shoe(doc)
    assert caught.value.path == f"$.items[{k}].round.events[0].e"


# --- odds ----------------------------------------------------------------------------------------


def test_ochko_dealer_odds_are_exact_and_complete():
    table = exact()
    assert list(table) == ["6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    for row in table.values():
        assert sum(row.values()) == 1
    # An ace first: the second card is one of 31 aces left among 287 cards.
    assert table["A"]["pair_of_aces"] == Fraction(31, 287)
    # Ten first and an ace second makes 21 at once: at least 32/287 of the time.
    assert table["T"]["21"] > Fraction(32, 287)
    for card in "6789TA":
        assert table[card]["five_pictures"] == 0


def test_odds_command_prints_12_digit_decimals():
    result = cli("odds", "ochko")
    out = json.loads(result.stdout)
    assert out["variant"] == "ochko"
    six = out["up_cards"]["6"]
    assert len(six["bust"].split(".")[1]) == 12
    assert abs(sum(Decimal(p) for p in six.values()) - 1) < Decimal("1e-11")
