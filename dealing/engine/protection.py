"""Game protection: the shoe as it stood before every round, and its count.

    from dealing.engine import protection
    states = protection.shoe_states("blackjack", rounds, decks=6)   # one ShoeState per round
    states[12].true_count, states[12].edge
    protection.effects_of_removal("ochko")                         # rank -> % of edge per card

`rounds` is one shoe's round/1 documents in the order dealt (shared/round-format.md). Items of a
shoe/1 log (docs/shoe-format.md) may stand among them: `{"e": "round", "round": {...}}` is read
as its round, a `burn` takes its card out of the shoe, a `shuffle` starts a full shoe again, so
the burns between rounds (after loading, on a dealer change, paid) are counted when the caller has
them.

Game-free: each game's part is its wing's `count` module, found through the registry (games.py):
its ranks (`RANKS`, `PER_DECK`, `DECK`), the tags of its count (`TAGS`: Hi-Lo for blackjack, the
Ochko count for ochko), the effects of removal (`EFFECTS`, for a shoe of `DECKS` decks, from the
game math), the full shoe's edge (`full_edge(decks)`) and which cards a round took out of the shoe
(`round_ranks(doc)`, `rank(text)`).

The composition counts every card that left the shoe, burns and suit-less cards included; a card
of a rank already used up (the audit's CARD_COUNT) or no card of the pack (CARD_INVALID) changes
nothing here. The count is the house's: it counts the burns too, which a player at the table may
not have seen.

The edge is linear in the cards removed: the full shoe's edge plus the sum of the effects of
removal times the cards of each rank removed. The game's edge depends on the proportions of the
ranks left, not on how many cards are left, so the cards removed are counted in the full shoe's
measure: x_r = full_r − remaining_r × (full shoe's cards / cards left), the removal that brings a
full shoe to these proportions (Σ x_r = 0). Counting the cards plainly gone (full_r − remaining_r)
would say a shoe two thirds dealt in its original proportions had changed the edge; it has not.
The effects are scaled by DECKS / decks for a shoe of another size (an effect per card shrinks as
the shoe grows).

The effects and the full shoe's edge are those of the shoe's rule set — the house rules of its
first round (`rules`, a round document's) — as the count module's `edge_model(rules, decks)` gives
them: tabled for blackjack's two presets and for Ochko's four rule sets, any other solved on first
use and kept for the process (docs/protection.md).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import games


@dataclass(frozen=True)
class ShoeState:
    """The shoe as it stood BEFORE one round."""

    round_id: str
    remaining: dict[str, int]  # rank -> cards of that rank left (burns and suit-less cards counted)
    cards_left: int
    decks_left: float
    running_count: int  # Hi-Lo for blackjack; the Ochko count for ochko
    true_count: float  # running_count / decks_left (the game's deck size)
    edge: float  # the player's edge (%) for a round dealt from this composition: the game's full-shoe
    # edge + sum of effects of removal x cards removed, the cards removed counted as the full shoe
    # would have to lose them to be in this composition's proportions (see the module)


def effects_of_removal(variant: str, rules: Mapping | None = None) -> dict[str, float]:
    """rank -> change of the player's edge (%) when one card of that rank is removed from the
    game's full shoe under these house rules (a round document's; the game's defaults when None),
    from the game math."""
    return dict(edge_model(variant, rules, games.count(variant).DECKS)[1])


_MODELS: dict[tuple, tuple[float, dict[str, float]]] = {}


def edge_model(variant: str, rules: Mapping | None, decks: int) -> tuple[float, dict[str, float]]:
    """(the full shoe's player edge %, rank -> effect of removal per card) of a shoe of `decks` decks
    under these house rules, memoised by the rules as written (each shoe asks it once)."""
    key = (variant, repr(sorted((rules or {}).items())), decks)
    got = _MODELS.get(key)
    if got is None:
        got = _MODELS[key] = games.count(variant).edge_model(rules, decks)
    return got


def count_tags(variant: str) -> dict[str, int]:
    """rank -> the tag of the game's count (a card of that rank seen adds its tag)."""
    return dict(games.count(variant).TAGS)


def shoe_states(
    variant: str, rounds: Sequence[Mapping], *, decks: int, rules: Mapping | None = None
) -> list[ShoeState]:
    """The shoe before each round of `rounds` (one shoe's round/1 documents in the order dealt);
    the edge under `rules` (a round document's house rules; its first round's when None)."""
    if type(decks) is not int or decks < 1:
        raise ValueError(f"decks: a shoe holds at least one deck, not {decks!r}")
    count = games.count(variant)
    ranks: tuple[str, ...] = tuple(count.RANKS)
    full = {r: count.PER_DECK[r] * decks for r in ranks}
    deck_size = float(count.DECK)
    tags: dict[str, int] = count.TAGS
    if rules is None:
        rules = _first_rules(rounds)
    base, shift = edge_model(variant, rules, decks)
    rank_of = count.rank
    round_ranks = count.round_ranks

    remaining = dict(full)
    size = sum(full.values())
    left = size
    running = 0
    # edge = base + Σ shift_r (full_r − remaining_r × size / left) = base + whole − size / left × held,
    # with `held` = Σ shift_r remaining_r kept as the cards come out: no loop over the ranks a round
    whole = sum(shift[r] * full[r] for r in ranks)
    held = whole
    states: list[ShoeState] = []
    for k, item in enumerate(rounds):
        e = item.get("e")
        if e is None:
            doc = item
        elif e == "round":
            doc = item.get("round") or {}
        else:
            if e == "shuffle":
                remaining, left, running, held = dict(full), size, 0, whole
            elif e == "burn":
                r = rank_of(item.get("card"))
                if r is not None and remaining[r] > 0:
                    remaining[r] -= 1
                    left -= 1
                    running += tags[r]
                    held -= shift[r]
            continue
        decks_left = left / deck_size
        edge = base + whole - size / left * held if left < size and left else base
        rid = doc.get("id")
        states.append(
            ShoeState(
                round_id=str(rid) if rid is not None else str(k),
                remaining=dict(remaining),
                cards_left=left,
                decks_left=decks_left,
                running_count=running,
                true_count=running / decks_left if left else 0.0,
                edge=edge,
            )
        )
        for r in round_ranks(doc):
            if remaining[r] > 0:
                remaining[r] -= 1
                left -= 1
                running += tags[r]
                held -= shift[r]
    return states


def _first_rules(rounds: Sequence[Mapping]) -> Mapping | None:
    """The house rules of the shoe's first round (a shoe is dealt under one table's rules)."""
    for item in rounds:
        e = item.get("e")
        if e is None:
            return item.get("rules")
        if e == "round":
            return (item.get("round") or {}).get("rules")
    return None
