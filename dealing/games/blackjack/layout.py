"""blackjack drawn as a table (dealing.games.layout): a box's hands side by side once it splits,
the double's card across the hand, the dealer's hole card turned until he plays; insurance, even
money and the jackpot."""

from django.utils.translation import gettext as _

from dealing import engine
from dealing.engine import blackjack as rules
from dealing.games.layout import (
    HandDrawing, HandView, Layout, LiveCard, LiveHand, LiveStake, LiveTable, SpotView, TableLayout, WagerLine,
    WagerView, amount, burn, card, events_of, hand_in, money, note, owed_and_wrong, split_hand, stakes_by_box, tag,
    wager_label,
)
# The form's reading of a stored round (boxes, hands, first settlements), shared with the round form.
from dealing.round_builder_blackjack import blackjack_entry_from_document, full_cards

# How many boxes the felt of each preset has.
TABLE_SPOTS = {"ochko": 6, "salon": 5, "online": 1}


def total(codes: list[str]) -> int:
    """What the cards count, as the engine's hand counts them (an ace 11 when it fits)."""
    hand = rules.Hand()
    for code in codes:
        hand.add(rules._CARD[code])
    return hand.best


# --- a stored round ------------------------------------------------------------------------------

def walk(doc: dict, flagged: set) -> TableLayout:
    boxes = stakes_by_box(doc, "box", (("bet", _("bet")), ("jackpot", _("jackpot"))))
    stakes = {s.id: s for b in boxes.values() for s in b.stakes}
    dealer = HandView(_("Dealer"))
    layout = TableLayout("blackjack", _("Box"), _("Dealer"), [], dealer)
    for i, e, ev in events_of(doc):
        if e == "deal":
            if ev.get("to") == "dealer":
                hole = len(dealer.cards) == 1
                dealer.cards.append(card(ev.get("card"), i, flagged, note=_("hole card") if hole else "",
                                         hidden=hole))
            else:
                hand_in(boxes, ev.get("to")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "hit":
            hand_in(boxes, ev.get("hand")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "double":
            h = hand_in(boxes, ev.get("hand"))
            h.cards.append(card(ev.get("card"), i, flagged, note=_("double"), badge=_("double"), across=True))
            tag(h, _("doubled"), i, flagged)
        elif e == "split":
            split_hand(boxes, ev.get("hand"), i, flagged)
        elif e == "stand":
            tag(hand_in(boxes, ev.get("hand")), _("stands"), i, flagged)
        elif e == "draw":
            dealer.cards.append(card(ev.get("card"), i, flagged))
        elif e == "peek":
            note(layout, i, _("The dealer checks the hole card."), flagged)
        elif e in ("insurance", "even_money"):
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                if e == "insurance":
                    stake.amounts.append((_("insurance"), amount(ev.get("amount"))))
                else:
                    stake.tags.append(_("even money"))
        elif e == "burn":
            burn(layout, ev, i, flagged)
    layout.boxes = list(boxes.values())
    return layout


# --- the table in play ---------------------------------------------------------------------------

class Live(LiveTable):
    def __init__(self, doc, reveal_all, total):
        self.preset = (doc.get("rules") or {}).get("preset", "salon")  # before the spots are laid out
        super().__init__(doc, reveal_all, total)
        self.dealer_plays = reveal_all
        self.even_money: set[str] = set()
        for s in doc["stakes"]:
            stake = LiveStake(s["id"], s.get("player", ""))
            stake.wagers.append(WagerView("bet", wager_label("bet"), money(s["bet"]), hand=str(s["box"])))
            if s.get("jackpot") is not None:
                stake.wagers.append(WagerView("jackpot", wager_label("jackpot"), money(s["jackpot"]),
                                              hand=str(s["box"])))
            self.stakes[s["id"]] = stake
            spot = self.spots.setdefault(s["box"], SpotView(s["box"], self.spot_label(s["box"])))
            spot.stakes.append(stake)
            spot.hands.append(LiveHand(str(s["box"])))

    def spot_count(self) -> int:
        return TABLE_SPOTS.get(self.preset, 5)

    def stake_at(self, spot: SpotView) -> LiveStake | None:
        return spot.stakes[0] if spot.stakes else None

    def apply(self, ev: dict) -> None:
        e = ev.get("e")
        if e == "deal":
            if ev["to"] == "dealer":
                hole = len(self.dealer.cards) == 1
                self.dealer.cards.append(LiveCard(ev["card"], face_up=not hole or self.dealer_plays))
            else:
                spot, hand = self.hand(str(ev["to"]))
                if hand is not None:
                    hand.cards.append(LiveCard(ev["card"]))
                    self.focus = spot.number
        elif e in ("hit", "double"):
            spot, hand = self.hand(ev["hand"])
            if hand is not None:
                hand.cards.append(LiveCard(ev["card"]))
                self.focus = spot.number
                if e == "double":
                    hand.doubled = True
                    stake = self.stake_at(spot)
                    bet = stake.wager("bet", ev["hand"])
                    size = ev.get("amount") or (bet.amount if bet else "0")
                    stake.wagers.append(WagerView("double", wager_label("double"), money(size), hand=ev["hand"]))
        elif e == "split":
            spot, hand = self.hand(ev["hand"])
            if hand is not None and len(hand.cards) == 2:
                k = spot.hands.index(hand)
                first, second = LiveHand(hand.name + ".1"), LiveHand(hand.name + ".2")
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
                stake.wagers.append(WagerView("insurance", wager_label("insurance"), money(ev["amount"]),
                                              hand=str(spot.number)))
        elif e == "draw":
            self.show_hole()
            self.dealer.cards.append(LiveCard(ev["card"]))
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
        for c in self.dealer.cards:
            c.face_up = True

    def tag(self, hand: LiveHand, dealer: bool = False) -> None:
        codes = [c.code for c in hand.cards]
        if hand.total is None:
            return
        if len(codes) == 2 and hand.total == 21 and "." not in hand.name:
            hand.tag = _("blackjack")
        elif hand.total > 21:
            hand.tag = _("bust")


# --- the round page ------------------------------------------------------------------------------

def round_page(record, outcome) -> dict:
    """The stored round for the template: boxes, hands side by side, doubles, insurance, even money
    and the jackpot, what was logged and what was owed; the dealer's cards."""
    entry = blackjack_entry_from_document(record.document)
    owed, wrong = owed_and_wrong(outcome, lambda w: (w.stake, w.hand, w.wager),
                                 lambda f: (f.stake, f.hand or "", f.wager))
    labels = {"bet": _("Bet"), "double": _("Double"), "insurance": _("Insurance"), "jackpot": _("Jackpot")}

    def line(sid, hand, wager, logged):
        return WagerLine(labels[wager], logged, owed.get((sid, hand, wager)), wrong.get((sid, hand, wager), []))

    def draw(box, hand) -> HandDrawing:
        cards = full_cards(box, hand)
        inherited = len(cards) - len(hand.cards)
        view = HandDrawing(hand.name, split=hand.split, doubled=hand.double_at is not None)
        for k, code in enumerate(cards):
            own = k - inherited
            how = "inherited" if own < 0 else "across" if hand.double_at == own else ""
            view.cards.append((code, how))
        if hand.split:
            view.children = [draw(box, box.hand(f"{hand.name}.{side}")) for side in (1, 2)]
        else:
            sid = box.stake.id
            view.lines = [line(sid, hand.name, "bet", hand.results.get("bet"))]
            if hand.double_at is not None or (sid, hand.name, "double") in owed:
                view.lines.append(line(sid, hand.name, "double", hand.results.get("double")))
            bet = owed.get((sid, hand.name, "bet"))
            view.verdict = bet.why if bet is not None else ""
        return view

    boxes = {b.number: b for b in entry.boxes}
    drawn = []
    for n in range(1, max([record.table.boxes, *boxes.keys()]) + 1):
        box = boxes.get(n)
        if box is None:
            drawn.append({"number": n, "box": None})
            continue
        s = box.stake
        lines = []
        if s.insurance is not None:
            lines.append(line(s.id, box.root.name, "insurance", s.results.get("insurance")))
        if s.jackpot is not None:
            lines.append(line(s.id, box.root.name, "jackpot", s.results.get("jackpot")))
        drawn.append({"number": n, "box": box, "stake": s, "hand": draw(box, box.root), "lines": lines,
                      "leaves": len(box.leaves())})
    return {"blackjack": {"boxes": drawn, "up": entry.dealer_up, "hole": entry.dealer_hole,
                          "draws": entry.dealer_draws,
                          "rules": engine.house_rules("blackjack", record.document.get("rules"))
                          if outcome is not None else {}}}


LAYOUT = Layout("blackjack", walk=walk, live_table=Live, total=total, round_page=round_page)
