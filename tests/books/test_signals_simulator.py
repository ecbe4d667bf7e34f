"""Integrity signals on floors dealt by the real ochko simulator and replayed by the rules engine,
as dealing's service stores their stakes (owed against paid): no database, many floors.

Honest floors — the simulator's mistakes, every kind, at 20 % of rounds (most of them in the player's
favour, as the simulator makes them), dealers rotating over tables — raise a signal in at most
`alpha` of their scans; a sweetheart dealer planted in one is named with his player and box.
"""

import random
from decimal import Decimal

import pytest

from books.integrity import detection as s
from dealing import chain, engine
from dealing.engine.ochko import simulator as ochko
from dealing.services.rounds import stake_rows
from tests.books.test_signals import binomial_upper
from tests.books.test_signals_floor import FRIEND, befriend

ALPHA = 0.05
LIMITS = s.Thresholds(alpha=ALPHA, min_count=10, min_stakes=20, min_rounds=50, min_player_stakes=150)
MISTAKES = tuple(ochko.MISTAKES)  # every kind the simulator makes
FLOORS = 40
ROUNDS = 1500


def simulated_floor(rng, *, rounds=ROUNDS, dealers=5, tables=3, mistakes=0.20, sweetheart=None, incident_rate=0.006):
    """One period: each round dealt at a random table by a random dealer. `sweetheart`: the dealer
    who seats FRIEND on box 2 and overpays him."""
    stakes, incidents, by_dealer, by_table = [], [], {}, {}
    round_id = 0
    while round_id < rounds:
        kind = rng.choice(MISTAKES) if rng.random() < mistakes else None
        sim = ochko.simulate_round(rng, mistake=kind, table_min=Decimal(100), table_max=Decimal(10000))
        if sim is None:
            continue
        dealer, table = rng.randrange(dealers), rng.randrange(tables)
        doc = sim.doc
        if dealer == sweetheart:
            befriend(doc)
        outcome = engine.replay(doc)
        if engine.impossible(outcome.findings):  # a log the service would refuse
            continue
        round_id += 1
        by_dealer[dealer] = by_dealer.get(dealer, 0) + 1
        by_table[table] = by_table.get(table, 0) + 1
        for row in stake_rows(chain.json_safe(doc), outcome):
            wagered = (row.ante or Decimal("0")) + (row.bet or Decimal("0"))
            stakes.append(
                s.StakeRow(round_id, dealer, table, row.box, row.player, "ochko", wagered, row.owed_net, row.paid_net)
            )
        if rng.random() < incident_rate:
            incidents.append(s.EventRow(dealer, table, round_id))
    return dict(stakes=stakes, incidents=incidents, procedure=[], rounds_by_dealer=by_dealer, rounds_by_table=by_table)


@pytest.fixture(scope="module")
def honest():
    rng = random.Random(21)
    return [s.scan(thresholds=LIMITS, **simulated_floor(rng)) for _ in range(FLOORS)]


def test_honest_simulated_floors_raise_signals_in_at_most_alpha_of_their_scans(honest):
    tested = {c.kind for r in honest for c in r.candidates}
    assert {s.FAVOURED_PLAYER, s.FAVOURED_BOX, s.LEAN, s.PLAYER_RESULTS, s.INCIDENTS_DEALER} <= tested
    errors = sum(c.evidence["errors"] for r in honest for c in r.candidates if c.kind == s.LEAN)
    assert errors > FLOORS * 50  # the floors do make mistakes
    alarmed = [sorted({c.kind for c in r.flagged}) for r in honest if r.flagged]
    assert len(alarmed) <= binomial_upper(FLOORS, ALPHA), alarmed


def test_a_sweetheart_dealer_on_a_simulated_floor_is_named_with_his_player_and_box():
    found = s.scan(thresholds=LIMITS, **simulated_floor(random.Random(5), sweetheart=3)).flagged
    assert [(c.dealer, c.player) for c in found if c.kind == s.FAVOURED_PLAYER] == [(3, FRIEND)]
    assert {(c.dealer, c.box) for c in found if c.kind == s.FAVOURED_BOX} <= {(3, 2)}
    assert not [c for c in found if c.dealer not in (None, 3)]
