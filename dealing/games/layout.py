"""The views of a table every game draws with, and the frame its layout fills in.

A game's layout (`dealing/games/<variant>/layout.py`, the `layout` slot of its GAME) is one object,
a `Layout`, that draws a round of that game wherever a round is drawn:

* `table(doc, ...)`: a stored round as it stood at the end, every card with the event that placed
  it (the audit replay);
* `live(doc, events, ...)`: the table after a prefix of the log, as the players see it — face-down
  cards, chips with their settlement, the box the step is about (the drills table);
* `round_page(record, outcome)`: what the round page draws of it, stakes and wagers with what was
  logged next to what the engine's outcome says was owed.

It only places cards and chips: what a wager was owed, what a hand counts and what is wrong are
the engine's (its Outcome, its hands), never worked out again here.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS, label as card_label, normalize
from dealing.engine.money import fmt

RED_SUITS = {"H", "D"}


# --- a stored round (the audit replay) ---------------------------------------------------------------

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

    @property
    def rank(self) -> str:
        return RANK_NAMES.get(self.code[0], self.code[0]) if self.code else "?"

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.code[1]] if self.code else ""

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

    @property
    def label(self) -> str:
        return self.name


@dataclass
class StakeView:
    id: str
    player: str
    amounts: list[tuple[str, str]] = field(default_factory=list)  # (wager label, amount)
    tags: list[str] = field(default_factory=list)
    flagged: bool = False


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

    @property
    def places(self) -> int:
        """How many hands lie side by side on the felt (a box counts once, a split box once per hand)."""
        return sum(max(1, len(b.hands)) for b in self.boxes)


def card(text, event: int | None, flagged: set, **kwargs) -> CardView:
    text = "" if text is None else str(text)
    return CardView(text=text, event=event, code=normalize(text), flagged=event in flagged, **kwargs)


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


def events_of(doc: dict):
    """(index, kind, event) of every event that is an object; a stored log may hold anything."""
    for i, ev in enumerate(doc.get("events") or []):
        if isinstance(ev, dict):
            yield i, ev.get("e"), ev


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
            view.tags.append(_("owner"))
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


def split_hand(boxes: dict[int, BoxView], name, i: int, flagged: set) -> None:
    """A split: the hand's two cards become the first cards of hands <name>.1 and <name>.2."""
    name = str(name)
    number = box_of(name) or 0
    box = boxes.setdefault(number, BoxView(number))
    for k, h in enumerate(box.hands):
        if h.name == name:
            first = HandView(f"{name}.1", cards=h.cards[:1], tags=[_("split")])
            second = HandView(f"{name}.2", cards=h.cards[1:], tags=[_("split")])
            first.flagged = second.flagged = i in flagged
            box.hands[k:k + 1] = [first, second]
            return


def burn(layout: TableLayout, ev: dict, i: int, flagged: set) -> None:
    layout.burns.append(card(ev.get("card"), i, flagged, note=str(ev.get("reason") or _("burn"))))


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
        box.flagged = (any(s.flagged for s in box.stakes) or any(h.flagged for h in box.hands)
                       or any(c.flagged for h in box.hands for c in h.cards))
    return layout


# --- the round page ------------------------------------------------------------------------------

@dataclass
class WagerLine:
    label: str
    logged: object = None  # the builder's Result: what the log settled
    owed: object = None  # engine Owed
    findings: list = field(default_factory=list)


@dataclass
class HandDrawing:
    """A hand on the round page: its cards as they lie, its halves when it split."""

    name: str
    cards: list = field(default_factory=list)  # (code, how) with how "", "inherited" or "across"
    split: bool = False
    doubled: bool = False
    children: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # WagerLine: bet, double
    verdict: str = ""

    @property
    def is_root(self) -> bool:
        return "." not in self.name


def owed_and_wrong(outcome, key, finding_key=None) -> tuple[dict, dict[tuple, list]]:
    """The engine's owed wagers by `key(owed)` and its findings about a wager by `finding_key(finding)`
    (`key` too when None): (stake, [hand,] wager). Nothing when the engine could not read the round."""
    finding_key = finding_key or key
    owed = {key(w): w for w in (outcome.wagers or [])} if outcome else {}
    wrong: dict[tuple, list] = {}
    for f in outcome.findings if outcome else []:
        if f.stake and f.wager:
            wrong.setdefault(finding_key(f), []).append(f)
    return owed, wrong


