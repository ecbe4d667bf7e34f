"""The rules of ochko as data (rules/ochko.md): the pack, the wagers and house rules, the card facts,
the phases of the procedure and the states of a box, and the hands.
"""

from decimal import Decimal
from typing import Final

from .. import cards as _cards
from .. import loop
from ..base import LEAVE, TAKE, Option, plain_rules

# Final: the compiled engine (native.py) reads these as C constants instead of module lookups.
NAME: Final = "ochko"
PACK: Final = _cards.pack("6789TJQKA")
DECKS: Final = 8
MAX_BOXES: Final = 6
MAX_STAKES_PER_BOX: Final = 3
BET_MULTIPLE_MAX: Final = 10

WAGERS: Final = ("ante", "bet", "dealer_bet")
WAGER_LABEL: Final = {"ante": "Ante", "bet": "Bet", "dealer_bet": "dealer bet"}

OPTIONS = {
    "dark_win_bet": Option(
        "dark_win_bet",
        LEAVE,
        "choice",
        "A winning dark-card box is paid its Ante only; its Bet is returned (leave) or taken.",
        choices=(LEAVE, TAKE),
    ),
    "dark_double_bust_bet": Option(
        "dark_double_bust_bet",
        LEAVE,
        "choice",
        "A dark-card box that busts when the dealer busts too is paid its Ante only; "
        "its Bet is returned (leave) or taken.",
        choices=(LEAVE, TAKE),
    ),
    "dealer_bet_min": Option("dealer_bet_min", Decimal(1), "amount", "The smallest dealer bet, in table units."),
}

# Card facts by spelling: (code, value, is_ace, is_picture, in_pack). Cards outside the 36-card
# pack keep their face value so the rest of the procedure can still be checked around them.
_FACE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
CARD: Final = loop.card_table(_FACE.__getitem__, PACK, suitless=True)  # suits never matter in ochko
# The codes a hand holds are canonical codes (keys of _CARD themselves) or texts that are no card
# at all (never keys of _CARD), so these sets tell an ace or a picture from the code alone.
_ACES: Final = frozenset(info[0] for info in CARD.values() if info[2])
_PICTURES: Final = frozenset(info[0] for info in CARD.values() if info[3])

# Phases of the procedure.
DEAL: Final = 0
DECIDE: Final = 1
DRAWING: Final = 2
DEALER: Final = 3
DONE: Final = 4
# States of a box.
WAITING: Final = "waiting"
DRAWING_BOX: Final = "drawing"
DARK: Final = "dark"
OCHKO: Final = "ochko"
MNOGO: Final = "mnogo"
OUT: Final = "out"
FOLD: Final = "fold"
BET: Final = "bet"


_DEFAULT_RULES: Final = {name: opt.default for name, opt in OPTIONS.items()}


def house_rules(rules) -> dict:
    return plain_rules(NAME, OPTIONS, _DEFAULT_RULES, rules)


class Hand:
    """Cards on a box or in front of the dealer. A is always 11: there are no soft totals."""

    __slots__ = ("cards", "total", "invalid")

    def __init__(self):
        self.cards: list[str] = []
        self.total = 0
        self.invalid = False

    def add(self, info: tuple) -> None:
        # Runs for every card; the aces and pictures only matter for two- and five-card hands,
        # so `combination` looks at the codes instead of keeping counts here.
        self.cards.append(info[0])
        self.total += info[1]
        if not info[4]:
            self.invalid = True

    def clear(self) -> None:
        self.cards = []
        self.total = 0
        self.invalid = False

    @property
    def combination(self) -> str | None:
        """The ochko combinations that count 21 whatever the total."""
        cards = self.cards
        n = len(cards)
        if n == 2 and cards[0] in _ACES and cards[1] in _ACES:
            return "pair of aces"
        if n == 5 and _PICTURES.issuperset(cards):
            return "five pictures"
        return None

    @property
    def score(self) -> int:
        return 21 if self.combination else self.total

    @property
    def bust(self) -> bool:
        return self.total > 21 and not self.combination

    def dealer_stops(self) -> bool:
        return self.total >= 17 or self.combination is not None


class Stake:
    __slots__ = ("id", "box", "player", "ante", "dealer_bet", "owner", "decision", "bet")

    def __init__(self, id_, box, player, ante, dealer_bet, owner):
        self.id = id_
        self.box = box
        self.player = player
        self.ante = ante
        self.dealer_bet = dealer_bet
        self.owner = owner
        self.decision = None
        self.bet = None


class Box:
    __slots__ = ("number", "stakes", "hand", "state", "dark", "revealed", "dealt", "instant_at", "playing")

    def __init__(self, number):
        self.number = number
        self.stakes: list[Stake] = []
        self.hand = Hand()
        self.state = WAITING
        self.dark = None  # the dark card's code, once taken
        self.revealed = False
        self.dealt = False
        self.instant_at = None
        self.playing: list[Stake] = []
