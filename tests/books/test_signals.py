"""The integrity signals' tests on simulated floors (books/integrity/detection.py, pure: no database).

An honest floor — dealers rotating over tables, players on boxes, payment errors at a usual rate
that go either way and to whoever happens to be on the box, incidents and procedure findings at
random, and overpayments more often than underpayments, as the simulator's mistake kinds make
them — must raise a signal in at most `alpha` of its scans (Holm's correction makes the level
the scan's, not each test's). Each planted pattern must raise its own signal naming its subject.
"""

import math
import random
from decimal import Decimal

import pytest

from books.integrity import detection as s
from books.integrity.advantage_floor import blackjack_table, ochko_table

ALPHA = 0.05
# Small minimums, so that many tests run on each floor: the level must hold however many there are.
LIMITS = s.Thresholds(alpha=ALPHA, min_count=10, min_stakes=20, min_rounds=50, min_player_stakes=150)
# A player's result per unit wagered in a round of the simulated game: lose, push, win, win 3:2.
OUTCOMES = (Decimal("-1"), Decimal("0"), Decimal("1"), Decimal("1.5"))
WEIGHTS = (0.49, 0.08, 0.39, 0.04)


def floor(
    rng,
    *,
    rounds=2000,
    dealers=6,
    tables=3,
    players=24,
    boxes=5,
    error_rate=0.03,
    incident_rate=0.006,
    procedure_rate=0.004,
    plant=None,
):
    """One period of a floor as the scan reads it. `plant` changes one thing:
    ("sweetheart", dealer, table, box, player), ("lean", dealer), ("lucky", player),
    ("incidents_dealer", dealer), ("incidents_table", table), ("procedure", dealer)."""
    plant = plant or ("none",)
    stakes, incidents, procedure = [], [], []
    by_dealer, by_table = {}, {}
    names = [f"P-{k}" for k in range(players)] + (["FRIEND"] if plant[0] == "sweetheart" else [])
    for round_id in range(1, rounds + 1):
        dealer, table = rng.randrange(dealers), rng.randrange(tables)
        by_dealer[dealer] = by_dealer.get(dealer, 0) + 1
        by_table[table] = by_table.get(table, 0) + 1
        for box in range(1, boxes + 1):
            if rng.random() < 0.4:
                continue
            player = rng.choice(names[:players])
            if plant[0] == "sweetheart" and (table, box) == (plant[2], plant[3]) and rng.random() < 0.5:
                player = plant[4]  # the friend sits at his box whenever he is in
            wagered = Decimal(rng.choice((100, 200, 500)))
            per_unit = rng.choices(OUTCOMES, WEIGHTS)[0]
            if plant[0] == "lucky" and player == plant[1]:
                per_unit = rng.choices(OUTCOMES, (0.39, 0.08, 0.49, 0.04))[0]
            owed = wagered * per_unit
            paid = owed
            if rng.random() < error_rate:
                # As the simulator's mistakes do, honest errors favour the player more often than not.
                up = rng.random() < (0.95 if plant[0] == "lean" and dealer == plant[1] else 0.65)
                paid = owed + (wagered if up else -wagered) / 2
            if plant[0] == "sweetheart" and dealer == plant[1] and player == plant[4] and rng.random() < 0.3:
                paid = owed + wagered / 2
            stakes.append(s.StakeRow(round_id, dealer, table, box, player, "ochko", wagered, owed, paid))
        rate = incident_rate
        if plant[0] == "incidents_dealer" and dealer == plant[1] or plant[0] == "incidents_table" and table == plant[1]:
            rate *= 6
        if rng.random() < rate:
            incidents.append(s.EventRow(dealer, table, round_id))
        rate = procedure_rate * (8 if plant[0] == "procedure" and dealer == plant[1] else 1)
        if rng.random() < rate:
            procedure.append(s.EventRow(dealer, table, None))
    # The counted shoes of the period: a blackjack and an Ochko table of honest players (flat,
    # random and drifting bettors), so that the advantage-play test runs in the same scan as the rest
    # and is corrected with them; its planted players are in tests/books/test_signals_advantage.py.
    shoes = max(1, rounds // 170)
    counted = blackjack_table(rng, 1001, ["flat", "random", "drifting"], shoes)
    counted += ochko_table(rng, 1002, ["random", "drifting"], shoes)
    return dict(
        stakes=stakes,
        incidents=incidents,
        procedure=procedure,
        rounds_by_dealer=by_dealer,
        rounds_by_table=by_table,
        counted=counted,
    )


def binomial_upper(n: int, p: float, tail: float = 1e-3) -> int:
    """The smallest k with P(Bin(n, p) > k) ≤ tail: more false alarms than this on an honest floor
    would happen less than once in a thousand runs of this test if the level held."""
    cumulative = 0.0
    for k in range(n + 1):
        cumulative += math.exp(
            math.lgamma(n + 1)
            - math.lgamma(k + 1)
            - math.lgamma(n - k + 1)
            + k * math.log(p)
            + (n - k) * math.log1p(-p)
        )
        if 1 - cumulative <= tail:
            return k
    return n


FLOORS = 120


@pytest.fixture(scope="module")
def honest_scans():
    rng = random.Random(20261203)
    return [(data, s.scan(thresholds=LIMITS, **data)) for data in (floor(rng) for _ in range(FLOORS))]


def test_an_honest_floor_raises_signals_in_at_most_alpha_of_its_scans(honest_scans):
    tests = sum(len(result.candidates) for _d, result in honest_scans)
    alarmed = sum(1 for _d, result in honest_scans if result.flagged)
    assert tests > FLOORS * 50  # every kind ran, on many subjects
    assert {c.kind for _d, r in honest_scans for c in r.candidates} == set(s.KINDS)
    assert alarmed <= binomial_upper(FLOORS, ALPHA), f"{alarmed} of {FLOORS} honest scans raised a signal"


def test_each_test_alone_holds_its_level_on_the_honest_floor(honest_scans):
    """Before the correction: each test's p-value is at most alpha in at most alpha of its runs."""
    for kind in s.KINDS:
        p_values = [c.p_value for _d, r in honest_scans for c in r.candidates if c.kind == kind]
        below = sum(1 for p in p_values if p <= ALPHA)
        assert below <= binomial_upper(len(p_values), ALPHA), f"{kind}: {below} of {len(p_values)} below {ALPHA}"


def test_without_the_correction_the_same_honest_floor_raises_far_more_alarms(honest_scans):
    raw = sum(1 for data, _r in honest_scans if s.scan(thresholds=LIMITS, correct=False, **data).flagged)
    corrected = sum(1 for _d, r in honest_scans if r.flagged)
    assert raw > 3 * FLOORS * ALPHA  # so the first test can fail: a scan of many tests needs its correction
    assert corrected < raw


def flagged(plant, seed=7, **options):
    return s.scan(thresholds=LIMITS, **floor(random.Random(seed), plant=plant, **options)).flagged


def test_a_sweetheart_dealer_is_named_with_his_player_and_box():
    found = flagged(("sweetheart", 2, 1, 3, "FRIEND"))
    players = [c for c in found if c.kind == s.FAVOURED_PLAYER]
    assert [(c.dealer, c.player) for c in players] == [(2, "FRIEND")]
    assert (2, 1, 3) in {(c.dealer, c.table, c.box) for c in found if c.kind == s.FAVOURED_BOX}
    [signal] = players
    assert signal.evidence["to_subject"] > 3 * signal.evidence["expected"]
    assert Decimal(signal.evidence["money_to_subject"]) > 0
    assert signal.round_ids and signal.p_adjusted <= ALPHA


def test_errors_leaning_to_overpayment_raise_the_lean_signal_for_that_dealer():
    found = flagged(("lean", 4), error_rate=0.12)
    assert [c.dealer for c in found if c.kind == s.LEAN] == [4]
    # Against a fixed half, every dealer of this floor would lean: its honest errors favour players.
    half = s.scan(
        thresholds=s.Thresholds(**{**LIMITS.__dict__, "lean_p0": 0.5}), **floor(random.Random(7), error_rate=0.12)
    ).flagged
    assert len({c.dealer for c in half if c.kind == s.LEAN}) > 1
    [lean] = [c for c in found if c.kind == s.LEAN]
    assert Decimal(lean.evidence["overpaid"]) > 2 * Decimal(lean.evidence["underpaid"])


def test_a_player_winning_beyond_chance_is_named():
    found = flagged(("lucky", "P-5"), rounds=3000)
    assert [c.player for c in found if c.kind == s.PLAYER_RESULTS] == ["P-5"]


def test_incidents_concentrated_on_one_dealer():
    found = flagged(("incidents_dealer", 1))
    assert [c.dealer for c in found if c.kind == s.INCIDENTS_DEALER] == [1]


def test_incidents_concentrated_on_one_table():
    found = flagged(("incidents_table", 2))
    assert [c.table for c in found if c.kind == s.INCIDENTS_TABLE] == [2]


def test_burns_and_reshuffles_out_of_procedure_concentrated_on_one_dealer():
    found = flagged(("procedure", 5))
    assert [c.dealer for c in found if c.kind == s.PROCEDURE] == [5]


def test_below_the_minimums_nothing_is_tested():
    data = floor(random.Random(1), rounds=40)
    strict = s.Thresholds(alpha=ALPHA, min_count=1000, min_stakes=1000, min_rounds=1000, min_player_stakes=1000)
    assert s.scan(thresholds=strict, **data).candidates == []


def test_the_binomial_tail_and_holm_against_known_values():
    assert s.binom_sf(0, 10, 0.3) == 1.0
    assert s.binom_sf(10, 10, 0.5) == pytest.approx(1 / 1024)
    assert s.binom_sf(8, 10, 0.5) == pytest.approx(56 / 1024)
    # A 2×2 table (3 of 5 drawn marked, 4 marked of 10): P(X ≥ 3) = (C(4,3)C(6,2) + C(4,4)C(6,1)) / C(10,5).
    assert s.hypergeom_sf(3, 10, 4, 5) == pytest.approx((4 * 15 + 6) / 252)
    assert s.hypergeom_sf(0, 10, 4, 5) == 1.0 and s.hypergeom_sf(5, 10, 4, 5) == 0.0
    assert s.norm_sf(1.959964) == pytest.approx(0.025, abs=1e-6)
    assert s.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
