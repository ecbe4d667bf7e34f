"""The table in play, as the players see it (the drills' table, drawn from the walk): cards face
up or down, hands with the engine's count, stakes with their chips, the places of the table."""

from collections.abc import Callable
from dataclasses import dataclass, field

from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS
from dealing.engine.cards import label as card_label

from .felt import Chips, WagerView


@dataclass
class LiveCard:
    code: str
    face_up: bool = True
    sideways: bool = False  # a dark card (ochko) or a tapo card (veintiuno), laid across

    @property
    def rank(self) -> str:
        return RANK_NAMES.get(self.code[0], self.code[0])

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS.get(self.code[1:], "?")

    @property
    def red(self) -> bool:
        return self.code[1:] in ("H", "D")

    @property
    def label(self) -> str:
        return card_label(self.code)


@dataclass
class LiveHand:
    name: str
    cards: list[LiveCard] = field(default_factory=list)
    total: int | None = None  # the engine's count of the cards, when every one is face up
    tag: str = ""  # "ochko", "mnogo", "bust", "blackjack", ...
    doubled: bool = False

    def refresh(self, total: Callable[[list[str]], int]) -> None:
        shown = [c.code for c in self.cards if c.face_up]
        if not self.cards or len(shown) != len(self.cards):
            self.total = None
            return
        self.total = total(shown)


@dataclass
class LiveStake(Chips):
    id: str
    player: str
    wagers: list[WagerView] = field(default_factory=list)
    folded: bool = False


@dataclass
class SpotView:
    number: int
    label: str
    hands: list[LiveHand] = field(default_factory=list)
    stakes: list[LiveStake] = field(default_factory=list)
    active: bool = False

    @property
    def in_play(self) -> bool:
        return bool(self.stakes)


@dataclass
class TableView:
    variant: str
    name: str
    min: str
    max: str
    spots: list[SpotView]
    dealer: LiveHand
    dealer_label: str
    focus: int | None = None  # the spot the current step is about
