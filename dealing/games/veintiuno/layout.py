"""veintiuno drawn as a table (dealing.games.layout): seats and the bank (a player), the first pass
dealt face down, tapo cards turned, hands opened into two (abrir); al puje and the bank passing on."""

from django.utils.translation import gettext as _

from dealing.engine import veintiuno as rules
from dealing.games.layout import (
    HandView, Layout, LiveCard, LiveHand, LiveStake, LiveTable, SpotView, TableLayout, TableView, WagerView, amount,
    burn, card, events_of, hand_in, money, note, split_hand, stakes_by_box, tag, wager_label,
)


def total(codes: list[str]) -> int:
    """What the cards count, as the engine's hand counts them (an ace 11 when it fits)."""
    hand = rules.Hand("count", None, None)
    for code in codes:
        hand.add(rules._CARD[code])
    return hand.best


# --- a stored round ------------------------------------------------------------------------------

def walk(doc: dict, flagged: set) -> TableLayout:
    boxes = stakes_by_box(doc, "seat", ())
    stakes = {s.id: s for b in boxes.values() for s in b.stakes}
    bank = HandView(_("Bank"))
    layout = TableLayout("veintiuno", _("Seat"), _("Bank"), [], bank)
    layout.bank = str(doc.get("bank") or "")
    if layout.bank:
        bank.name = _("Bank (%(player)s)") % {"player": layout.bank}
    first_pass: set[str] = set()
    for i, e, ev in events_of(doc):
        if e == "deal":
            to = ev.get("to")
            target = bank if to == "bank" else hand_in(boxes, to)
            key = "bank" if to == "bank" else str(to)
            down = key not in first_pass
            first_pass.add(key)
            target.cards.append(card(ev.get("card"), i, flagged, note=_("face down") if down else "", hidden=down))
        elif e == "bet":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.amounts.append((_("bet"), amount(ev.get("amount"))))
        elif e == "hit":
            hand_in(boxes, ev.get("hand")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "tapo":
            h = hand_in(boxes, ev.get("hand"))
            h.cards.append(card(ev.get("card"), i, flagged, note=_("tapo"), badge=_("tapo"), hidden=True))
            tag(h, _("tapo y quedo"), i, flagged)
        elif e == "split":
            split_hand(boxes, ev.get("hand"), i, flagged)
        elif e in ("stand", "declare", "withdraw", "void"):
            words = {"stand": _("stands"), "declare": _("declares"), "withdraw": _("withdraws"), "void": _("voids")}
            tag(hand_in(boxes, ev.get("hand")), words[e], i, flagged)
        elif e == "draw":
            bank.cards.append(card(ev.get("card"), i, flagged))
        elif e == "puje":
            note(layout, i, _("The bank sends the table al puje."), flagged)
        elif e == "bank_to":
            note(layout, i, _("The bank passes to %(player)s.") % {"player": ev.get("player")}, flagged)
        elif e == "burn":
            burn(layout, ev, i, flagged)
    layout.boxes = list(boxes.values())
    return layout


# --- the table in play ---------------------------------------------------------------------------

class Live(LiveTable):
    def __init__(self, doc, reveal_all, total):
        self.seats = sorted({s["seat"] for s in doc["stakes"]})  # before the spots are laid out
        super().__init__(doc, reveal_all, total)
        self.showdown = reveal_all
        for s in doc["stakes"]:
            stake = LiveStake(s["id"], s.get("player", ""))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["seat"], SpotView(s["seat"], self.spot_label(s["seat"])))
            spot.label = f"{spot.label} · {s.get('player', '')}"
            spot.stakes.append(stake)
            spot.hands.append(LiveHand(str(s["seat"])))

    def spot_count(self) -> int:
        return max(self.seats or [1])

    def spot_label(self, number: int) -> str:
        return _("Seat %(n)s") % {"n": number}

    def dealer_label(self) -> str:
        return _("Bank: %(player)s") % {"player": self.doc.get("bank", "")}

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "bank":
                first = not self.dealer.cards
                self.dealer.cards.append(LiveCard(ev["card"], face_up=not first or self.showdown))
            else:
                spot, hand = self.hand(str(ev["to"]))
                if hand is not None:
                    first = not hand.cards
                    hand.cards.append(LiveCard(ev["card"], face_up=not first or self.showdown))
                    self.focus = spot.number
        elif e == "bet":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                seat = self.spot_of(stake.id)
                stake.wagers.append(WagerView("bet", wager_label("bet"), money(ev["amount"]), hand=str(seat)))
                self.focus = seat
        elif e in ("hit", "tapo"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                tapo = e == "tapo"
                hand.cards.append(LiveCard(ev["card"], face_up=not tapo or self.showdown, sideways=tapo))
                self.focus = spot.number
        elif e == "split":
            spot, hand = self.hand(ev["hand"])
            if hand is not None and len(hand.cards) == 2:
                k = spot.hands.index(hand)
                first, second = LiveHand(hand.name + ".1"), LiveHand(hand.name + ".2")
                for c in hand.cards:
                    c.face_up = True
                first.cards, second.cards = [hand.cards[0]], [hand.cards[1]]
                spot.hands[k:k + 1] = [first, second]
                stake = spot.stakes[0]
                bet = stake.wager("bet", hand.name)
                if bet is not None:
                    bet.hand = first.name
                    stake.wagers.append(WagerView("bet", wager_label("bet"), money(ev.get("amount", bet.amount)),
                                                  hand=second.name))
                self.focus = spot.number
        elif e in ("stand", "declare", "withdraw"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                for c in hand.cards:
                    if not c.sideways:
                        c.face_up = True
                self.focus = spot.number
        elif e == "draw":
            self.open_bank()
            self.dealer.cards.append(LiveCard(ev["card"]))
            self.focus = None
        elif e in ("pay", "take", "leave"):
            self.open_bank()
            self.settle(ev)

    def open_bank(self) -> None:
        for c in self.dealer.cards:
            c.face_up = True

    def finish(self, name: str) -> TableView:
        view = super().finish(name)
        view.spots = [s for s in view.spots if s.number in self.seats] or view.spots
        return view

    def tag(self, hand: LiveHand, dealer: bool = False) -> None:
        if hand.total is not None and hand.total > 21:
            hand.tag = _("over 21")


LAYOUT = Layout("veintiuno", walk=walk, live_table=Live, total=total)
