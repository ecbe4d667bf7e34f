"""The views of a table every game draws with, and the frame a game's layout fills in.

A game's layout (`dealing/games/<variant>/layout.py`, the `layout` slot of its GAME) is one
`Layout`, and its `Walk` is the one walk of a round's log that places cards and chips:

* `table(doc, ...)`: a stored round as it stood at the end, every card with the event that placed
  it, marked where a finding points (the audit replay);
* `live(doc, events, ...)`: the same walk over a prefix of the log, drawn as the players see it —
  face-down cards, chips with their settlement, the box the step is about (the drills table);
* `round_page(record, outcome)`: what the round page draws, stakes and wagers with what was logged
  next to what the engine's outcome says was owed.

It only places cards and chips: what a wager was owed, what a hand counts and what is wrong are
the engine's (its Outcome, its hands), never worked out again here.

The package: `felt` (the table as the walk leaves it, and the chips), `live` (the table in play),
`page` (the round page's lines), `walk` (`Walk` and `Layout`). Every name is offered here.
"""

from .felt import (
    BoxView,
    CardView,
    Chips,
    HandView,
    StakeView,
    TableLayout,
    WagerView,
    amount,
    box_of,
    burn,
    card,
    finish_table,
    hand_in,
    int_or_none,
    note,
    split_hand,
    stakes_by_box,
    tag,
    wager_label,
)
from .live import LiveCard, LiveHand, LiveStake, SpotView, TableView
from .page import HandDrawing, WagerLine, owed_and_wrong
from .walk import CARDS, CardsLayout, CardsWalk, Layout, Walk

__all__ = [
    "BoxView",
    "CardView",
    "Chips",
    "HandView",
    "StakeView",
    "TableLayout",
    "WagerView",
    "amount",
    "box_of",
    "burn",
    "card",
    "finish_table",
    "hand_in",
    "int_or_none",
    "note",
    "split_hand",
    "stakes_by_box",
    "tag",
    "wager_label",
    "LiveCard",
    "LiveHand",
    "LiveStake",
    "SpotView",
    "TableView",
    "HandDrawing",
    "WagerLine",
    "owed_and_wrong",
    "Layout",
    "Walk",
    "CARDS",
    "CardsLayout",
    "CardsWalk",
]
