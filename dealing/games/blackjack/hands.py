"""Blackjack's hands on the round form: which hands of a box were split (a hidden list per box),
their names in play order, and the views the template draws a box and its hands with."""

import re
from dataclasses import dataclass

from django import forms

from dealing.engine import cards as engine_cards
from dealing.forms.fields import SEPARATORS
from dealing.forms.rounds import WagerRow

# Hands one box may be split into on the form (the engine judges against the table's `max_hands`).
BJ_MOST_HANDS = 8
HAND_NAME = re.compile(r"[1-9]\d?(?:\.[12]){0,6}\Z")


def hand_key(name: str) -> str:
    """A hand's name as it appears in field names and HTML ids: "2.1" → "2-1"."""
    return name.replace(".", "-")


def parse_splits(text, number: int) -> list[str]:
    """The hands of box `number` that were split, from the form's hidden list ("2 2.1"): only hands
    that exist (the box's hand, or a hand made by an earlier split), at most `BJ_MOST_HANDS` hands."""
    wanted = {t for t in SEPARATORS.split(str(text or "").strip()) if HAND_NAME.match(t)}
    splits: list[str] = []
    leaves = 1

    def visit(name: str) -> None:
        nonlocal leaves
        if name in wanted and leaves < BJ_MOST_HANDS:
            splits.append(name)
            leaves += 1
            visit(name + ".1")
            visit(name + ".2")

    visit(str(number))
    return splits


def hand_names(number: int, splits) -> list[str]:
    """Every hand of a box in the order it is played (depth first), split hands included."""
    out: list[str] = []

    def visit(name: str) -> None:
        out.append(name)
        if name in splits:
            visit(name + ".1")
            visit(name + ".2")

    visit(str(number))
    return out


@dataclass
class HandView:
    """One hand of a box on the form: its cards (those it holds from before a split drawn, not
    typed), its double, its split, its two halves side by side, its settlement rows."""

    name: str
    key: str
    cards: forms.BoundField
    double: forms.BoundField
    inherited: list[str]
    split: bool
    children: list["HandView"]
    rows: list[WagerRow]
    can_split: bool
    verdict: object = ""  # the bet's Owed (its verdict said by the |verdict filter), or ""
    depth: int = 0

    @property
    def is_root(self) -> bool:
        return "." not in self.name

    @property
    def leaves(self) -> int:
        return sum(c.leaves for c in self.children) if self.split else 1

    @property
    def typed_count(self) -> int:
        return len(tokens(self.cards.value()))


def tokens(value) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v]
    return [t for t in SEPARATORS.split(str(value or "").strip()) if t]


@dataclass
class BlackjackBoxView:
    number: int
    fields: dict
    hand: HandView
    stake_rows: list[WagerRow]
    used: bool

    def __getitem__(self, key):
        return self.fields[key]

    @property
    def in_play(self) -> bool:
        return self.used

    @property
    def leaves(self) -> int:
        return self.hand.leaves

    @property
    def hands(self) -> list[HandView]:
        """Every hand, depth first."""
        out = []

        def visit(h: HandView) -> None:
            out.append(h)
            for c in h.children:
                visit(c)

        visit(self.hand)
        return out

    @property
    def leaf_hands(self) -> list[HandView]:
        return [h for h in self.hands if not h.split]


def same_value(a: str, b: str) -> bool:
    """Two cards of equal value (K♥ 10♣ is a pair): what the split button offers; the engine judges."""
    codes = [engine_cards.normalize(c) or engine_cards.normalize(str(c).upper()) for c in (a, b)]
    if None in codes:
        return False
    value = [10 if c[0] in "TJQK" else c[0] for c in codes]
    return value[0] == value[1]
