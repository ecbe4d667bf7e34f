"""Veintiuno (rules/veintiuno.md) over whole rounds and nights: the pack across a game night,
properties of the engine against the simulator's own arithmetic, and fuzzing."""

import copy
import json
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import RoundError
from dealing.engine import veintiuno as v21
from dealing.engine.shoe import Shoe, ShoeItem
from dealing.engine.veintiuno import simulator as sim

# --- the pack across a game night --------------------------------------------------------------


def _shoe(*rounds, packs=1):
    items = []
    for k, r in enumerate(rounds):
        if r == "shuffle":
            items.append(ShoeItem(k, "shuffle"))
        else:
            items.append(ShoeItem(k, "round", round_id=f"r{k}", cards=list(r)))
    return Shoe("veintiuno", Decimal(5), Decimal(100), {"packs": packs, "suited_twelve_pays": 2}, items)


FULL = sorted(v21.PACK)


def test_the_pack_check_a_card_again_before_the_pack_ran_out():
    findings = v21.shoe_findings(_shoe(FULL[:10], FULL[10:20], FULL[5:6]))
    assert [(f.code, f.event) for f in findings] == [("CARD_COUNT", 2)]


def test_the_pack_check_after_forty_cards_the_pack_is_gathered_again():
    assert v21.shoe_findings(_shoe(FULL[:20], FULL[20:], FULL[:12])) == []


def test_the_pack_check_cards_on_the_table_stay_out_of_the_gathered_pack():
    # 36 cards, then a round that deals the last 4 and runs on into the new pack: its own first cards
    # are still on the table, so one of them dealt again is a finding; a card of an earlier round is not.
    last4 = FULL[36:]
    assert v21.shoe_findings(_shoe(FULL[:36], last4 + FULL[:3])) == []
    findings = v21.shoe_findings(_shoe(FULL[:36], last4 + [FULL[0], last4[1]]))
    assert [(f.code, f.event) for f in findings] == [("CARD_COUNT", 1)]
    # The new pack held only 36 cards (the round's 4 stayed out): it runs out after 36 more.
    gathered = [c for c in FULL if c not in last4]
    assert v21.shoe_findings(_shoe(FULL[:36], last4 + gathered[:10], gathered[10:], last4 + gathered[:2])) == []


def test_the_pack_check_a_shuffle_starts_again_and_packs_hold_more():
    assert v21.shoe_findings(_shoe(FULL[:10], "shuffle", FULL[:10])) == []
    assert v21.shoe_findings(_shoe(FULL[:10], FULL[:10], packs=2)) == []
    assert [f.code for f in v21.shoe_findings(_shoe(FULL[:10], FULL[:10], FULL[:1], packs=2))] == ["CARD_COUNT"]


def test_a_simulated_game_night_is_a_correct_shoe_and_a_round_dealt_twice_is_not():
    session = sim.simulate_session(random.Random(7), rounds=20)
    assert engine.check_shoe(json.loads(json.dumps(session.shoe, default=str))) == []
    shoe = copy.deepcopy(session.shoe)
    shoe["items"].insert(2, copy.deepcopy(shoe["items"][1]))
    findings = engine.check_shoe(json.loads(json.dumps(shoe, default=str)))
    assert findings and {f.code for f in findings} == {"CARD_COUNT"} and findings[0].event == 2


# --- properties over simulated rounds and sessions ----------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(
    seed=SEEDS,
    rules=st.sampled_from([None, {"suited_twelve_pays": 3}, {"packs": 2}]),
    specials=st.sampled_from([0.0, 0.35, 1.0]),
)
def test_a_correct_round_settles_as_the_simulator_did(seed, rules, specials):
    s = sim.simulate_round(random.Random(seed), rules=rules, specials=specials)
    outcome = engine.replay(s.doc)
    assert [f.message for f in outcome.findings] == []
    logged = {
        (e["stake"], e["hand"]): (e["e"], Decimal(e["amount"]))
        for e in s.doc["events"]
        if e["e"] in ("pay", "take", "leave")
    }
    assert {(w.stake, w.hand): (w.result, w.amount) for w in outcome.wagers} == logged
    assert outcome.float == sum(a if r == "take" else -a if r == "pay" else 0 for r, a in logged.values())
    passed = [e["player"] for e in s.doc["events"] if e["e"] == "bank_to"]
    assert passed == [outcome.extra["bank_next"]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rounds=st.integers(1, 40))
