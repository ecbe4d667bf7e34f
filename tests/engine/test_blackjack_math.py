"""Blackjack game math (dealing/engine/blackjack/math/, docs/blackjack-math.md): the dealer's
polynomials against the exact path walk, option values against an independent recursion in
Fractions, the chart against the published 4–8 deck S17 DAS no-surrender basic strategy, the
edge against published figures, and a Monte Carlo of rounds dealt by the real simulator with the
computed chart, settled by the real engine, within 4 standard errors of the exact edge.
"""

import json
import math
import os
import random
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from dealing import engine
from dealing.engine.blackjack import math as bj
from dealing.engine.blackjack import odds, simulator
from dealing.engine.blackjack.math import dealer as dealer_mod
from dealing.engine.blackjack.simulator import round as sim_round
from dealing.engine.math import cli

ROOT = Path(__file__).resolve().parents[2]
RANK = {"A": 0, **{str(v): v - 1 for v in range(2, 10)}, "T": 9, "J": 9, "Q": 9, "K": 9}


def _f(text: str) -> float:
    return float(Decimal(text))


# --- the dealer ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["salon", "online"])
def test_the_dealer_polynomials_give_the_exact_path_walk_odds(preset):
    exact = odds.exact(preset)
    decks = odds.DECKS[preset]
    full = (4 * decks,) * 9 + (16 * decks,)
    for up, card in enumerate("A23456789T"):
        shoe = list(full)
        shoe[up] -= 1
        shoe = tuple(shoe)
        got = dealer_mod.odds_function(up, False)(shoe)
        nb = dealer_mod.no_blackjack(up, shoe)
        assert abs(nb - float(1 - exact[card]["blackjack"])) < 1e-14
        for j, result in enumerate(dealer_mod.RESULTS):
            assert abs(got[j] - float(exact[card][result])) < 1e-13, (card, result)


def test_the_seeds_dealer_bust_figures():
    # rules/blackjack.md: six packs, S17: the dealer busts about 42 % with a 6 up, about 23 % with a ten up
    shoe = (24,) * 9 + (96,)
    six = dealer_mod.odds_function(5, False)(shoe[:5] + (23,) + shoe[6:])
    ten = dealer_mod.odds_function(9, False)(shoe[:9] + (95,))
    assert 0.415 < six[5] < 0.425
    # the odds leave the ten's blackjacks out without renormalising: given the peek found none, 23 %
    assert 0.225 < ten[5] / dealer_mod.no_blackjack(9, shoe[:9] + (95,)) < 0.235


# --- option values against an independent recursion in Fractions ------------------------------------


def _left(hand_codes, up_code, decks=6):
    shoe = [4 * decks] * 9 + [16 * decks]
    for code in hand_codes + [up_code]:
        shoe[RANK[code[0]]] -= 1
    return shoe


def _dealer(shoe, up):
    # blackjack.odds's path walk over an arbitrary shoe: the independent reference
    return odds.outcomes(tuple(shoe), up + 1, up == 0, 1)


def _stand_u(total, shoe, up) -> Fraction:
    """E[net · 1{no dealer blackjack}] of standing on `total` (bust: the loss)."""
    row = dict(zip(odds.RESULTS, _dealer(shoe, up)))
    nb = 1 - row["blackjack"]
    if total > 21:
        return -nb
    win = row["bust"] + sum(row[str(t)] for t in range(17, 22) if t < total)
    lose = sum(row[str(t)] for t in range(17, 22) if t > total)
    return win - lose


def _total(ranks):
    hard = sum(r + 1 for r in ranks)
    return hard + 10 if 0 in ranks and hard <= 11 else hard


def _best_u(ranks, shoe, up) -> Fraction:
    stand = _stand_u(_total(ranks), shoe, up)
    if _total(ranks) >= 21:
        return stand
    return max(stand, _hit_u(ranks, shoe, up))


def _hit_u(ranks, shoe, up) -> Fraction:
    n = sum(shoe)
    acc = Fraction(0)
    for r in range(10):
        if shoe[r]:
            child = shoe[:]
            child[r] -= 1
            acc += Fraction(shoe[r], n) * _best_u(ranks + [r], child, up)
    return acc


def _nb(shoe, up) -> Fraction:
    n = sum(shoe)
    return 1 - Fraction(shoe[9] if up == 0 else shoe[0] if up == 9 else 0, n)


