"""The rules of veintiuno as data (rules/veintiuno.md): the 40-card pack, the bet and the house
rules, the card facts, the special two-card hands, the states of a hand, and the hands.
"""

from decimal import Decimal
from typing import Final

from .. import cards as _cards
from .. import loop
from ..base import Option, plain_rules
from ..loop import PLAYING, SPLIT, STOOD

NAME: Final = "veintiuno"
RANKS: Final = "A234567JQK"
PACK: Final = _cards.pack(RANKS)
PACK_SIZE: Final = len(PACK)  # 40
PICTURES: Final = frozenset("JQK")
TRILLONA_CARDS: Final = 7

WAGERS: Final = ("bet",)
WAGER_LABEL: Final = {"bet": "bet"}

OPTIONS: Final = {
    "suited_twelve_pays": Option(
        "suited_twelve_pays",
        2,
        "int",
        "A two-card 12 of one suit counts 21 and pays this many times the bet (unless the bank holds a natural).",
        minimum=1,
        maximum=10,
    ),
    "packs": Option(
        "packs",
        1,
        "int",
        "How many 40-card packs are shuffled together (one by default, more by agreement).",
        minimum=1,
        maximum=8,
    ),
}

# Two-card hands (rules/veintiuno.md, Special hands).
NATURAL: Final = "natural"
MONONA: Final = "moñona"
RELANCINA: Final = "relancina"
TWELVE: Final = "twelve"
SUITED_TWELVE: Final = "suited twelve"
KIND_VALUE: Final = {NATURAL: 21, MONONA: 21, SUITED_TWELVE: 21, TWELVE: 20, RELANCINA: 20}
KIND_WORDS: Final = {
    NATURAL: "a natural (A + picture)",
    MONONA: "a moñona (two aces)",
    RELANCINA: "a relancina",
    TWELVE: "a two-card 12 (counts 20)",
    SUITED_TWELVE: "a suited two-card 12 (counts 21)",
}

# Card facts by spelling: (code, value with A as 1, is_ace, is_picture, in_pack). Cards outside the
# 40-card pack keep their face value so the rest of the round can still be checked around them.
_FACE: Final = {
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
    "A": 1,
}
CARD: Final = loop.card_table(_FACE.__getitem__, PACK)
_BY_CODE: Final = {info[0]: info for info in CARD.values()}


def _classify(a: str, b: str) -> str | None:
    ra, rb = a[0], b[0]
    if ra == "A" and rb == "A":
        return MONONA
    if (ra == "A" and rb in PICTURES) or (rb == "A" and ra in PICTURES):
        return NATURAL
    if ra in PICTURES and rb in PICTURES:
        return RELANCINA if ra != rb else None
    if ra != "A" and rb != "A" and _FACE[ra] + _FACE[rb] == 12:
        return SUITED_TWELVE if a[1] == b[1] else TWELVE
    return None


_TWO: Final[dict[tuple, str]] = {}
for _a in _BY_CODE:
    for _b in _BY_CODE:
        _kind = _classify(_a, _b)
        if _kind is not None:
            _TWO[(_a, _b)] = _kind
del _a, _b, _kind

# Hand states (with loop.PLAYING, STOOD and SPLIT).
BUST: Final = "over"
TAPO: Final = "tapo"
DECLARED: Final = "declared"
WITHDRAWN: Final = "withdrawn"
FINISHED: Final = {
    STOOD: "has already stood",
    BUST: "is already over 21",
    TAPO: "has taken its tapo y quedo card, which ends it",
    DECLARED: "is a declared natural, already finished",
    WITHDRAWN: "has withdrawn",
    SPLIT: "has been opened into two hands",
}


_DEFAULT_RULES: Final = {name: opt.default for name, opt in OPTIONS.items()}


def house_rules(rules) -> dict:
    return plain_rules(NAME, OPTIONS, _DEFAULT_RULES, rules)


class Hand:
    """The cards of one hand (or of the bank). Aces count 11 when that does not take it over 21."""

    __slots__ = (
        "name",
        "seat",
        "stake",
        "infos",
        "hard",
        "aces",
        "bet",
        "state",
        "split_child",
        "dealt",
        "second_at",
        "invalid",
        "rank",
    )

    def __init__(self, name: str, seat, stake, bet: Decimal | None = None, split_child: bool = False):
        self.name = name
        self.seat = seat
        self.stake = stake
        self.infos: list[tuple] = []
        self.hard = 0
        self.aces = 0
        self.bet = bet
        self.state = PLAYING
        self.split_child = split_child
        self.dealt = 0  # cards from the two passes of the deal
        self.second_at = -1  # the event that gave it its second card
        self.invalid = False
        self.rank = 0  # position in playing order (refreshed on a split)

    def add(self, info: tuple) -> None:
        self.infos.append(info)
        self.hard += info[1]
        self.aces += info[2]
        if not info[4]:
            self.invalid = True

    @property
    def kind(self) -> str | None:
        infos = self.infos
        if len(infos) != 2:
            return None
        return _TWO.get((infos[0][0], infos[1][0]))

    @property
    def best(self) -> int:
        return self.hard + 10 if self.aces and self.hard <= 11 else self.hard

    @property
    def value(self) -> int:
        infos = self.infos
        if len(infos) == 2:
            kind = _TWO.get((infos[0][0], infos[1][0]))
            if kind is not None:
                return KIND_VALUE[kind]
        h = self.hard
        return h + 10 if self.aces and h <= 11 else h

    @property
    def thirteen(self) -> bool:
        return len(self.infos) == 2 and self.best == 13

    @property
    def trillona(self) -> bool:
        return len(self.infos) == TRILLONA_CARDS and self.best == 21

    def words(self) -> str:
        kind = self.kind
        if kind is not None:
            return KIND_WORDS[kind]
        if self.trillona:
            return "a trillona (21 in seven cards)"
        return str(self.best)

    def cards_label(self) -> str:
        return " ".join(_cards.label(info[0]) for info in self.infos)


class Stake:
    __slots__ = ("id", "seat", "player", "bet", "hand")
    hand: "Hand"  # given by Replay as soon as the stakes are read: the hand and its stake name each other

    def __init__(self, id_: str, seat: int, player: str):
        self.id = id_
        self.seat = seat
        self.player = player
        self.bet: Decimal | None = None
