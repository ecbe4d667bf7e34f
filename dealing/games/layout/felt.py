"""The table as a walk of a round's log leaves it (the audit replay draws it as is): cards with the
event that placed them, hands, stakes with their amounts and chips, boxes, the dealer, burns and
notes; and the small moves every game's walk makes with them (a card dealt, a hand tagged, a split,
a burn, the table finished with its empty boxes)."""

from dataclasses import dataclass, field
from decimal import Decimal

# The walk's words (tags, notes, a card's note) are lazy: the replay shows them, the drills' many
# walks of a prefix never do, and translating each one as it is placed is most of a walk's time.
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy
from django.utils.translation import gettext_noop

from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS, normalize, suitless
from dealing.engine.money import fmt

RED_SUITS = {"H", "D"}


@dataclass
class CardView:
    text: str  # as logged
    event: int | None
    code: str | None = None  # canonical, None when it is not a card
    note: str = ""  # what happened to the card, in words (the card's tooltip)
    badge: str = ""  # a short label drawn on the card where the note matters at a glance (dark, tapo…)
    hidden: bool = False  # drawn turned over (dark card, hole card, tapo, first pass face down)
    struck: bool = False  # left play (an exposed card burned and replaced)
    flagged: bool = False
    across: bool = False  # laid across the hand: the card a blackjack double drew
    # As it lies at this point of the round, for the players (the drills' table in play):
    face_up: bool = True
    sideways: bool = False  # a dark card (ochko) or a tapo card (veintiuno), laid across
    replaced: bool = False  # an exposed card a new one has replaced: off the felt

    @property
    def rank(self) -> str:
        return RANK_NAMES.get(self.code[0], self.code[0]) if self.code else "?"

    @property
    def suit(self) -> str:  # "" for a card logged without its suit (the terminal's "6*"): a card of its rank
        return SUIT_SYMBOLS.get(self.code[1], "") if self.code else ""

    @property
    def red(self) -> bool:
        return bool(self.code) and self.code[1] in RED_SUITS

    @property
    def label(self) -> str:
        return f"{self.rank}{self.suit}" if self.code else self.text


@dataclass
class HandView:
    name: str
    cards: list[CardView] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    flagged: bool = False
    doubled: bool = False

    @property
    def label(self) -> str:
        return self.name


class Chips:
    """A stake's chips in play (`wagers`), found by wager and hand: on the felt and on the table in play."""

    wagers: list["WagerView"]

    def wager(self, name: str, hand: str | None = None) -> "WagerView | None":
        for w in self.wagers:
            if w.name == name and (hand is None or w.hand in (None, hand)):
                return w
        return None


@dataclass
class StakeView(Chips):
    id: str
    player: str
    amounts: list[tuple[str, str]] = field(default_factory=list)  # (wager label, amount)
    tags: list[str] = field(default_factory=list)
    flagged: bool = False
    wagers: list["WagerView"] = field(default_factory=list)  # the chips in play, with their settlement
    folded: bool = False


@dataclass
class BoxView:
    number: int
    stakes: list[StakeView] = field(default_factory=list)
    hands: list[HandView] = field(default_factory=list)
    flagged: bool = False

    @property
    def empty(self) -> bool:
        return not self.stakes and not any(h.cards for h in self.hands)


@dataclass
class TableLayout:
    variant: str
    box_word: str
    dealer_word: str
    boxes: list[BoxView]
    dealer: HandView
    burns: list[CardView] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)  # {"event", "text", "flagged"}
    bank: str = ""
    focus: int | None = None  # the box the last move was about

    @property
    def places(self) -> int:
        """How many hands lie side by side on the felt (a box counts once, a split box once per hand)."""
        return sum(max(1, len(b.hands)) for b in self.boxes)


def card(text, event: int | None, flagged: set, **kwargs) -> CardView:
    text = "" if text is None else str(text)
    return CardView(text=text, event=event, code=normalize(text) or suitless(text), flagged=event in flagged, **kwargs)


def amount(value) -> str:
    if value is None:
        return ""
    try:
        return fmt(Decimal(str(value)))
    except Exception:  # an amount the engine refused is shown as it was logged
        return str(value)


