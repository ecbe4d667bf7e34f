"""The table as the drill pages draw it: boxes (or seats) with their cards and chips, the dealer's
(or the bank's) cards, and what has been settled — built from a round log, or from a prefix of it
while a procedure drill is in progress. Presentation only: the rules stay the engine's.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS
from dealing.engine.money import fmt

OCHKO_VALUE = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
TEN_VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10,
             "A": 1}
TABLE_SPOTS = {"ochko": 6, "salon": 5, "online": 1}


def card_label(code: str) -> str:
    return RANK_NAMES.get(code[0], code[0]) + SUIT_SYMBOLS.get(code[1:], "") if len(code) == 2 else code


def ochko_total(cards: list[str]) -> int:
    return sum(OCHKO_VALUE.get(c[0], 0) for c in cards)


def best_total(cards: list[str]) -> int:
    """Blackjack and veintiuno: an ace counts 11 when that does not take the hand over 21."""
    hard = sum(TEN_VALUE.get(c[0], 0) for c in cards)
    if any(c[0] == "A" for c in cards) and hard <= 11:
        return hard + 10
    return hard


def total_of(variant: str, cards: list[str]) -> int:
    return ochko_total(cards) if variant == "ochko" else best_total(cards)


@dataclass
class CardView:
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
class HandView:
    name: str
    cards: list[CardView] = field(default_factory=list)
    total: int | None = None
    tag: str = ""  # "ochko", "mnogo", "bust", "blackjack", ...
    doubled: bool = False

    def refresh(self, variant: str) -> None:
        shown = [c.code for c in self.cards if c.face_up]
        if not self.cards or len(shown) != len(self.cards):
            self.total = None
            return
        self.total = total_of(variant, shown)


@dataclass
class WagerView:
    name: str  # ante, bet, dealer_bet, double, insurance, jackpot
    label: str
    amount: str
    state: str = ""  # "", "pay", "take", "leave"
    paid: str = ""  # the amount paid, for "pay"
    hand: str | None = None


@dataclass
class StakeView:
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
    hands: list[HandView] = field(default_factory=list)
    stakes: list[StakeView] = field(default_factory=list)
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
    dealer: HandView
    dealer_label: str
    focus: int | None = None  # the spot the current step is about


def wager_label(name: str) -> str:
    return {
        "ante": _("Ante"), "bet": _("Bet"), "dealer_bet": _("dealer bet"), "double": _("double"),
        "insurance": _("insurance"), "jackpot": _("jackpot"),
    }.get(name, name)


def build(doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False, name: str = "") -> TableView:
    """The table after `events` (the whole log when None). `reveal_all` shows every card face up
    (the payout drill's finished table)."""
    variant = doc["variant"]
    events = doc["events"] if events is None else events
    builder = {"ochko": _Ochko, "blackjack": _Blackjack, "veintiuno": _Veintiuno}[variant](doc, reveal_all)
    for ev in events:
        builder.apply(ev)
    return builder.finish(name)


class _Builder:
    spot_word = ""

    def __init__(self, doc: dict, reveal_all: bool):
        self.doc = doc
        self.variant = doc["variant"]
        self.reveal_all = reveal_all
        self.spots: dict[int, SpotView] = {}
        self.stakes: dict[str, StakeView] = {}
        self.dealer = HandView("dealer")
        self.focus = None
        for number in range(1, self.spot_count() + 1):
            self.spots[number] = SpotView(number, self.spot_label(number))

    def spot_count(self) -> int:
        return 6

    def spot_label(self, number: int) -> str:
        return _("Box %(n)s") % {"n": number}

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

    def finish(self, name: str) -> TableView:
        for spot in self.spots.values():
            for hand in spot.hands:
                hand.refresh(self.variant)
                self.tag(hand)
        self.dealer.refresh(self.variant)
        self.tag(self.dealer, dealer=True)
        table = self.doc.get("table", {})
        spots = [self.spots[n] for n in sorted(self.spots)]
        if self.focus in self.spots:
            self.spots[self.focus].active = True
        return TableView(self.variant, name or table.get("name", ""), fmt(Decimal(str(table.get("min", 0)))),
                         fmt(Decimal(str(table.get("max", 0)))), spots, self.dealer, self.dealer_label(), self.focus)

    def dealer_label(self) -> str:
        return _("Dealer")

    def tag(self, hand: HandView, dealer: bool = False) -> None:
        pass


def _money(value) -> str:
    return fmt(Decimal(str(value)))


class _Ochko(_Builder):
    def __init__(self, doc, reveal_all):
        super().__init__(doc, reveal_all)
        self.opened = reveal_all
        self.replace_dealer = False
        for s in doc["stakes"]:
            stake = StakeView(s["id"], s.get("player", ""))
            stake.wagers.append(WagerView("ante", wager_label("ante"), _money(s["ante"])))
            if s.get("dealer_bet") is not None:
                stake.wagers.append(WagerView("dealer_bet", wager_label("dealer_bet"), _money(s["dealer_bet"])))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["box"], SpotView(s["box"], self.spot_label(s["box"])))
            spot.stakes.append(stake)
            if not spot.hands:
                spot.hands.append(HandView(str(s["box"])))

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "dealer":
                if self.replace_dealer:
                    self.dealer.cards = []
                    self.replace_dealer = False
                self.dealer.cards.append(CardView(ev["card"], face_up=self.opened))
            elif ev["to"] in self.spots and self.spots[ev["to"]].hands:
                self.spots[ev["to"]].hands[0].cards.append(CardView(ev["card"]))
                self.focus = ev["to"]
        elif e == "bet":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                stake.wagers.insert(0, WagerView("bet", wager_label("bet"), _money(ev["amount"])))
                self.focus = self.spot_of(stake.id)
        elif e == "fold":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                stake.folded = True
                self.focus = self.spot_of(stake.id)
        elif e == "open":
            self.opened = True
            for card in self.dealer.cards:
                card.face_up = True
        elif e in ("hit", "dark"):
            spot = self.spots.get(ev["box"])
            if spot is not None and spot.hands:
                dark = e == "dark"
                spot.hands[0].cards.append(CardView(ev["card"], face_up=not dark or self.reveal_all, sideways=dark))
                self.focus = ev["box"]
        elif e == "stand":
            self.focus = ev["box"]
        elif e == "reveal":
            spot = self.spots.get(ev["box"])
            if spot is not None:
                for card in spot.hands[0].cards:
                    card.face_up = True
                self.focus = ev["box"]
        elif e == "draw":
            self.dealer.cards.append(CardView(ev["card"]))
            self.focus = None
        elif e == "incident" and ev.get("kind") == "dealer_card_exposed":
            self.replace_dealer = True
            if self.dealer.cards:
                self.dealer.cards[-1].face_up = True
        elif e in ("pay", "take", "leave"):
            self.settle(ev)

    def tag(self, hand: HandView, dealer: bool = False) -> None:
        codes = [c.code for c in hand.cards]
        if hand.total is None:
            return
        if len(codes) == 2 and all(c[0] == "A" for c in codes):
            hand.tag = _("ochko: pair of aces")
        elif len(codes) == 5 and all(c[0] in "JQK" for c in codes):
            hand.tag = _("ochko: five pictures")
        elif hand.total == 21:
            hand.tag = _("ochko")
        elif hand.total > 21:
            hand.tag = _("mnogo")