@pytest.mark.parametrize(
    "cards,dealer",
    [
        (["TS", "6H"], "TC"),
        (["9S", "7H"], "AD"),
        (["TS", "2H"], "4C"),
        (["AS", "6H"], "9D"),
        (["TS", "5D", "3H"], "7S"),
    ],
)
def test_stand_hit_and_double_are_the_independent_recursions_values(cards, dealer):
    shoe = _left(cards, dealer)
    up = RANK[dealer[0]]
    ranks = [RANK[c[0]] for c in cards]
    nb = _nb(shoe, up)
    got = bj.ev(cards, dealer=dealer)["options"]
    assert abs(_f(got["stand"]) - float(_stand_u(_total(ranks), shoe, up) / nb)) < 1e-12
    if _total(ranks) >= 17:  # a short walk: the hit's tree from a stiff hand is small
        assert abs(_f(got["hit"]) - float(_hit_u(ranks, shoe, up) / nb)) < 1e-12
    if len(cards) == 2:
        n = sum(shoe)
        double = Fraction(0)
        for r in range(10):
            child = shoe[:]
            child[r] -= 1
            double += 2 * Fraction(shoe[r], n) * _stand_u(_total(ranks + [r]), child, up)
        assert abs(_f(got["double"]) - float(double / nb)) < 1e-12
    else:
        assert "double" not in got and "split" not in got


def test_hit_on_a_stiff_hand_is_the_independent_recursions_value():
    cards, dealer = ["TS", "6H"], "TC"
    shoe, up = _left(cards, dealer), 9
    got = bj.ev(cards, dealer=dealer)["options"]
    assert abs(_f(got["hit"]) - float(_hit_u([9, 5], shoe, up) / _nb(shoe, up))) < 1e-12
    # 16 v T: hit (−0.535 > −0.541)
    assert _f(got["hit"]) > _f(got["stand"]) and bj.ev(cards, dealer=dealer)["best"] == "hit"


def test_a_depleted_shoe_is_the_recursion_over_that_shoe():
    removed = ["2S", "3D", "4H", "5C", "6S", "5S", "4D", "3H", "2C"] * 2
    cards, dealer = ["TS", "6H"], "TC"
    shoe = _left(cards + removed, dealer)
    full = bj.ev(cards, dealer=dealer)["options"]
    got = bj.ev(cards, dealer=dealer, removed=removed)["options"]
    assert abs(_f(got["stand"]) - float(_stand_u(16, shoe, 9) / _nb(shoe, 9))) < 1e-12
    assert got["stand"] != full["stand"]


def test_insurance_and_even_money():
    # insurance pays 2:1 on the dealer's blackjack: 3 · P(ten in the hole) − 1 per unit of insurance
    doc = bj.ev(["9S", "7H"], dealer="AD")
    assert abs(_f(doc["options"]["insurance"]) - (3 * 96 / 309 - 1)) < 1e-14
    assert doc["best"] != "insurance"
    bjdoc = bj.ev(["AS", "KH"], dealer="AD")
    assert set(bjdoc["options"]) == {"stand", "even_money"}
    assert _f(bjdoc["options"]["even_money"]) == 1
    assert abs(_f(bjdoc["options"]["stand"]) - 1.5 * (1 - 95 / 309)) < 1e-14
    assert bjdoc["best"] == "stand"  # at 3:2, declining even money is worth more
    six_five = bj.ev(["AS", "KH"], dealer="AD", rules={"blackjack_pays": "6:5"})
    assert six_five["best"] == "even_money"


def test_split_and_the_rules_that_shape_it():
    eights = {k: _f(v) for k, v in bj.ev(["8S", "8H"], dealer="TC")["options"].items()}
    assert eights["split"] > eights["hit"] > eights["stand"]
    assert "split" not in bj.ev(["8S", "8H"], dealer="TC", rules={"max_hands": 1})["options"]
    # resplits are worth something; doubling after a split too (8,8 v 6)
    four = _f(bj.ev(["8S", "8H"], dealer="6C")["options"]["split"])
    two = _f(bj.ev(["8S", "8H"], dealer="6C", rules={"max_hands": 2})["options"]["split"])
    no_das = _f(bj.ev(["8S", "8H"], dealer="6C", rules={"double_after_split": False})["options"]["split"])
    assert four > two and four > no_das
    aces = _f(bj.ev(["AS", "AH"], dealer="6C")["options"]["split"])
    hit_aces = _f(bj.ev(["AS", "AH"], dealer="6C", rules={"hit_split_aces": True})["options"]["split"])
    assert hit_aces > aces > 0.4
    assert "double" not in bj.ev(["8S", "8H"], dealer="6C", rules={"double": "9-11"})["options"]
    assert "double" in bj.ev(["6S", "5H"], dealer="6C", rules={"double": "9-11"})["options"]
    assert _f(bj.ev(["TS", "6H"], dealer="TC", rules={"surrender": True})["options"]["surrender"]) == -0.5


