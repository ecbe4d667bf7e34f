"""The effects of removal of every rule set a table can have (issue 38): blackjack's two presets and
Ochko's four dark-card rule sets tabled from the game math, any other solved on first use and kept;
a shoe's edge comes from its own rounds' rules, its count does not depend on them."""

import pytest

from dealing.engine import native, protection
from dealing.engine.blackjack import count as blackjack_count
from dealing.engine.ochko import count as ochko_count
from dealing.engine.ochko.math import FULL_COUNTS, solve


def _shoe(variant: str, rules: dict, cards: list[str], rounds: int = 3) -> list[dict]:
    return [{"id": f"r{k}", "rules": rules, "events": [{"e": "deal", "card": c} for c in cards]} for k in range(rounds)]


@pytest.mark.slow
def test_ochkos_tabled_rule_sets_are_the_game_maths():
    rules = {"dark_win_bet": "leave", "dark_double_bust_bet": "take"}
    full, effects = ochko_count.RULE_SETS[("leave", "take")]
    assert full == pytest.approx(float(solve(rules, removed=FULL_COUNTS).round_figures()["mean"]) * 100, abs=1e-9)
    less_an_ace = tuple(c - (k == 8) for k, c in enumerate(FULL_COUNTS))
    ace = float(solve(rules, removed=less_an_ace).round_figures()["mean"]) * 100 - full
    assert effects["A"] == pytest.approx(ace, abs=1e-9)
    assert set(ochko_count.RULE_SETS) == {(w, d) for w in ("leave", "take") for d in ("leave", "take")}


def test_an_ochko_shoe_is_priced_by_its_own_tables_rules_and_counted_alike():
    aces = ["AS", "AH", "AD", "AC"] * 4  # sixteen aces out: a poor shoe for the player
    default = protection.shoe_states("ochko", _shoe("ochko", {}, aces), decks=8)
    take = {"dark_win_bet": "take", "dark_double_bust_bet": "leave"}
    taken = protection.shoe_states("ochko", _shoe("ochko", take, aces), decks=8)
    assert [s.true_count for s in taken] == [s.true_count for s in default]
    assert default[0].edge == pytest.approx(ochko_count.FULL_EDGE[8])
    assert taken[0].edge == pytest.approx(-6.557810190531539)  # the house's edge of that rule set
    # Sixteen aces out of 288 cards move each rule set's edge by its own effects.
    for states, (full, effects) in (
        (default, ochko_count.RULE_SETS[("leave", "leave")]),
        (taken, ochko_count.RULE_SETS[("take", "leave")]),
    ):
        removed = {r: 32 - (16 if r == "A" else 0) * 1 for r in ochko_count.RANKS}
        left = sum(removed.values())
        expected = full + sum(effects[r] * (32 - removed[r] * 288 / left) for r in ochko_count.RANKS)
        assert states[1].edge == pytest.approx(expected)
    assert taken[1].edge < default[1].edge < default[0].edge
    assert protection.effects_of_removal("ochko", take)["A"] == pytest.approx(-1.0436377339086116)


def test_an_online_blackjack_shoe_has_the_online_presets_edge_and_effects():
    online = protection.shoe_states("blackjack", _shoe("blackjack", {"preset": "online"}, ["5H"] * 10), decks=8)
    salon = protection.shoe_states("blackjack", _shoe("blackjack", {"preset": "salon"}, ["5H"] * 10), decks=8)
    full, effects = blackjack_count.RULE_SETS[(blackjack_count.rule_set({"preset": "online"})[0], 8)]
    assert online[0].edge == pytest.approx(full) and full < blackjack_count.FULL_EDGE[6]
    assert online[1].true_count == salon[1].true_count
    assert online[1].edge - online[0].edge != pytest.approx(salon[1].edge - salon[0].edge, rel=1e-3)
    assert effects["5"] > 0 > effects["A"]


@pytest.mark.skipif(
    native.implementation().startswith("compiled"),
    reason="a compiled module calls its own compute_effects: the stand-in would not be reached",
)
def test_a_house_rule_set_with_no_table_is_solved_once_and_kept(monkeypatch):
    calls = []

    def solved(decks, ranks=blackjack_count.RANKS, *, preset="salon", rules=None):
        calls.append((decks, dict(rules)))
        return -0.61, {r: 0.01 for r in blackjack_count.RANKS}

    monkeypatch.setattr(blackjack_count, "compute_effects", solved)
    # A rule set no other test asks about (H17 and surrender): not solved yet in this process.
    h17 = {"preset": "salon", "hit_soft_17": True, "surrender": True}
    for _ in range(3):
        states = protection.shoe_states("blackjack", _shoe("blackjack", h17, ["5H"]), decks=6)
        assert states[0].edge == -0.61
    assert protection.effects_of_removal("blackjack", {**h17, "boxes": 3})["5"] == 0.01
    assert len(calls) == 1 and calls[0][0] == 6 and calls[0][1]["hit_soft_17"] is True
    # The presets' figures stay tabled: nothing solved for them.
    protection.shoe_states("blackjack", _shoe("blackjack", {"preset": "online"}, ["5H"]), decks=8)
    assert len(calls) == 1
