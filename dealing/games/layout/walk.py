"""The one walk of a round's log every game's layout makes (`Walk`), and the frame a game's layout
fills in (`Layout`): the stored table, the table in play, the round page."""

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy

from dealing.engine.money import fmt

from .felt import (
    CardView,
    HandView,
    StakeView,
    TableLayout,
    WagerView,
    box_of,
    burn,
    card,
    finish_table,
    hand_in,
    stakes_by_box,
)
from .live import LiveCard, LiveHand, LiveStake, SpotView, TableView


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
    # The template drawing the felt on the round page (templates/dealing/), reading what `round_page`
    # gives; "" when the game draws none there.
    round_template = ""

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

    def live(
        self, doc: dict, events: list[dict] | None = None, *, reveal_all: bool = False, name: str = ""
    ) -> TableView:
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
        return TableView(
            doc["variant"],
            name or table.get("name", ""),
            fmt(Decimal(str(table.get("min", 0)))),
            fmt(Decimal(str(table.get("max", 0)))),
            shown,
            dealer,
            self.dealer_label(doc),
            layout.focus,
        )

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


# --- a game without a layout of its own ------------------------------------------------------------


class CardsWalk(Walk):
    """The walk of a game that has no layout of its own (its `layout` slot empty): each card laid
    where its event says it went — the box or hand it names (`to`, `box`, `hand`), else the dealer —
    burns aside. It knows no game's events: it shows what was dealt, not how the game is played."""

    def start(self) -> TableLayout:
        return TableLayout(
            str(self.doc.get("variant") or ""), lazy("Box"), lazy("Dealer"), [], HandView(lazy("Dealer"))
        )

    def apply(self, i: int, e, ev: dict) -> None:
        if e == "burn":
            burn(self.layout, ev, i, self.flagged)
        elif e in ("pay", "take", "leave"):
            self.settle(ev)
        elif "card" in ev:
            place = next((ev[k] for k in ("to", "box", "hand") if ev.get(k) is not None), "dealer")
            if place == "dealer":
                self.dealer.cards.append(self.card(ev, i))
            else:
                hand_in(self.boxes, place).cards.append(self.card(ev, i))
                self.focus(box_of(place))


class CardsLayout(Layout):
    walker = CardsWalk

    def total(self, codes: list[str]) -> int | None:
        """No count: how the cards count is the game's, and this layout knows no game."""
        return None


# The table of a round whose game has no layout (the audit's replay page draws every round, the
# drills table every drill's).
CARDS = CardsLayout()
