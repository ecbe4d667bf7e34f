"""Running balances of a night, from the engine's settlements: they always sum to zero, and on a
night without mistakes they agree with the simulator's own arithmetic."""

import random
from decimal import Decimal

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine.veintiuno.simulator import simulate_session
from ledger.tally import gains_of, pack_findings, tally

ZERO = Decimal(0)


def night_of(rng, **options):
    """A simulated night; the few where the simulator's pack runs dry with every card on the table
    (seven hands al puje on one 40-card pack) are not nights the ledger could see."""
    try:
        return simulate_session(rng, **options)
    except RuntimeError:
        reject()


LIGHT = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@LIGHT
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 40),
    mistake_rate=st.sampled_from([0.0, 0.0, 0.2, 0.6]),
    players=st.integers(2, 8),
)
def test_balances_after_every_round_sum_to_zero(seed, rounds, mistake_rate, players):
    rng = random.Random(seed)
    names = rng.sample(["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi", "Hugo", "Inés", "Juan"], players)
    night = night_of(rng, players=names, rounds=rounds, mistake_rate=mistake_rate)
    t = tally(night.players, night.first_bank, night.rounds)
    assert len(t.lines) == rounds
    for line in t.lines:
        assert sum(line.gains.values(), ZERO) == 0
        assert line.total == 0
        assert set(line.balances) == set(names)
    assert sum(t.balances.values(), ZERO) == 0


@LIGHT
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 30))
def test_without_mistakes_the_ledger_agrees_with_the_simulator(seed, rounds):
    night = night_of(random.Random(seed), rounds=rounds)
    t = tally(night.players, night.first_bank, night.rounds)
    # The simulator counts the money its log moves, with its own arithmetic; the ledger counts what
    # the engine says was owed. On a correct night they are the same.
    assert t.balances == night.balances
    assert [line.bank for line in t.lines] == night.banks
    assert all(not line.findings for line in t.lines)
    assert pack_findings(night.rounds) == {}


@LIGHT
@given(seed=st.integers(0, 2**32 - 1))
def test_a_wrongly_passed_bank_shows_on_the_round_and_the_next(seed):
    night = night_of(random.Random(seed), rounds=12, mistake_rate=0.5, kinds=["bank_to_wrong_player"])
    t = tally(night.players, night.first_bank, night.rounds)
    for k, line in enumerate(t.lines):
        codes = [f.code for f in line.findings]
        if line.doc["bank"] != (t.lines[k - 1].bank_next if k else night.first_bank):
            assert "BANK_SUCCESSION" in codes  # the ledger's: dealt by the wrong player
    assert sum(t.balances.values(), ZERO) == 0


def test_gains_are_pay_minus_take_and_the_bank_gets_the_float():
    doc = {
        "format": "round/1",
        "variant": "veintiuno",
        "table": {"min": 5, "max": 100},
        "bank": "Ana",
        "stakes": [{"id": "B", "seat": 1, "player": "Beto"}, {"id": "C", "seat": 2, "player": "Caro"}],
        "events": [
            {"e": "deal", "to": 1, "card": "KH"},
            {"e": "deal", "to": 2, "card": "AS"},
            {"e": "deal", "to": "bank", "card": "AC"},
            {"e": "bet", "stake": "B", "amount": 10},
            {"e": "bet", "stake": "C", "amount": 15},
            {"e": "deal", "to": 1, "card": "KD"},
            {"e": "deal", "to": 2, "card": "KS"},
            {"e": "deal", "to": "bank", "card": "QC"},
            {"e": "declare", "hand": "2"},
            {"e": "stand", "hand": "1"},
        ],
    }
    gains = gains_of(doc, engine.replay(doc), ["Ana", "Beto", "Caro", "Dani"])
    assert gains == {"Ana": Decimal(-20), "Beto": Decimal(-10), "Caro": Decimal(30), "Dani": ZERO}
    t = tally(["Ana", "Beto", "Caro", "Dani"], "Ana", [doc])
    assert t.bank == "Caro" and t.lines[0].bank_next == "Caro"


def test_a_card_dealt_twice_in_one_pack_is_found_across_rounds():
    night = simulate_session(random.Random(5), rounds=3)
    docs = [dict(d) for d in night.rounds]
    # Round 2 deals the bank's first card of round 1 again, long before the pack runs out.
    first_bank_card = next(e["card"] for e in docs[0]["events"] if e["e"] == "deal" and e["to"] == "bank")
    events = [dict(e) for e in docs[1]["events"]]
    k = next(i for i, e in enumerate(events) if e["e"] == "deal" and e["to"] == "bank")
    events[k]["card"] = first_bank_card
    docs[1] = {**docs[1], "events": events}
    found = pack_findings(docs)
    assert list(found) == [2]
    assert found[2][0].code == "CARD_COUNT" and found[2][0].message.startswith("Round 2:")
