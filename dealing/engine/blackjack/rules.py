"""The rules of blackjack as data (rules/blackjack.md): the pack, the wagers, the house rules and
the two presets, the card facts, the 3:2 payout, and the hands.
"""

from decimal import ROUND_DOWN, Decimal
from typing import Final

from .. import cards as _cards
from .. import loop
from ..base import Option, resolve_rules
from ..loop import PLAYING, SPLIT
from ..money import ZERO

NAME: Final = "blackjack"
PACK: Final = _cards.pack(_cards.RANKS)
MAX_TABLE_BOXES: Final = 7

WAGERS: Final = ("bet", "double", "insurance", "jackpot")
WAGER_LABEL: Final = {"bet": "bet", "double": "double", "insurance": "insurance", "jackpot": "jackpot bet"}

CUT: Final = "cut"
EVERY_ROUND: Final = "every_round"

OPTIONS: Final = {
    "preset": Option(
        "preset",
        "salon",
        "choice",
        "The ruleset the other options start from: the six-deck salon game (seed 002) or the "
        "eight-deck online game (seed 001).",
        choices=("salon", "online"),
    ),
    "decks": Option("decks", 6, "int", "52-card packs in the shoe.", minimum=1, maximum=8),
    "reshuffle": Option(
        "reshuffle",
        CUT,
        "choice",
        "When a new shoe is due: at the cut (fewer than `cut_remaining` cards left before a deal) "
        "or before every round.",
        choices=(CUT, EVERY_ROUND),
    ),
    "cut_remaining": Option(
        "cut_remaining",
        78,
        "int",
        'With reshuffle "cut": a new shoe when fewer than this many cards remain before a deal.',
        minimum=1,
        maximum=416,
    ),
    "boxes": Option("boxes", 5, "int", "Boxes (player positions) on the table.", minimum=1, maximum=MAX_TABLE_BOXES),
    "max_hands": Option(
        "max_hands", 4, "int", "The most hands one box may have after splitting (1: no split).", minimum=1, maximum=8
    ),
    "resplit_aces": Option("resplit_aces", False, "bool", "A split ace that receives another ace may split again."),
    "hit_split_aces": Option(
        "hit_split_aces",
        False,
        "bool",
        "Split aces may draw more than their one card (and double, with double_after_split).",
    ),
    "double_after_split": Option("double_after_split", True, "bool", "A split hand may double on its first two cards."),
    "jackpot": Option(
        "jackpot",
        False,
        "bool",
        "The jackpot side bet is offered: it wins when the box's first two cards are A♠ and J♠.",
    ),
    "jackpot_bet": Option("jackpot_bet", Decimal(1), "amount", "The jackpot side bet's stake."),
    "jackpot_amount": Option("jackpot_amount", Decimal(1000), "amount", "What a winning jackpot bet is paid."),
}

PRESETS: Final = {
    "salon": {
        "preset": "salon",
        "decks": 6,
        "reshuffle": CUT,
        "cut_remaining": 78,
        "boxes": 5,
        "max_hands": 4,
        "resplit_aces": False,
        "hit_split_aces": False,
        "double_after_split": True,
        "jackpot": False,
        "jackpot_bet": Decimal(1),
        "jackpot_amount": Decimal(1000),
    },
    "online": {
        "preset": "online",
        "decks": 8,
        "reshuffle": EVERY_ROUND,
        "cut_remaining": 78,
        "boxes": 1,
        "max_hands": 2,
        "resplit_aces": False,
        "hit_split_aces": False,
        "double_after_split": True,
        "jackpot": True,
        "jackpot_bet": Decimal(1),
        "jackpot_amount": Decimal(1000),
    },
}


def house_rules(rules) -> dict:
    """The rules in force: the preset's (salon when none is named), then the overrides."""
    if rules is None:
        return dict(PRESETS["salon"])
    if type(rules) is dict and len(rules) == 1 and rules.get("preset") in _PRESET_NAMES:
        return dict(PRESETS[rules["preset"]])
    preset = "salon"
    if type(rules) is dict and "preset" in rules:
        preset = OPTIONS["preset"].read(rules["preset"], "$.rules.preset")
    return resolve_rules(NAME, OPTIONS, rules, base=PRESETS[preset])


_PRESET_NAMES: Final = ("salon", "online")

# Card facts by every accepted spelling (loop.card_table), the ace valued 1; every card is in the pack.
_VALUE: Final = {r: 1 if r == "A" else 10 if r in "TJQK" else int(r) for r in _cards.RANKS}
# Suit-less cards (``9*``) too: the replay of a table with the A♠ J♠ jackpot reads only SUITED.
CARD: Final = loop.card_table(_VALUE.__getitem__, PACK, suitless=True)
SUITED: Final = loop.card_table(_VALUE.__getitem__, PACK)

JACKPOT_CARDS: Final = frozenset({"AS", "JS"})
THREE_TO_TWO: Final = Decimal("1.5")
CENT: Final = Decimal("0.01")

# Phases of the round.
DEAL, OFFERS, PLAY, DEALER = range(4)
# States of a hand.
DONE: Final = "done"
EVEN: Final = "even money"


def blackjack_pay(bet: Decimal) -> Decimal:
    """3:2, exact; a payout that falls between cents is rounded down to the cent."""
    win = bet * THREE_TO_TWO
    exponent = win.as_tuple().exponent  # an int: the product of two finite amounts is finite
    if isinstance(exponent, int) and exponent < -2:
        win = win.quantize(CENT, rounding=ROUND_DOWN)
    return win


class Hand:
    """A player's hand (or the dealer's). Aces count 1 in `hard`; `best` counts one as 11 when it fits."""

    __slots__ = (
        "name",
        "stake",
        "cards",
        "hard",
        "ace",
        "invalid",
        "bet",
        "double",
        "state",
        "is_split",
        "split_aces",
        "acted",
    )

    def __init__(self, name=None, stake=None, bet=ZERO, is_split=False):
        self.name = name
        self.stake = stake
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.invalid = False
        self.bet = bet
        self.double = None
        self.state = PLAYING
        self.is_split = is_split
        self.split_aces = False
        self.acted = False

    def add(self, info: tuple) -> None:
        self.cards.append(info[0])
        self.hard += info[1]
        if info[2]:
            self.ace = True
        if not info[4]:
            self.invalid = True

    @property
    def best(self) -> int:
        hard = self.hard
        return hard + 10 if self.ace and hard <= 11 else hard

    @property
    def soft(self) -> bool:
        return self.ace and self.hard <= 11

    @property
    def natural(self) -> bool:
        """Blackjack: an ace and a ten-value card as a box's first two cards (never after a split)."""
        return not self.is_split and self.state != SPLIT and len(self.cards) == 2 and self.ace and self.hard == 11

    def words(self) -> str:
        if self.natural:
            return "blackjack"
        best = self.best
        return f"soft {best}" if self.soft and best != 21 else str(best)


class Stake:
    __slots__ = ("id", "box", "player", "bet", "jackpot", "hand", "insurance", "insured_at", "even_money")

    def __init__(self, id_, box, player, bet, jackpot):
        self.id = id_
        self.box = box
        self.player = player
        self.bet = bet
        self.jackpot = jackpot
        self.hand: Hand = Hand(str(box), self, bet)
        self.insurance = None
        self.insured_at = None
        self.even_money = None  # the event index of a valid even-money decision
