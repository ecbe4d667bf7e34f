"""The shoe before every round (engine/protection.py): composition, counts and edge from the log."""

import random

import pytest

from dealing import engine
from dealing.engine import protection
from dealing.engine.blackjack.simulator import simulate_shoe


def _rounds(shoe_doc: dict) -> list[list[dict]]:
    """The shoe/1 document's rounds, one list per shoe (split at each shuffle)."""
    shoes: list[list[dict]] = []
    for item in shoe_doc["items"]:
        if item["e"] == "shuffle":
            shoes.append([])
        elif item["e"] == "round":
            shoes[-1].append(item["round"])
    return shoes


def _hilo(card: str) -> int:
    r = card[0]
    return 1 if r in "23456" else (-1 if r in "TJQKA" else 0)


def test_blackjack_composition_and_hilo_follow_every_card_dealt():
    doc = simulate_shoe(random.Random(7), rounds=60, preset="salon")
    shoe = _rounds(doc)[0]
    states = protection.shoe_states("blackjack", shoe, decks=6)
    assert len(states) == len(shoe)
    first = states[0]
    assert first.cards_left == 312 and first.running_count == 0 and first.remaining["T"] == 96
    seen: list[str] = []
    for state, rnd in zip(states, shoe):
        assert state.round_id == rnd["id"]
        assert state.cards_left == 312 - len(seen)
        assert sum(state.remaining.values()) == state.cards_left
        assert state.running_count == sum(_hilo(c) for c in seen)
        assert state.true_count == pytest.approx(state.running_count / (state.cards_left / 52))
        tens = sum(c[0] in "TJQK" for c in seen)
        assert state.remaining["T"] == 96 - tens
        seen += [ev["card"] for ev in rnd["events"] if "card" in ev]


def test_edge_is_full_edge_plus_effects_times_cards_removed():
    doc = simulate_shoe(random.Random(3), rounds=30, preset="salon")
    states = protection.shoe_states("blackjack", _rounds(doc)[0], decks=6)
    effects = protection.effects_of_removal("blackjack")
    full = {r: (96 if r == "T" else 24) for r in effects}
    base = states[0].edge
    assert base == pytest.approx(-0.4029, abs=1e-4)  # the salon's optimal edge off the top
    for state in states:
        grow = 312 / state.cards_left  # the cards removed in the full shoe's measure
        expected = base + sum(effects[r] * (full[r] - state.remaining[r] * grow) for r in effects)
        assert state.edge == pytest.approx(expected, abs=1e-9)
    # a shoe dealt down in its own proportions has the full shoe's edge
    deck = [r + s for r in "23456789TJQKA" for s in "SHDC"]
    states = protection.shoe_states(
        "blackjack", [{"id": "a", "events": [{"e": "deal", "card": c} for c in deck]}] * 3, decks=6
    )
    assert [s.cards_left for s in states] == [312, 260, 208]
    assert [s.edge for s in states] == pytest.approx([base] * 3, abs=1e-12)
    assert states[2].running_count == 0


def test_blackjack_count_from_the_log_equals_the_simulators_round_by_round():
    from dealing.engine.blackjack.simulator.players import Player, simulate_table

    players = [Player("P-1", "flat"), Player("P-2", "counter"), Player("P-3", "wonger"), Player("P-4", "drifting")]
    shoes = simulate_table(random.Random(11), players=players, shoes=4)
    compared = 0
    for dealt in shoes:
        states = protection.shoe_states("blackjack", [d.doc for d in dealt], decks=6)
        for d, s in zip(dealt, states, strict=True):
            assert s.running_count == d.running_count
            assert s.cards_left == d.cards_left
            assert s.true_count == pytest.approx(d.true_count, abs=1e-12)
            compared += 1
    assert compared > 60
    assert all(not engine.settle(d.doc)["findings"] for dealt in shoes for d in dealt)  # correct rounds
    wonger_rounds = [d for dealt in shoes for d in dealt if any(st["player"] == "P-3" for st in d.doc["stakes"])]
    assert wonger_rounds and all(d.true_count > 0 for d in wonger_rounds)
    assert len(wonger_rounds) < compared  # he plays only part of the shoe


