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
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

# The walk's words (tags, notes, a card's note) are lazy: the replay shows them, the drills' many
# walks of a prefix never do, and translating each one as it is placed is most of a walk's time.
from django.utils.translation import gettext as _, gettext_lazy as lazy, gettext_noop

from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS, label as card_label, normalize
from dealing.engine.money import fmt

RED_SUITS = {"H", "D"}


# --- the table as the walk leaves it (the audit replay draws it as is) -----------------------------

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
    doubled: bool = False

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
    wagers: list["WagerView"] = field(default_factory=list)  # the chips in play, with their settlement
    folded: bool = False

    def wager(self, name: str, hand: str | None = None) -> "WagerView | None":
        for w in self.wagers:
            if w.name == name and (hand is None or w.hand in (None, hand)):
                return w
        return None


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
            box.hands[k:k + 1] = [first, second]
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


# --- the table in play, as the players see it (the drills; drawn from the walk) ----------------------

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


_WAGER_WORDS = {
    "ante": gettext_noop("Ante"), "bet": gettext_noop("Bet"), "dealer_bet": gettext_noop("dealer bet"),
    "double": gettext_noop("double"), "insurance": gettext_noop("insurance"), "jackpot": gettext_noop("jackpot"),
}


def wager_label(name: str) -> str:
    return _(_WAGER_WORDS[name]) if name in _WAGER_WORDS else name


class Walk:
    """One walk of a round's log: the table after the events walked, for the replay and the drills
    alike. A game's subclass says where each of its events puts cards and chips (`apply`)."""

    seat_key = "box"  # what a stake of the round/1 document names its place by

    def __init__(self, doc: dict, *, flagged=frozenset(), reveal_all: bool = False):
        self.doc = doc
        self.flagged = set(flagged)
        self.reveal_all = reveal_all  # every card face up (the payout drill's finished table)
        self.boxes = stakes_by_box(doc, self.seat_key, self.amounts())
        self.stakes = {s.id: s for b in self.boxes.values() for s in b.stakes}
        for item in doc.get("stakes") or []:
            if isinstance(item, dict) and str(item.get("id", "")) in self.stakes:
                self.stakes[str(item.get("id", ""))].wagers.extend(self.chips(item))
        self.layout = self.start()
        self.dealer = self.layout.dealer

    def amounts(self) -> tuple[tuple[str, str], ...]:
        """The wagers of a stake the replay writes next to it: (field, label)."""
        return ()

    def chips(self, item: dict) -> list[WagerView]:
        """The chips a stake puts down before the deal."""
        return []

    def start(self) -> TableLayout:
        raise NotImplementedError

    def apply(self, i: int, e, ev: dict) -> None:
        raise NotImplementedError

    def walk(self, events) -> TableLayout:
        for i, ev in enumerate(events):
            if isinstance(ev, dict):
                self.apply(i, ev.get("e"), ev)
        self.layout.boxes = list(self.boxes.values())
        return self.layout

    # -- shared moves --

    def card(self, ev: dict, i: int, **kwargs) -> CardView:
        return card(ev.get("card"), i, self.flagged, **kwargs)

    def stake(self, ev: dict) -> StakeView | None:
        return self.stakes.get(str(ev.get("stake")))

    def spot_of(self, stake_id: str) -> int | None:
        for box in self.boxes.values():
            if any(s.id == stake_id for s in box.stakes):
                return box.number
        return None

    def settle(self, ev: dict) -> None:
        stake = self.stake(ev)
        if stake is None:
            return
        wager = stake.wager(ev.get("wager"), ev.get("hand"))
        if wager is None:
            return
        wager.state = ev["e"]
        if ev["e"] == "pay" and ev.get("amount") is not None:
            wager.paid = fmt(Decimal(str(ev["amount"])))
        self.focus(self.spot_of(stake.id))

    def focus(self, number) -> None:
        self.layout.focus = number


# --- a game's layout -----------------------------------------------------------------------------

class Layout:
    """How one game is drawn (module docstring): its `Walk`, what its cards count, and how the
    table in play labels its places. A game subclasses it once, in its package."""

    variant = ""
    walker: type[Walk] = Walk

    def total(self, codes: list[str]) -> int:
        """What the cards count, as the engine's hand of the game counts them."""
        raise NotImplementedError

    def round_page(self, record, outcome) -> dict:
        """The round page's context for the felt (the names its template reads); nothing by default."""
        return {}

    def table(self, doc: dict, *, flagged_events=(), flagged_stakes=(), boxes: int | None = None) -> TableLayout:
        """The table drawn from a round document. `flagged_events` / `flagged_stakes`: what findings name."""
        layout = self.walker(doc, flagged=flagged_events).walk(doc.get("events") or [])
        return finish_table(layout, flagged_stakes=flagged_stakes, boxes=boxes)

    def live(self, doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False,
             name: str = "") -> TableView:
        """The table after `events` (the whole log when None), as the players see it. `reveal_all`
        shows every card face up (the payout drill's finished table)."""
        layout = self.walker(doc, reveal_all=reveal_all).walk(doc["events"] if events is None else events)
        spots = {n: SpotView(n, self.spot_label(n)) for n in range(1, self.spot_count(doc) + 1)}
        for box in layout.boxes:
            spot = spots.setdefault(box.number, SpotView(box.number, self.spot_label(box.number)))
            for stake in box.stakes:
                spot.stakes.append(LiveStake(stake.id, stake.player, stake.wagers, stake.folded))
                spot.label = self.stake_label(spot.label, stake)
            spot.hands = [self.live_hand(h) for h in box.hands]
            if spot.stakes and not spot.hands:
                spot.hands = [LiveHand(str(box.number))]
        dealer = self.live_hand(layout.dealer, "dealer")
        for hand in [h for spot in spots.values() for h in spot.hands] + [dealer]:
            hand.refresh(self.total)
            hand.tag = self.hand_tag(hand) if hand.total is not None else ""
        if layout.focus in spots:
            spots[layout.focus].active = True
        table = doc.get("table", {})
        shown = [spots[n] for n in sorted(spots) if self.shows_spot(doc, n)] or [spots[n] for n in sorted(spots)]
        return TableView(doc["variant"], name or table.get("name", ""), fmt(Decimal(str(table.get("min", 0)))),
                         fmt(Decimal(str(table.get("max", 0)))), shown, dealer, self.dealer_label(doc),
                         layout.focus)

    @staticmethod
    def live_hand(hand: HandView, name: str | None = None) -> LiveHand:
        cards = [LiveCard(c.code or c.text, c.face_up, c.sideways) for c in hand.cards if not c.replaced]
        return LiveHand(hand.name if name is None else name, cards, doubled=hand.doubled)

    # -- the table in play: how its places are labelled and which are drawn --

    def spot_count(self, doc: dict) -> int:
        return 6

    def spot_label(self, number: int) -> str:
        return _("Box %(n)s") % {"n": number}

    def stake_label(self, label: str, stake: StakeView) -> str:
        return label

    def shows_spot(self, doc: dict, number: int) -> bool:
        return True

    def dealer_label(self, doc: dict) -> str:
        return _("Dealer")

    def hand_tag(self, hand: LiveHand) -> str:
        """A word for a hand whose every card is face up (`hand.total` is set): "bust", "ochko"…"""
        return ""
