"""The table as the drill pages draw it: boxes (or seats) with their cards and chips, the dealer's
(or the bank's) cards, and what has been settled — built from a round log, or from a prefix of it
while a procedure drill is in progress.

Each game draws its own table (`dealing.games.layout_for(variant).live`, dealing/games/<variant>/
layout.py), with the card counts of the engine's hands; this module is the drills' door to it.
"""

from dealing import games
from dealing.engine.cards import label as card_label
from dealing.games.layout import TableView, wager_label

__all__ = ["TableView", "build", "card_label", "total_of", "wager_label"]


def build(doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False, name: str = "") -> TableView:
    """The table after `events` (the whole log when None). `reveal_all` shows every card face up
    (the payout drill's finished table)."""
    return games.layout_for(doc["variant"]).live(doc, events, reveal_all=reveal_all, name=name)


def total_of(variant: str, cards: list[str]) -> int:
    """What the cards count in that game, as the engine counts a hand."""
    return games.layout_for(variant).total(cards)