# --- the chart -------------------------------------------------------------------------------------

UP = "23456789TA"
# The widely published 4–8 deck, dealer stands on soft 17, double after split, no surrender basic
# strategy (e.g. wizardofodds.com "4-deck to 8-deck blackjack strategy", Griffin, Schlesinger's
# Blackjack Attack): H hit, S stand, D double (else hit), Ds double (else stand), P split.
PUBLISHED = {
    ("hard", 5): "HHHHHHHHHH",
    ("hard", 6): "HHHHHHHHHH",
    ("hard", 7): "HHHHHHHHHH",
    ("hard", 8): "HHHHHHHHHH",
    ("hard", 9): "HDDDDHHHHH",
    ("hard", 10): "DDDDDDDDHH",
    ("hard", 11): "DDDDDDDDDH",
    ("hard", 12): "HHSSSHHHHH",
    ("hard", 13): "SSSSSHHHHH",
    ("hard", 14): "SSSSSHHHHH",
    ("hard", 15): "SSSSSHHHHH",
    ("hard", 16): "SSSSSHHHHH",
    ("hard", 17): "SSSSSSSSSS",
    ("soft", 13): "HHHDDHHHHH",
    ("soft", 14): "HHHDDHHHHH",
    ("soft", 15): "HHDDDHHHHH",
    ("soft", 16): "HHDDDHHHHH",
    ("soft", 17): "HDDDDHHHHH",
    ("soft", 18): "SDDDDSSHHH",
    ("soft", 19): "SSSSSSSSSS",
    ("soft", 20): "SSSSSSSSSS",
    ("pair", "2"): "PPPPPPHHHH",
    ("pair", "3"): "PPPPPPHHHH",
    ("pair", "4"): "HHHPPHHHHH",
    ("pair", "5"): "DDDDDDDDHH",
    ("pair", "6"): "PPPPPHHHHH",
    ("pair", "7"): "PPPPPPHHHH",
    ("pair", "8"): "PPPPPPPPPP",
    ("pair", "9"): "PPPPPSPPSS",
    ("pair", "T"): "SSSSSSSSSS",
    ("pair", "A"): "PPPPPPPPPP",
}
# Cells where the computed chart departs from the published one, with the reason (razor-thin
# margins): none for either preset — every cell agrees.
RAZOR_THIN: dict = {}


def _computed(preset: str) -> dict:
    doc = bj.strategy(preset=preset)
    out = {}
    for kind, key in (("hard", "hard"), ("soft", "soft"), ("pair", "pairs")):
        for row in doc[key]:
            name = row["hand"].split(",")[0] if kind == "pair" else row["total"]
            letters = ""
            for cell in row["cells"]:
                letters += {"stand": "S", "hit": "H", "double": "D", "split": "P"}[cell["action"]]
            out[(kind, name)] = letters
    return out, doc


@pytest.mark.parametrize("preset", ["salon", "online"])
def test_the_chart_is_the_published_basic_strategy(preset):
    computed, doc = _computed(preset)
    differ = {}
    for (kind, row), letters in PUBLISHED.items():
        got = computed[(kind, row)]
        for i, want in enumerate(letters):
            if got[i] != want:
                differ[(kind, row, UP[i])] = (want, got[i])
    assert differ == RAZOR_THIN
    assert doc["up_cards"] == list(UP)
    # A soft 18 doubles against 3–6 and stands when it may not: "Ds".
    soft18 = next(r for r in doc["soft"] if r["total"] == 18)
    assert [c["code"] for c in soft18["cells"]][1:5] == ["Ds"] * 4


