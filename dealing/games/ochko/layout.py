"""ochko drawn as a table (dealing.games.layout): boxes with their stakes (Ante, Bet, dealer bet),
dark cards across the box, the dealer's card opened after the Bets; incidents and burns."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy

from dealing.engine.cards import normalize
from dealing.engine.ochko import rules
from dealing.games.layout import (
    BoxView,
    CardView,
    HandView,
    Layout,
    TableLayout,
    WagerLine,
    WagerView,
    Walk,
    amount,
    burn,
    card,
    int_or_none,
    note,
    owed_and_wrong,
    tag,
    wager_label,
)

# The form's reading of a stored round (stakes, cards, first settlements), shared with the round form.
from dealing.games.ochko.builder import ochko_entry_from_document

# --- the walk ------------------------------------------------------------------------------------


class OchkoWalk(Walk):
    def amounts(self):
        return (("ante", lazy("Ante")), ("dealer_bet", lazy("dealer bet")))

    def chips(self, item: dict) -> list[WagerView]:
        chips = [WagerView("ante", wager_label("ante"), amount(item.get("ante")))]
        if item.get("dealer_bet") is not None:
            chips.append(WagerView("dealer_bet", wager_label("dealer_bet"), amount(item["dealer_bet"])))
        return chips

    def start(self) -> TableLayout:
        self.opened = self.reveal_all  # the dealer's card, face down until he opens it after the Bets
        self.replace_dealer = False
        self.pending_burn: list[str] = []
        return TableLayout("ochko", lazy("Box"), lazy("Dealer"), [], HandView(lazy("Dealer")))

    def hand(self, number) -> HandView:
        number = int_or_none(number)
        box = self.boxes.setdefault(number if number is not None else 0, BoxView(number or 0))
        if not box.hands:
            box.hands.append(HandView(str(box.number)))
        return box.hands[0]

    def apply(self, i: int, e, ev: dict) -> None:
        dealer, flagged = self.dealer, self.flagged
        if e == "deal":
            if ev.get("to") == "dealer":
                if self.replace_dealer:  # the new card for the exposed one
                    for c in dealer.cards:
                        c.replaced = True
                    self.replace_dealer = False
                dealer.cards.append(self.card(ev, i, face_up=self.opened))
            else:
                self.hand(ev.get("to")).cards.append(self.card(ev, i))
                self.focus(ev.get("to"))
        elif e == "hit":
            self.hand(ev.get("box")).cards.append(self.card(ev, i))
            self.focus(ev.get("box"))
        elif e == "dark":
            self.hand(ev.get("box")).cards.append(
                self.card(
                    ev,
                    i,
                    note=lazy("dark card"),
                    badge=lazy("dark"),
                    hidden=True,
                    face_up=self.reveal_all,
                    sideways=True,
                )
            )
            self.focus(ev.get("box"))
        elif e == "reveal":
            h = self.hand(ev.get("box"))
            for c in h.cards:
                c.face_up = True
                if c.hidden:
                    c.note = lazy("dark, revealed")
            tag(h, lazy("revealed"), i, flagged)
            self.focus(ev.get("box"))
        elif e == "stand":
            tag(self.hand(ev.get("box")), lazy("stands"), i, flagged)
            self.focus(ev.get("box"))
        elif e == "draw":
            dealer.cards.append(self.card(ev, i))
            self.focus(None)
        elif e == "bet":
            stake = self.stake(ev)
            if stake is not None:
                stake.amounts.append((lazy("Bet"), amount(ev.get("amount"))))
                stake.wagers.insert(0, WagerView("bet", wager_label("bet"), amount(ev.get("amount"))))
                self.focus(self.spot_of(stake.id))
        elif e == "fold":
            stake = self.stake(ev)
            if stake is not None:
                stake.tags.append(lazy("folds"))
                stake.folded = True
                self.focus(self.spot_of(stake.id))
        elif e == "open":
            self.opened = True
            for c in dealer.cards:
                c.face_up = True
            note(self.layout, i, lazy("The dealer opens his card."), flagged)
        elif e == "burn":
            code = normalize(str(ev.get("card")))
            if code in self.pending_burn:  # the card an incident already put with the burns
                self.pending_burn.remove(code)
                return
            burn(self.layout, ev, i, flagged)
        elif e == "incident":
            self.incident(ev, i)
        elif e in ("pay", "take", "leave"):
            self.settle(ev)
        elif e == "pay_sum":
            self.pay_sum(ev, i)

    def pay_sum(self, ev: dict, i: int) -> None:
        """Several boxes paid with one sum: every wager of their stakes that played shown paid, and
        the sum said once, with its boxes in the order paid."""
        numbers = [n for n in ev.get("boxes") or () if isinstance(n, int)]
        for n in numbers:
            box = self.boxes.get(n)
            for stake in box.stakes if box is not None else ():
                if stake.folded:
                    continue
                for wager in stake.wagers:
                    wager.state = "pay"
            self.focus(n)
        text = lazy("Boxes %(boxes)s paid with one sum: %(amount)s.") % {
            "boxes": ", ".join(str(n) for n in numbers),
            "amount": amount(ev.get("amount")),
        }
        note(self.layout, i, str(text), self.flagged)

    def incident(self, ev: dict, i: int) -> None:
        layout, dealer, flagged = self.layout, self.dealer, self.flagged
        kind = ev.get("kind")
        resolution = ev.get("resolution")
        text = str(ev.get("card"))
        who = lazy("reported by %(reporter)s, approved by %(approver)s") % {
            "reporter": ev.get("reported_by") or "—",
            "approver": ev.get("approved_by") or lazy("nobody"),
        }
        if kind == "dealer_card_exposed":
            self.replace_dealer = True
            if dealer.cards:
                exposed = dealer.cards[-1]
                exposed.struck, exposed.note, exposed.badge = True, lazy("exposed, burned"), lazy("exposed")
                exposed.face_up = True
                layout.burns.append(
                    CardView(exposed.text, i, exposed.code, lazy("exposed dealer card"), flagged=i in flagged)
                )
                self.pending_burn.append(exposed.code)
            what = lazy("The dealer's card %(card)s was exposed") % {"card": text}
        else:
            what = lazy("Card %(card)s was drawn by mistake") % {"card": text}
            if isinstance(resolution, dict):
                self.hand(resolution.get("to")).cards.append(
                    card(text, i, flagged, note=lazy("placed by the pit boss"), badge=lazy("placed"))
                )
            else:
                layout.burns.append(card(text, i, flagged, note=lazy("misdrawn")))
                self.pending_burn.append(normalize(text))
        if isinstance(resolution, dict):
            how = lazy("placed on box %(box)s") % {"box": resolution.get("to")}
        elif resolution == "under_shoe":
            how = lazy("put under the shoe")
        else:
            how = lazy("burned")
        note(layout, i, f"{what}: {how} ({who}).", flagged)


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
            lines = [
                WagerLine(labels[w], s.results.get(w), owed.get((s.id, w)), wrong.get((s.id, w), []))
                for w in ("bet", "ante", "dealer_bet")
                if (w != "bet" or not s.folded) and (w != "dealer_bet" or s.dealer_bet is not None)
            ]
            stakes.append({"stake": s, "lines": lines})
        drawn.append({"number": n, "box": box, "stakes": stakes})
    return {"boxes": drawn, "dealer_cards": entry.dealer_cards}


class OchkoLayout(Layout):
    variant = "ochko"
    walker = OchkoWalk
    round_template = "dealing/_round_ochko.html"

    def total(self, codes: list[str]) -> int:
        """What the cards count, as the engine's hand counts them (A 11, J 2, Q 3, K 4)."""
        hand = rules.Hand()
        for code in codes:
            hand.add(rules.CARD[code])
        return hand.total

    def round_page(self, record, outcome) -> dict:
        return round_page(record, outcome)

    def hand_tag(self, hand) -> str:
        codes = [c.code for c in hand.cards]
        if len(codes) == 2 and all(c[0] == "A" for c in codes):
            return _("ochko: pair of aces")
        if len(codes) == 5 and all(c[0] in "JQK" for c in codes):
            return _("ochko: five pictures")
        if hand.total == 21:
            return _("ochko")
        if hand.total > 21:
            return _("mnogo")
        return ""


LAYOUT = OchkoLayout()
