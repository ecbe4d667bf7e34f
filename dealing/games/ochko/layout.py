"""ochko drawn as a table (dealing.games.layout): boxes with their stakes (Ante, Bet, dealer bet),
dark cards across the box, the dealer's card opened after the Bets; incidents and burns."""

from django.utils.translation import gettext as _

from dealing.engine import ochko as rules
from dealing.engine.cards import normalize
from dealing.games.layout import (
    BoxView, CardView, HandView, Layout, LiveCard, LiveHand, LiveStake, LiveTable, SpotView, TableLayout, WagerLine,
    WagerView, amount, burn, card, events_of, int_or_none, money, note, owed_and_wrong, stakes_by_box, tag,
    wager_label,
)
# The form's reading of a stored round (stakes, cards, first settlements), shared with the round form.
from dealing.round_builder import ochko_entry_from_document


def total(codes: list[str]) -> int:
    """What the cards count, as the engine's hand counts them (A 11, J 2, Q 3, K 4)."""
    hand = rules.Hand()
    for code in codes:
        hand.add(rules._CARD[code])
    return hand.total


# --- a stored round ------------------------------------------------------------------------------

def walk(doc: dict, flagged: set) -> TableLayout:
    boxes = stakes_by_box(doc, "box", (("ante", _("Ante")), ("dealer_bet", _("dealer bet"))))
    stakes = {s.id: s for b in boxes.values() for s in b.stakes}
    dealer = HandView(_("Dealer"))
    layout = TableLayout("ochko", _("Box"), _("Dealer"), [], dealer)

    def hand(number) -> HandView:
        number = int_or_none(number)
        box = boxes.setdefault(number if number is not None else 0, BoxView(number or 0))
        if not box.hands:
            box.hands.append(HandView(str(box.number)))
        return box.hands[0]

    pending_burn: list[str] = []
    for i, e, ev in events_of(doc):
        if e == "deal":
            if ev.get("to") == "dealer":
                dealer.cards.append(card(ev.get("card"), i, flagged))
            else:
                hand(ev.get("to")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "hit":
            hand(ev.get("box")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "dark":
            hand(ev.get("box")).cards.append(card(ev.get("card"), i, flagged, note=_("dark card"), badge=_("dark"),
                                                    hidden=True))
        elif e == "reveal":
            h = hand(ev.get("box"))
            for c in h.cards:
                if c.hidden:
                    c.note = _("dark, revealed")
            tag(h, _("revealed"), i, flagged)
        elif e == "stand":
            tag(hand(ev.get("box")), _("stands"), i, flagged)
        elif e == "draw":
            dealer.cards.append(card(ev.get("card"), i, flagged))
        elif e == "bet":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.amounts.append((_("Bet"), amount(ev.get("amount"))))
        elif e == "fold":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.tags.append(_("folds"))
        elif e == "open":
            note(layout, i, _("The dealer opens his card."), flagged)
        elif e == "burn":
            code = normalize(str(ev.get("card")))
            if code in pending_burn:  # the card an incident already put with the burns
                pending_burn.remove(code)
                continue
            burn(layout, ev, i, flagged)
        elif e == "incident":
            _incident(layout, dealer, hand, ev, i, flagged, pending_burn)
    layout.boxes = list(boxes.values())
    return layout


def _incident(layout: TableLayout, dealer: HandView, hand, ev: dict, i: int, flagged: set, pending_burn: list) -> None:
    kind = ev.get("kind")
    resolution = ev.get("resolution")
    text = str(ev.get("card"))
    who = _("reported by %(reporter)s, approved by %(approver)s") % {
        "reporter": ev.get("reported_by") or "—", "approver": ev.get("approved_by") or _("nobody")}
    if kind == "dealer_card_exposed":
        if dealer.cards:
            exposed = dealer.cards[-1]
            exposed.struck, exposed.note, exposed.badge = True, _("exposed, burned"), _("exposed")
            layout.burns.append(CardView(exposed.text, i, exposed.code, _("exposed dealer card"), flagged=i in flagged))
            pending_burn.append(exposed.code)
        what = _("The dealer's card %(card)s was exposed") % {"card": text}
    else:
        what = _("Card %(card)s was drawn by mistake") % {"card": text}
        if isinstance(resolution, dict):
            hand(resolution.get("to")).cards.append(card(text, i, flagged, note=_("placed by the pit boss"),
                                                         badge=_("placed")))
        else:
            layout.burns.append(card(text, i, flagged, note=_("misdrawn")))
            pending_burn.append(normalize(text))
    if isinstance(resolution, dict):
        how = _("placed on box %(box)s") % {"box": resolution.get("to")}
    elif resolution == "under_shoe":
        how = _("put under the shoe")
    else:
        how = _("burned")
    note(layout, i, f"{what}: {how} ({who}).", flagged)


# --- the table in play ---------------------------------------------------------------------------

class Live(LiveTable):
    def __init__(self, doc, reveal_all, total):
        super().__init__(doc, reveal_all, total)
        self.opened = reveal_all
        self.replace_dealer = False
        for s in doc["stakes"]:
            stake = LiveStake(s["id"], s.get("player", ""))
            stake.wagers.append(WagerView("ante", wager_label("ante"), money(s["ante"])))
            if s.get("dealer_bet") is not None:
                stake.wagers.append(WagerView("dealer_bet", wager_label("dealer_bet"), money(s["dealer_bet"])))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["box"], SpotView(s["box"], self.spot_label(s["box"])))
            spot.stakes.append(stake)
            if not spot.hands:
                spot.hands.append(LiveHand(str(s["box"])))

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "dealer":
                if self.replace_dealer:
                    self.dealer.cards = []
                    self.replace_dealer = False
                self.dealer.cards.append(LiveCard(ev["card"], face_up=self.opened))
            elif ev["to"] in self.spots and self.spots[ev["to"]].hands:
                self.spots[ev["to"]].hands[0].cards.append(LiveCard(ev["card"]))
                self.focus = ev["to"]
        elif e == "bet":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                stake.wagers.insert(0, WagerView("bet", wager_label("bet"), money(ev["amount"])))
                self.focus = self.spot_of(stake.id)
        elif e == "fold":
            stake = self.stakes.get(ev["stake"])
            if stake is not None:
                stake.folded = True
                self.focus = self.spot_of(stake.id)
        elif e == "open":
            self.opened = True
            for c in self.dealer.cards:
                c.face_up = True
        elif e in ("hit", "dark"):
            spot = self.spots.get(ev["box"])
            if spot is not None and spot.hands:
                dark = e == "dark"
                spot.hands[0].cards.append(LiveCard(ev["card"], face_up=not dark or self.reveal_all, sideways=dark))
                self.focus = ev["box"]
        elif e == "stand":
            self.focus = ev["box"]
        elif e == "reveal":
            spot = self.spots.get(ev["box"])
            if spot is not None:
                for c in spot.hands[0].cards:
                    c.face_up = True
                self.focus = ev["box"]
        elif e == "draw":
            self.dealer.cards.append(LiveCard(ev["card"]))
            self.focus = None
        elif e == "incident" and ev.get("kind") == "dealer_card_exposed":
            self.replace_dealer = True
            if self.dealer.cards:
                self.dealer.cards[-1].face_up = True
        elif e in ("pay", "take", "leave"):
            self.settle(ev)

    def tag(self, hand: LiveHand, dealer: bool = False) -> None:
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


# --- the round page ------------------------------------------------------------------------------

def round_page(record, outcome) -> dict:
    """The stored round as boxes for the template: stakes, cards, what was logged and owed; the dealer's cards."""
    entry = ochko_entry_from_document(record.document)
    owed, wrong = owed_and_wrong(outcome, lambda w: (w.stake, w.wager))
    labels = {"bet": _("Bet"), "ante": _("Ante"), "dealer_bet": _("Dealer bet")}
    boxes = {b.number: b for b in entry.boxes}
    drawn = []
    for n in range(1, max([record.table.boxes, *boxes.keys()]) + 1):
        box = boxes.get(n)
        stakes = []
        for s in box.stakes if box else []:
            lines = [WagerLine(labels[w], s.results.get(w), owed.get((s.id, w)), wrong.get((s.id, w), []))
                     for w in ("bet", "ante", "dealer_bet") if (w != "bet" or not s.folded)
                     and (w != "dealer_bet" or s.dealer_bet is not None)]
            stakes.append({"stake": s, "lines": lines})
        drawn.append({"number": n, "box": box, "stakes": stakes})
    return {"boxes": drawn, "dealer_cards": entry.dealer_cards}


LAYOUT = Layout("ochko", walk=walk, live_table=Live, total=total, round_page=round_page)