class _Blackjack(_Builder):
    def __init__(self, doc, reveal_all):
        self.preset = (doc.get("rules") or {}).get("preset", "salon")
        super().__init__(doc, reveal_all)
        self.dealer_plays = reveal_all
        self.even_money: set[str] = set()
        for s in doc["stakes"]:
            stake = StakeView(s["id"], s.get("player", ""))
            stake.wagers.append(WagerView("bet", wager_label("bet"), _money(s["bet"]), hand=str(s["box"])))
            if s.get("jackpot") is not None:
                stake.wagers.append(WagerView("jackpot", wager_label("jackpot"), _money(s["jackpot"]),
                                              hand=str(s["box"])))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["box"], SpotView(s["box"], self.spot_label(s["box"])))
            spot.stakes.append(stake)
            spot.hands.append(HandView(str(s["box"])))

    def spot_count(self) -> int:
        return TABLE_SPOTS.get(self.preset, 5)

    def hand(self, name: str) -> tuple[SpotView | None, HandView | None]:
        spot = self.spots.get(int(str(name).split(".")[0]))
        if spot is None:
            return None, None
        for hand in spot.hands:
            if hand.name == name:
                return spot, hand
        return spot, None

    def stake_at(self, spot: SpotView) -> StakeView | None:
        return spot.stakes[0] if spot.stakes else None

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "dealer":
                hole = len(self.dealer.cards) == 1
                self.dealer.cards.append(CardView(ev["card"], face_up=not hole or self.dealer_plays))
            else:
                spot, hand = self.hand(str(ev["to"]))
                if hand is not None:
                    hand.cards.append(CardView(ev["card"]))
                    self.focus = spot.number
        elif e in ("hit", "double"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                hand.cards.append(CardView(ev["card"]))
                self.focus = spot.number
                if e == "double":
                    hand.doubled = True
                    stake = self.stake_at(spot)
                    bet = stake.wager("bet", ev["hand"])
                    amount = ev.get("amount") or (bet.amount if bet else "0")
                    stake.wagers.append(WagerView("double", wager_label("double"), _money(amount), hand=ev["hand"]))
        elif e == "split":
            spot, hand = self.hand(ev["hand"])
            if hand is not None and len(hand.cards) == 2:
                k = spot.hands.index(hand)
                first, second = HandView(hand.name + ".1"), HandView(hand.name + ".2")
                first.cards, second.cards = [hand.cards[0]], [hand.cards[1]]
                spot.hands[k:k + 1] = [first, second]
                stake = self.stake_at(spot)
                bet = stake.wager("bet", hand.name)
                if bet is not None:
                    bet.hand = first.name
                    stake.wagers.append(WagerView("bet", wager_label("bet"), bet.amount, hand=second.name))
                self.focus = spot.number
        elif e == "insurance":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                spot = self.spots[self.spot_of(stake.id)]
                stake.wagers.append(WagerView("insurance", wager_label("insurance"), _money(ev["amount"]),
                                              hand=str(spot.number)))
        elif e == "draw":
            self.show_hole()
            self.dealer.cards.append(CardView(ev["card"]))
            self.focus = None
        elif e == "even_money":
            self.even_money.add(str(ev["stake"]))
        elif e in ("pay", "take", "leave"):
            # Even money is paid, and a lost insurance taken, before the dealer turns his hole card.
            early = (ev.get("wager") == "bet" and str(ev.get("stake")) in self.even_money) or (
                ev.get("wager") == "insurance" and ev["e"] == "take")
            if not early:
                self.show_hole()
            self.settle(ev)

    def show_hole(self) -> None:
        self.dealer_plays = True
        for card in self.dealer.cards:
            card.face_up = True

    def tag(self, hand: HandView, dealer: bool = False) -> None:
        codes = [c.code for c in hand.cards]
        if hand.total is None:
            return
        if len(codes) == 2 and hand.total == 21 and "." not in hand.name:
            hand.tag = _("blackjack")
        elif hand.total > 21:
            hand.tag = _("bust")


class _Veintiuno(_Builder):
    def __init__(self, doc, reveal_all):
        self.seats = sorted({s["seat"] for s in doc["stakes"]})
        super().__init__(doc, reveal_all)
        self.showdown = reveal_all
        for s in doc["stakes"]:
            stake = StakeView(s["id"], s.get("player", ""))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["seat"], SpotView(s["seat"], self.spot_label(s["seat"])))
            spot.label = f"{spot.label} · {s.get('player', '')}"
            spot.stakes.append(stake)
            spot.hands.append(HandView(str(s["seat"])))

    def spot_count(self) -> int:
        return max(self.seats or [1])

    def spot_label(self, number: int) -> str:
        return _("Seat %(n)s") % {"n": number}

    def dealer_label(self) -> str:
        return _("Bank: %(player)s") % {"player": self.doc.get("bank", "")}

    def hand(self, name: str):
        spot = self.spots.get(int(str(name).split(".")[0]))
        if spot is None:
            return None, None
        for hand in spot.hands:
            if hand.name == name:
                return spot, hand
        return spot, None

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "bank":
                first = not self.dealer.cards
                self.dealer.cards.append(CardView(ev["card"], face_up=not first or self.showdown))
            else:
                spot, hand = self.hand(str(ev["to"]))
                if hand is not None:
                    first = not hand.cards
                    hand.cards.append(CardView(ev["card"], face_up=not first or self.showdown))
                    self.focus = spot.number
        elif e == "bet":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                seat = self.spot_of(stake.id)
                stake.wagers.append(WagerView("bet", wager_label("bet"), _money(ev["amount"]), hand=str(seat)))
                self.focus = seat
        elif e in ("hit", "tapo"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                tapo = e == "tapo"
                hand.cards.append(CardView(ev["card"], face_up=not tapo or self.showdown, sideways=tapo))
                self.focus = spot.number
        elif e == "split":
            spot, hand = self.hand(ev["hand"])
            if hand is not None and len(hand.cards) == 2:
                k = spot.hands.index(hand)
                first, second = HandView(hand.name + ".1"), HandView(hand.name + ".2")
                for card in hand.cards:
                    card.face_up = True
                first.cards, second.cards = [hand.cards[0]], [hand.cards[1]]
                spot.hands[k:k + 1] = [first, second]
                stake = spot.stakes[0]
                bet = stake.wager("bet", hand.name)
                if bet is not None:
                    bet.hand = first.name
                    stake.wagers.append(WagerView("bet", wager_label("bet"), _money(ev.get("amount", bet.amount)),
                                                  hand=second.name))
                self.focus = spot.number
        elif e in ("stand", "declare", "withdraw"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                for card in hand.cards:
                    if not card.sideways:
                        card.face_up = True
                self.focus = spot.number
        elif e == "draw":
            self.open_bank()
            self.dealer.cards.append(CardView(ev["card"]))
            self.focus = None
        elif e in ("pay", "take", "leave"):
            self.open_bank()
            self.settle(ev)

    def open_bank(self) -> None:
        for card in self.dealer.cards:
            card.face_up = True

    def finish(self, name: str) -> TableView:
        view = super().finish(name)
        view.spots = [s for s in view.spots if s.number in self.seats] or view.spots
        return view

    def tag(self, hand: HandView, dealer: bool = False) -> None:
        if hand.total is not None and hand.total > 21:
            hand.tag = _("over 21")
