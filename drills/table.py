"""The table as the drill pages draw it: boxes (or seats) with their cards and chips, the dealer's
(or the bank's) cards, and what has been settled — built from a round log, or from a prefix of it
while a procedure drill is in progress.

Each game draws its own table (`dealing.games.layout_for(variant).live`, dealing/games/<variant>/
layout.py), with the card counts of the engine's hands; a game without a layout is drawn as the
audit's replay draws it (`dealing.games.layout.CARDS`: each card where its event put it, no count).
This module is the drills' door to it.
"""

from dealing import games
from dealing.engine.cards import label as card_label
from dealing.games.layout import CARDS, TableView, wager_label

__all__ = ["TableView", "build", "card_label", "total_of", "wager_label"]


def build(doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False, name: str = "") -> TableView:
    """The table after `events` (the whole log when None). `reveal_all` shows every card face up
    (the payout drill's finished table)."""
    return (games.layout_for(doc["variant"]) or CARDS).live(doc, events, reveal_all=reveal_all, name=name)


def total_of(variant: str, cards: list[str]) -> int | None:
    """What the cards count in that game, as the engine counts a hand (None: a game without a layout)."""
    return (games.layout_for(variant) or CARDS).total(cards)