def int_or_none(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def stakes_by_box(doc: dict, key: str, wagers: tuple[tuple[str, str], ...]) -> dict[int, BoxView]:
    boxes: dict[int, BoxView] = {}
    for item in doc.get("stakes") or []:
        if not isinstance(item, dict):
            continue
        number = int_or_none(item.get(key))
        if number is None:
            continue
        box = boxes.setdefault(number, BoxView(number))
        view = StakeView(str(item.get("id", "")), str(item.get("player", "")))
        for name, label in wagers:
            if item.get(name) is not None:
                view.amounts.append((label, amount(item.get(name))))
        if item.get("owner"):
            view.tags.append(lazy("owner"))
        box.stakes.append(view)
    return boxes


def tag(h: HandView, text: str, i: int, flagged: set) -> None:
    h.tags.append(text)
    if i in flagged:
        h.flagged = True


def note(layout: TableLayout, i: int, text: str, flagged: set) -> None:
    layout.notes.append({"event": i, "text": text, "flagged": i in flagged})


def box_of(name) -> int | None:
    """The box (or seat) of a hand's name: "3.1" -> 3."""
    return int_or_none(str(name).split(".")[0]) if name is not None else None


def hand_in(boxes: dict[int, BoxView], name) -> HandView:
    """The hand of that name, laid on its box the first time it is named."""
    name = str(name)
    number = box_of(name) or 0
    box = boxes.setdefault(number, BoxView(number))
    for h in box.hands:
        if h.name == name:
            return h
    h = HandView(name)
    box.hands.append(h)
    return h


def split_hand(boxes: dict[int, BoxView], name, i: int, flagged: set) -> tuple[HandView, HandView] | None:
    """A split: the hand's two cards become the first cards of hands <name>.1 and <name>.2."""
    name = str(name)
    number = box_of(name) or 0
    box = boxes.setdefault(number, BoxView(number))
    for k, h in enumerate(box.hands):
        if h.name == name:
            first = HandView(f"{name}.1", cards=h.cards[:1], tags=[lazy("split")])
            second = HandView(f"{name}.2", cards=h.cards[1:], tags=[lazy("split")])
            first.flagged = second.flagged = i in flagged
            box.hands[k : k + 1] = [first, second]
            return first, second
    return None


def burn(layout: TableLayout, ev: dict, i: int, flagged: set) -> None:
    layout.burns.append(card(ev.get("card"), i, flagged, note=str(ev.get("reason") or lazy("burn"))))


def finish_table(layout: TableLayout, *, flagged_stakes=(), boxes: int | None = None) -> TableLayout:
    """Every box of the table drawn (empty ones too), in order, marked where a finding points."""
    stakes_flagged = set(flagged_stakes)
    known = {b.number for b in layout.boxes}
    for number in range(1, (boxes or 0) + 1):
        if number not in known:
            layout.boxes.append(BoxView(number))
    layout.boxes.sort(key=lambda b: b.number)
    for box in layout.boxes:
        for stake in box.stakes:
            stake.flagged = stake.id in stakes_flagged
        box.flagged = (
            any(s.flagged for s in box.stakes)
            or any(h.flagged for h in box.hands)
            or any(c.flagged for h in box.hands for c in h.cards)
        )
    return layout


# --- the chips on the felt, with their settlement ------------------------------------------------


@dataclass
class WagerView:
    name: str  # ante, bet, dealer_bet, double, insurance, jackpot
    label: str
    amount: str
    state: str = ""  # "", "pay", "take", "leave"
    paid: str = ""  # the amount paid, for "pay"
    hand: str | None = None


_WAGER_WORDS = {
    "ante": gettext_noop("Ante"),
    "bet": gettext_noop("Bet"),
    "dealer_bet": gettext_noop("dealer bet"),
    "double": gettext_noop("double"),
    "insurance": gettext_noop("insurance"),
    "jackpot": gettext_noop("jackpot"),
}


def wager_label(name: str) -> str:
    return _(_WAGER_WORDS[name]) if name in _WAGER_WORDS else name
