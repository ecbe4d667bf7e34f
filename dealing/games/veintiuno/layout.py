"""veintiuno drawn as a table (dealing.games.layout): seats and the bank (a player), the first pass
dealt face down, tapo cards turned, hands opened into two (abrir); al puje and the bank passing on."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy

from dealing.engine.veintiuno import rules
from dealing.games.layout import (
    HandView,
    Layout,
    TableLayout,
    WagerView,
    Walk,
    amount,
    box_of,
    burn,
    hand_in,
    note,
    split_hand,
    tag,
    wager_label,
)

# What a player's decision about his hand is called on the felt.
DECISIONS = {"stand": lazy("stands"), "declare": lazy("declares"), "withdraw": lazy("withdraws"), "void": lazy("voids")}


# --- the walk ------------------------------------------------------------------------------------


class VeintiunoWalk(Walk):
    seat_key = "seat"

    def start(self) -> TableLayout:
        self.first_pass: set[str] = set()
        layout = TableLayout("veintiuno", lazy("Seat"), lazy("Bank"), [], HandView(lazy("Bank")))
        layout.bank = str(self.doc.get("bank") or "")
        if layout.bank:
            layout.dealer.name = lazy("Bank (%(player)s)") % {"player": layout.bank}
        return layout

    def apply(self, i: int, e, ev: dict) -> None:
        boxes, bank, flagged = self.boxes, self.dealer, self.flagged
        if e == "deal":
            to = ev.get("to")
            target = bank if to == "bank" else hand_in(boxes, to)
            key = "bank" if to == "bank" else str(to)
            down = key not in self.first_pass  # the first pass is dealt face down
            self.first_pass.add(key)
            target.cards.append(
                self.card(
                    ev, i, note=lazy("face down") if down else "", hidden=down, face_up=not down or self.reveal_all
                )
            )
            if to != "bank":
                self.focus(box_of(to))
        elif e == "bet":
            stake = self.stake(ev)
            if stake is not None:
                seat = self.spot_of(stake.id)
                stake.amounts.append((lazy("bet"), amount(ev.get("amount"))))
                stake.wagers.append(WagerView("bet", wager_label("bet"), amount(ev.get("amount")), hand=str(seat)))
                self.focus(seat)
        elif e == "hit":
            hand_in(boxes, ev.get("hand")).cards.append(self.card(ev, i))
            self.focus(box_of(ev.get("hand")))
        elif e == "tapo":
            h = hand_in(boxes, ev.get("hand"))
            h.cards.append(
                self.card(
                    ev, i, note=lazy("tapo"), badge=lazy("tapo"), hidden=True, face_up=self.reveal_all, sideways=True
                )
            )
            tag(h, lazy("tapo y quedo"), i, flagged)
            self.focus(box_of(ev.get("hand")))
        elif e == "split":
            name = str(ev.get("hand"))
            halves = split_hand(boxes, name, i, flagged)
            for c in [c for h in halves or () for c in h.cards]:  # an opened pair is shown
                c.face_up = True
            stakes = boxes[box_of(name) or 0].stakes
            if halves is not None and stakes:
                bet = stakes[0].wager("bet", name)
                if bet is not None:
                    bet.hand = halves[0].name
                    stakes[0].wagers.append(
                        WagerView("bet", wager_label("bet"), amount(ev.get("amount", bet.amount)), hand=halves[1].name)
                    )
            self.focus(box_of(name))
        elif e in ("stand", "declare", "withdraw", "void"):
            h = hand_in(boxes, ev.get("hand"))
            tag(h, DECISIONS[e], i, flagged)
            if e != "void":  # the hand is shown, but for a tapo card
                for c in h.cards:
                    if not c.sideways:
                        c.face_up = True
                self.focus(box_of(ev.get("hand")))
        elif e == "draw":
            self.open_bank()
            bank.cards.append(self.card(ev, i))
            self.focus(None)
        elif e == "puje":
            note(self.layout, i, lazy("The bank sends the table al puje."), flagged)
        elif e == "bank_to":
            note(self.layout, i, lazy("The bank passes to %(player)s.") % {"player": ev.get("player")}, flagged)
        elif e == "burn":
            burn(self.layout, ev, i, flagged)
        elif e in ("pay", "take", "leave"):
            self.open_bank()
            self.settle(ev)

    def open_bank(self) -> None:
        for c in self.dealer.cards:
            c.face_up = True


class VeintiunoLayout(Layout):
    variant = "veintiuno"
    walker = VeintiunoWalk

    def total(self, codes: list[str]) -> int:
        """What the cards count, as the engine's hand counts them (an ace 11 when it fits)."""
        hand = rules.Hand("count", None, None)
        for code in codes:
            hand.add(rules.CARD[code])
        return hand.best

    @staticmethod
    def seats(doc: dict) -> list[int]:
        return sorted({s["seat"] for s in doc["stakes"]})

    def spot_count(self, doc: dict) -> int:
        return max(self.seats(doc) or [1])

    def spot_label(self, number: int) -> str:
        return _("Seat %(n)s") % {"n": number}

    def stake_label(self, label: str, stake) -> str:
        return f"{label} · {stake.player}"

    def shows_spot(self, doc: dict, number: int) -> bool:
        return number in self.seats(doc)

    def dealer_label(self, doc: dict) -> str:
        return _("Bank: %(player)s") % {"player": doc.get("bank", "")}

    def hand_tag(self, hand) -> str:
        return _("over 21") if hand.total > 21 else ""


LAYOUT = VeintiunoLayout()