def test_every_cell_has_its_margin_over_the_next_best():
    doc = bj.strategy()
    for key in ("hard", "soft", "pairs"):
        for row in doc[key]:
            for cell in row["cells"]:
                values = {k: _f(v) for k, v in cell["options"].items()}
                best = values[cell["action"]]
                assert best == max(values.values())
                rest = sorted(values.values())[-2]
                assert abs(_f(cell["margin"]) - (best - rest)) < 1e-12
    sixteen_ten = next(r for r in doc["hard"] if r["total"] == 16)["cells"][8]
    assert sixteen_ten["action"] == "hit" and _f(sixteen_ten["margin"]) < 0.01  # the famous close call


# --- the house edge --------------------------------------------------------------------------------


def test_the_salon_edge_is_the_published_six_deck_figure():
    # 6 decks, S17, DAS, no surrender, no resplit of aces: 0.42 % (thecolorofblackjack.com/solution_one.html,
    # after Wizard of Odds' rule-effect table: single-deck baseline 0.02 % + six decks 0.53 % − DAS 0.13 %)
    optimal = bj.edge(preset="salon")
    basic = bj.edge(preset="salon", strategy="basic")
    assert 0.0039 < _f(optimal["house_edge"]) < 0.0045
    assert _f(optimal["house_edge"]) <= _f(basic["house_edge"]) < _f(optimal["house_edge"]) + 0.0005
    assert 1.10 < _f(basic["wagered"]) < 1.16 and 1.10 < _f(basic["sd"]) < 1.18
    assert abs(_f(basic["edge_per_wagered"]) - _f(basic["house_edge"]) / _f(basic["wagered"])) < 1e-12
    assert _f(basic["expected_return"]) == -_f(basic["house_edge"])


def test_the_online_edge_is_the_published_eight_deck_figure():
    # 8 decks, S17, DAS, no resplit: 0.02 + 0.55 − 0.13 + 0.03 ≈ 0.47 % (same source); no resplit costs a little
    doc = bj.edge(preset="online", strategy="basic")
    assert 0.0042 < _f(doc["house_edge"]) < 0.0050
    assert _f(doc["house_edge"]) > _f(bj.edge(preset="salon", strategy="basic")["house_edge"])


# --- Monte Carlo: the real simulator deals, the computed chart plays, the real engine settles ----------


def _chart_player(preset: str):
    chart = bj.chart(bj.read_rules(preset, None))

    def play(cards, up, *, can_double, can_split):
        hand = [0] * 10
        for c in cards:
            hand[RANK[c[0]]] += 1
        hand = tuple(hand)
        u = RANK[up[0]]
        if (
            can_split
            and len(cards) == 2
            and RANK[cards[0][0]] == RANK[cards[1][0]]
            and chart.resplits(RANK[cards[0][0]], u)
        ):
            return "split"
        if len(cards) == 2:
            opts = {"stand": 1, "hit": 1, **({"double": 1} if can_double else {})}
            return chart.first(hand, u, opts, split=True)
        best, soft = bj.total(hand)
        return "hit" if best < 21 and chart.hits(best, soft, u) else "stand"

    return play


def play_rounds(n: int, seed: int, preset: str, monkeypatch) -> list[float]:
    monkeypatch.setattr(sim_round, "basic_strategy", _chart_player(preset))
    rng = random.Random(seed)
    nets = []
    for k in range(n):
        sim = simulator.simulate_round(
            rng, number=k, preset=preset, boxes=(1, 1), insurance=0.0, even_money=0.0, errors=0.0, jackpot=0.0
        )
        settled = engine.settle(sim.doc)
        assert settled["findings"] == [], (sim.doc, settled)
        bet = Decimal(sim.doc["stakes"][0]["bet"])
        nets.append(-float(Decimal(settled["float"]) / bet))
    return nets


def _mean_se(nets):
    n = len(nets)
    mean = sum(nets) / n
    var = sum((x - mean) ** 2 for x in nets) / (n - 1)
    return mean, math.sqrt(var / n), math.sqrt(var)


def _check(n, seed, preset, monkeypatch):
    mean, se, sd = _mean_se(play_rounds(n, seed, preset, monkeypatch))
    exact = bj.edge(preset=preset, strategy="basic")
    expected = _f(exact["expected_return"])
    assert abs(sd - _f(exact["sd"])) < 0.05 * _f(exact["sd"]), (sd, exact["sd"])
    return mean, expected, se


@pytest.mark.parametrize("preset,rounds", [("salon", 50_000), ("online", 10_000)])
def test_monte_carlo_rounds_settled_by_the_engine_land_within_4_se(preset, rounds, monkeypatch):
    mean, expected, se = _check(rounds, 19, preset, monkeypatch)
    assert abs(mean - expected) < 4 * se, (mean, expected, se)