def test_ochko_count_from_the_log_equals_the_simulators_round_by_round():
    from dealing.engine.ochko.simulator_players import Player, simulate_table

    players = [Player("P-1", "random"), Player("P-2", "ochko_counter"), Player("P-3", "flat")]
    shoes = simulate_table(random.Random(5), players=players, shoes=4, incidents=0.2)
    compared = 0
    for items, dealt in shoes:
        states = protection.shoe_states("ochko", items, decks=8)
        assert states[0].cards_left == 288 - 6  # the load burns are out before the first round
        for d, s in zip(dealt, states, strict=True):
            assert (s.running_count, s.cards_left) == (d.running_count, d.cards_left)
            assert s.true_count == pytest.approx(d.true_count, abs=1e-12)
            compared += 1
    assert compared > 60
    # the exposed dealer's card (burned) is counted once, as the replay counts it
    exposed = [d.doc for _i, dealt in shoes for d in dealt if any(ev["e"] == "incident" for ev in d.doc["events"])]
    assert exposed
    assert all(not engine.settle(d.doc)["findings"] for _i, dealt in shoes for d in dealt)


def _pearson(x: list[float], y: list[float]) -> float:
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5


def test_the_ochko_count_is_balanced_and_follows_the_effects_of_removal():
    from dealing.engine.ochko import count

    tags, effects = protection.count_tags("ochko"), protection.effects_of_removal("ochko")
    assert sum(tags[r] * count.PER_DECK[r] for r in count.RANKS) == 0  # balanced over the 36-card deck
    # its betting correlation (tags against the effects, every rank equally often in the deck)
    ranks = list(count.RANKS)
    assert _pearson([tags[r] for r in ranks], [effects[r] for r in ranks]) > 0.95
    # a full shoe's count ends at 0; the exact edge of the shoe's composition rises with the true count
    rng = random.Random(21)
    from dealing.engine.ochko.simulator_players import Player, simulate_table

    shoes = simulate_table(rng, players=[Player("P-1", "random")] * 3, shoes=30, incidents=0.0)
    states = [s for items, _d in shoes for s in protection.shoe_states("ochko", items, decks=8)]
    assert _pearson([s.true_count for s in states], [s.edge for s in states]) > 0.9


@pytest.mark.slow
def test_ochko_effects_of_removal_are_the_game_maths():
    from dealing.engine.ochko import count

    full, effects = count.compute_effects()
    assert full == pytest.approx(count.FULL_EDGE[8], abs=1e-12)
    assert effects == pytest.approx(count.EFFECTS, abs=1e-12)


@pytest.mark.slow
def test_blackjack_effect_of_removing_a_five_is_the_solvers():
    from dealing.engine.blackjack import count

    full, effects = count.compute_effects(ranks=("5",))  # two exact solves, about 35 s
    assert full == pytest.approx(count.FULL_EDGE[6], abs=1e-9)
    assert effects["5"] == pytest.approx(count.EFFECTS["5"], abs=1e-9)
    assert count.EFFECTS["5"] == max(count.EFFECTS.values()) and count.EFFECTS["A"] == min(count.EFFECTS.values())


def test_a_malformed_or_partial_log_changes_only_what_it_names():
    # a card that is no card, an event that is no object: nothing counted for them, no crash
    odd = {
        "id": "x",
        "events": ["deal", {"e": "deal", "card": ["AS"]}, {"e": "deal", "card": "ZZ"}, {"e": "hit", "card": "5*"}],
    }
    for game, decks in (("blackjack", 6), ("ochko", 8)):
        states = protection.shoe_states(game, [odd, {"id": "y", "events": []}], decks=decks)
        gone = 1 if game == "blackjack" else 0  # a 5 is no card of the 36-card pack
        assert states[1].cards_left == states[0].cards_left - gone
    with pytest.raises(ValueError, match="decks"):
        protection.shoe_states("blackjack", [], decks=0)
    with pytest.raises(ValueError, match="no count"):
        protection.shoe_states("veintiuno", [], decks=1)
