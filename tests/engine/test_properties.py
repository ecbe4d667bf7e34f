"""Property tests over simulated rounds: the engine against the simulator's own arithmetic.

Parametrised over every registered game that names a simulator (games.py): a game whose rules
module or simulator is missing fails here, it is never skipped.
"""

import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import games
from dealing.engine.base import PAY, TAKE
from dealing.engine.simulators import mistakes, simulate

VARIANTS = [name for name in engine.VARIANTS if games.get(name).simulator is not None]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_game_of_the_engine_is_simulated_and_its_modules_import():
    assert VARIANTS == ["ochko", "blackjack", "veintiuno"]
    for name in VARIANTS:
        assert engine.variant(name).Replay and games.simulator(name).MISTAKES


def one(variant, seed, **kw):
    return next(simulate(variant, 1, seed=seed, **kw))


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS)
def test_a_correct_simulated_log_yields_no_findings(variant, seed):
    sim = one(variant, seed)
    outcome = engine.replay(sim.doc)
    assert [f.to_dict() for f in outcome.findings] == []
    assert outcome.wagers is not None


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS)
def test_every_wager_is_settled_exactly_once_and_as_the_dealer_settled_it(variant, seed):
    sim = one(variant, seed)
    outcome = engine.replay(sim.doc)
    keys = [(w.stake, w.hand, w.wager) for w in outcome.wagers]
    assert len(keys) == len(set(keys)), "a wager owed twice"
    logged = [(s.stake, s.hand, s.wager) for s in outcome.settled]
    assert sorted(logged, key=str) == sorted(keys, key=str), "owed wagers and the dealer's settlements differ"
    for w in outcome.wagers:
        assert w.result in ("pay", "take", "leave")
        assert isinstance(w.amount, Decimal) and w.amount > 0


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY
@given(seed=SEEDS)
def test_float_is_takes_minus_pays(variant, seed):
    sim = one(variant, seed)
    settlement = engine.settle(json.dumps(sim.doc, default=str))
    takes = sum(Decimal(w["amount"]) for w in settlement["wagers"] if w["result"] == TAKE)
    pays = sum(Decimal(w["amount"]) for w in settlement["wagers"] if w["result"] == PAY)
    assert Decimal(settlement["float"]) == takes - pays
    # And the dealer's own chips moved the same way.
    moved = Decimal(0)
    for ev in sim.doc["events"]:
        if ev["e"] == "pay":
            moved -= Decimal(str(ev["amount"]))
        elif ev["e"] == "take":
            moved += Decimal(str(ev["amount"]))
    assert moved == Decimal(settlement["float"])


MISTAKE_CASES = [(v, kind) for v in VARIANTS for kind in mistakes(v)]


@pytest.mark.parametrize("variant, kind", MISTAKE_CASES, ids=[f"{v}-{k}" for v, k in MISTAKE_CASES])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_an_injected_mistake_yields_its_finding_and_player_delta(variant, kind, seed):
    sim = one(variant, seed, mistake_rate=1.0, kinds=[kind])
    outcome = engine.replay(sim.doc)
    found = {f.code for f in outcome.findings}
    if sim.mistake is None:  # no place for that mistake in this deal: then the log is correct
        assert found == set()
        return
    assert found == {sim.code}, [f.message for f in outcome.findings]
    if sim.player_delta is not None:
        assert sum(f.player_delta for f in outcome.findings) == sim.player_delta


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_deals_the_same_rounds(variant):
    a = [json.dumps(s.doc, default=str) for s in simulate(variant, 20, seed=42, mistake_rate=0.3)]
    b = [json.dumps(s.doc, default=str) for s in simulate(variant, 20, seed=42, mistake_rate=0.3)]
    c = [json.dumps(s.doc, default=str) for s in simulate(variant, 20, seed=43, mistake_rate=0.3)]
    assert a == b
    assert a != c