@pytest.mark.slow
@pytest.mark.timeout(7200)
@pytest.mark.skipif(not os.environ.get("BLACKJACK_MC_1M"), reason="the 1,000,000-round check: set BLACKJACK_MC_1M=1")
def test_monte_carlo_of_a_million_rounds(monkeypatch):
    start = time.perf_counter()
    mean, expected, se = _check(1_000_000, 2026, "salon", monkeypatch)
    print(
        f"1,000,000 rounds: mean {mean:.6f}, exact {expected:.6f}, se {se:.6f}, "
        f"{(mean - expected) / se:+.2f} se, {time.perf_counter() - start:.0f} s"
    )
    assert abs(mean - expected) < 4 * se, (mean, expected, se)


# --- bad questions and the command line ------------------------------------------------------------


@pytest.mark.parametrize(
    "argv,field",
    [
        (["ev", "blackjack", "--cards", "XS", "6H", "--dealer", "TC"], "cards"),
        (["ev", "blackjack", "--cards", "TS", "6H", "--dealer", "1C"], "dealer"),
        (["ev", "blackjack", "--cards", "TS", "6H", "TD", "--dealer", "TC"], "cards"),  # 26: bust
        (["ev", "blackjack", "--cards", "AS", "KH", "--dealer", "9C"], "cards"),  # a blackjack is settled
        (["ev", "blackjack", "--cards", "TS", "--dealer", "9C"], "cards"),
        (["ev", "blackjack", "--cards", "TS", "6H"], "dealer"),
        (["ev", "blackjack", "--cards", "TS", "TS", "--dealer", "TS", "--removed", "TS", "TS", "TS", "TS"], "removed"),
        (["ev", "blackjack", "--cards", "TS", "6H", "--dealer", "TC", "--rule", "surrender=maybe"], "rules"),
        (["ev", "blackjack", "--cards", "TS", "6H", "--dealer", "TC", "--rule", "tip=1"], "rules"),
        (["ev", "blackjack", "--cards", "TS", "6H", "--dealer", "TC", "--rule", "decks=9"], "rules"),
        (["edge", "blackjack", "--preset", "casino"], "preset"),
        (["edge", "blackjack", "--strategy", "lucky"], "strategy"),
    ],
)
def test_a_question_that_cannot_be_asked_exits_2_with_one_line(argv, field, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and len(err) > 10
    with pytest.raises((bj.QuestionError, cli.Refused)) as info:
        cli.run(argv)
    if isinstance(info.value, bj.QuestionError):
        assert info.value.field == field


def test_the_cli_prints_the_documents(capsys):
    assert cli.main(["ev", "blackjack", "--preset", "salon", "--cards", "TS", "6H", "--dealer", "TC"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "ev/1" and set(doc["options"]) == {"stand", "hit", "double"} and doc["best"] == "hit"
    assert all(len(v.lstrip("-0.")) >= 12 for v in doc["options"].values())
    assert cli.main(["edge", "blackjack", "--preset", "online", "--strategy", "basic"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "edge/1" and doc["strategy"] == "basic" and doc["rules"]["decks"] == 8
    assert cli.main(["strategy", "blackjack", "--preset", "salon"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [len(doc[k]) for k in ("hard", "soft", "pairs")] == [17, 9, 10]


def test_the_engine_command_runs_without_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    code = (
        "import sys, runpy; sys.argv = ['x', 'ev', 'blackjack', '--cards', 'TS', '6H', '--dealer', 'TC'];"
        "from dealing.engine.math import cli; rc = cli.main(sys.argv[1:]);"
        "assert 'django' not in sys.modules; sys.exit(rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"]["hit"].startswith("-0.534")


def test_a_warm_question_answers_in_under_50_ms():
    bj.ev(["TS", "6H"], dealer="TC")
    start = time.perf_counter()
    for up in "23456789TA":
        bj.ev(["9S", "7H"], dealer=up + "D")
    bj.edge()  # the whole deal off the top, once
    times = []
    for up in "23456789TA":
        t = time.perf_counter()
        bj.ev(["TS", "2H"], dealer=up + "D")
        times.append(time.perf_counter() - t)
    assert max(times) < 0.05, times
    assert time.perf_counter() - start < 120