def test_a_sessions_balances_sum_to_zero_and_the_bank_passes_by_the_rules(seed, rounds):
    session = sim.simulate_session(random.Random(seed), rounds=rounds)
    balances = {p: Decimal(0) for p in session.players}
    bank = session.first_bank
    for doc, holder in zip(session.rounds, session.banks):
        assert doc["bank"] == holder == bank
        s = engine.settle(json.dumps(doc, default=str))
        assert s["findings"] == []
        players = {st_["id"]: st_["player"] for st_ in doc["stakes"]}
        gains = Decimal(0)
        for w in s["wagers"]:
            delta = (
                Decimal(w["amount"])
                if w["result"] == "pay"
                else -Decimal(w["amount"])
                if w["result"] == "take"
                else Decimal(0)
            )
            balances[players[w["stake"]]] += delta
            gains += delta
        assert gains == -Decimal(s["float"])  # what the players won, the bank lost
        balances[holder] += Decimal(s["float"])
        bank = s["bank_next"]
    assert sum(balances.values()) == 0
    assert balances == session.balances
    first = session.draw[-1]
    assert max(first, key=lambda p: sim.HIGH_CARD[first[p][0]]) == session.first_bank


@pytest.mark.parametrize("seed", [253, 318, 323, 337])
def test_eight_players_on_one_pack_play_the_night_through(seed):
    # These seeds once put all 40 cards on the table in one round; the round is dealt again.
    session = sim.simulate_session(random.Random(seed), players=[f"P{k}" for k in range(8)], rounds=40)
    assert len(session.rounds) == 40
    assert sum(session.balances.values()) == 0
    for doc in session.rounds:
        cards = [e["card"] for e in doc["events"] if "card" in e]
        assert len(cards) == len(set(cards)) <= 40
        assert engine.settle(json.dumps(doc, default=str))["findings"] == []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, kind=st.sampled_from(sorted(sim.MISTAKES)))
def test_a_session_with_mistakes_still_balances(seed, kind):
    session = sim.simulate_session(random.Random(seed), rounds=10, mistake_rate=0.5, kinds=[kind])
    assert sum(session.balances.values()) == 0
    for s in session.simulated:
        found = {f.code for f in engine.replay(json.loads(json.dumps(s.doc, default=str))).findings}
        assert found == ({s.code} if s.mistake else set())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, kind=st.sampled_from(sorted(sim.MISTAKES)))
def test_each_injected_mistake_yields_exactly_its_code_and_player_delta(seed, kind):
    s = sim.simulate_round(random.Random(seed), mistake=kind)
    findings = engine.replay(json.loads(json.dumps(s.doc, default=str))).findings
    if s.mistake is None:
        assert findings == []
        return
    assert {f.code for f in findings} == {sim.MISTAKES[kind]}, [f.message for f in findings]
    if s.player_delta is not None:
        assert sum(f.player_delta for f in findings) == s.player_delta


def test_every_mistake_finds_a_place_to_happen():
    for kind in sim.MISTAKES:
        made = sum(sim.simulate_round(random.Random(seed), mistake=kind).mistake == kind for seed in range(20))
        assert made >= 15, kind


# --- fuzz: whatever comes in, only RoundError comes out ------------------------------------------

_cards = st.sampled_from(["AS", "KD", "7H", "2C", "9H", "10D", "x", "QS", "5C"])
_hands = st.sampled_from(["1", "2", "1.1", "1.2", "2.1", "3", "1.1.1", ""])
_event = st.one_of(
    st.builds(lambda t, c: {"e": "deal", "to": t, "card": c}, st.sampled_from([1, 2, 3, "bank"]), _cards),
    st.builds(
        lambda s, a: {"e": "bet", "stake": s, "amount": a},
        st.sampled_from(["S1", "S2"]),
        st.sampled_from([5, 10, "7.50", 200]),
    ),
    st.builds(lambda e, h: {"e": e, "hand": h}, st.sampled_from(["declare", "withdraw", "void", "stand"]), _hands),
    st.builds(lambda e, h, c: {"e": e, "hand": h, "card": c}, st.sampled_from(["hit", "tapo"]), _hands, _cards),
    st.builds(lambda h, a: {"e": "split", "hand": h, "amount": a}, _hands, st.sampled_from([10, 20, 5])),
    st.builds(lambda c: {"e": "draw", "card": c}, _cards),
    st.just({"e": "puje"}),
    st.builds(
        lambda e, s, h, a: {"e": e, "stake": s, "hand": h, "wager": "bet", "amount": a},
        st.sampled_from(["pay", "take", "leave"]),
        st.sampled_from(["S1", "S2"]),
        _hands,
        st.sampled_from([10, 20, "5.5"]),
    ),
    st.builds(lambda p: {"e": "bank_to", "player": p}, st.sampled_from(["Ana", "Beto", "Zoe"])),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.lists(_event, max_size=30))
def test_random_event_sequences_never_raise_anything_but_round_error(events):
    doc = {
        "format": "round/1",
        "variant": "veintiuno",
        "table": {"min": 5, "max": 100},
        "bank": "Ana",
        "stakes": [{"id": "S1", "seat": 1, "player": "Beto"}, {"id": "S2", "seat": 2, "player": "Caro"}],
        "events": events,
    }
    for call in (engine.settle, engine.next_events):
        try:
            out = call(doc)
        except RoundError as error:
            assert error.code and error.message
            continue
        json.dumps(out)