# --- the table in play (the drills) ----------------------------------------------------------------

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
class WagerView:
    name: str  # ante, bet, dealer_bet, double, insurance, jackpot
    label: str
    amount: str
    state: str = ""  # "", "pay", "take", "leave"
    paid: str = ""  # the amount paid, for "pay"
    hand: str | None = None


@dataclass
class LiveStake:
    id: str
    player: str
    wagers: list[WagerView] = field(default_factory=list)
    folded: bool = False

    def wager(self, name: str, hand: str | None = None) -> WagerView | None:
        for w in self.wagers:
            if w.name == name and (hand is None or w.hand in (None, hand)):
                return w
        return None


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


def wager_label(name: str) -> str:
    return {
        "ante": _("Ante"), "bet": _("Bet"), "dealer_bet": _("dealer bet"), "double": _("double"),
        "insurance": _("insurance"), "jackpot": _("jackpot"),
    }.get(name, name)


def money(value) -> str:
    return fmt(Decimal(str(value)))


class LiveTable:
    """The table in play, event by event; a game's layout says how its events move cards and chips."""

    def __init__(self, doc: dict, reveal_all: bool, total: Callable[[list[str]], int]):
        self.doc = doc
        self.variant = doc["variant"]
        self.reveal_all = reveal_all
        self.total = total
        self.spots: dict[int, SpotView] = {}
        self.stakes: dict[str, LiveStake] = {}
        self.dealer = LiveHand("dealer")
        self.focus = None
        for number in range(1, self.spot_count() + 1):
            self.spots[number] = SpotView(number, self.spot_label(number))

    def spot_count(self) -> int:
        return 6

    def spot_label(self, number: int) -> str:
        return _("Box %(n)s") % {"n": number}

    def dealer_label(self) -> str:
        return _("Dealer")

    def apply(self, ev: dict) -> None:
        raise NotImplementedError

    def tag(self, hand: LiveHand, dealer: bool = False) -> None:
        pass

    def settle(self, ev: dict) -> None:
        stake = self.stakes.get(str(ev.get("stake")))
        if stake is None:
            return
        wager = stake.wager(ev.get("wager"), ev.get("hand"))
        if wager is None:
            return
        wager.state = ev["e"]
        if ev["e"] == "pay" and ev.get("amount") is not None:
            wager.paid = fmt(Decimal(str(ev["amount"])))
        self.focus = self.spot_of(stake.id)

    def spot_of(self, stake_id: str) -> int | None:
        for spot in self.spots.values():
            if any(s.id == stake_id for s in spot.stakes):
                return spot.number
        return None

    def hand(self, name: str) -> tuple[SpotView | None, LiveHand | None]:
        spot = self.spots.get(int(str(name).split(".")[0]))
        if spot is None:
            return None, None
        for hand in spot.hands:
            if hand.name == name:
                return spot, hand
        return spot, None

    def finish(self, name: str) -> TableView:
        for spot in self.spots.values():
            for hand in spot.hands:
                hand.refresh(self.total)
                self.tag(hand)
        self.dealer.refresh(self.total)
        self.tag(self.dealer, dealer=True)
        table = self.doc.get("table", {})
        spots = [self.spots[n] for n in sorted(self.spots)]
        if self.focus in self.spots:
            self.spots[self.focus].active = True
        return TableView(self.variant, name or table.get("name", ""), fmt(Decimal(str(table.get("min", 0)))),
                         fmt(Decimal(str(table.get("max", 0)))), spots, self.dealer, self.dealer_label(), self.focus)


# --- a game's layout -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """How one game is drawn (module docstring). `walk(doc, flagged)` lays out a stored round,
    `live_table` is its LiveTable, `round_page(record, outcome)` gives the round page's context
    (the names its template reads) and `total(codes)` is what cards count, by the engine's hands."""

    variant: str
    walk: Callable[[dict, set], TableLayout]
    live_table: type[LiveTable]
    total: Callable[[list[str]], int]
    round_page: Callable[[object, object], dict] = lambda record, outcome: {}

    def table(self, doc: dict, *, flagged_events=(), flagged_stakes=(), boxes: int | None = None) -> TableLayout:
        """The table drawn from a round document. `flagged_events` / `flagged_stakes`: what findings name."""
        return finish_table(self.walk(doc, set(flagged_events)), flagged_stakes=flagged_stakes, boxes=boxes)

    def live(self, doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False,
             name: str = "") -> TableView:
        """The table after `events` (the whole log when None). `reveal_all` shows every card face up
        (the payout drill's finished table)."""
        table = self.live_table(doc, reveal_all, self.total)
        for ev in doc["events"] if events is None else events:
            table.apply(ev)
        return table.finish(name)
