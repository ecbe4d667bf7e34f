"""blackjack drawn as a table (dealing.games.layout): a box's hands side by side once it splits,
the double's card across the hand, the dealer's hole card turned until he plays; insurance, even
money and the jackpot."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as lazy

from dealing import engine
from dealing.engine.blackjack import rules

# The form's reading of a stored round (boxes, hands, first settlements), shared with the round form.
from dealing.games.blackjack.builder import blackjack_entry_from_document, full_cards
from dealing.games.layout import (
    HandDrawing,
    HandView,
    Layout,
    StakeView,
    TableLayout,
    WagerLine,
    WagerView,
    Walk,
    amount,
    box_of,
    burn,
    hand_in,
    note,
    owed_and_wrong,
    split_hand,
    tag,
    wager_label,
)

# How many boxes the felt of each preset has.
TABLE_SPOTS = {"salon": 5, "online": 1}


# --- the walk ------------------------------------------------------------------------------------


class BlackjackWalk(Walk):
    def amounts(self):
        return (("bet", lazy("bet")), ("jackpot", lazy("jackpot")))

    def chips(self, item: dict) -> list[WagerView]:
        box = str(item.get("box"))
        chips = [WagerView("bet", wager_label("bet"), amount(item.get("bet")), hand=box)]
        if item.get("jackpot") is not None:
            chips.append(WagerView("jackpot", wager_label("jackpot"), amount(item["jackpot"]), hand=box))
        return chips

    def start(self) -> TableLayout:
        self.dealer_plays = self.reveal_all  # the hole card stays turned until the dealer plays
        self.even_money: set[str] = set()
        return TableLayout("blackjack", lazy("Box"), lazy("Dealer"), [], HandView(lazy("Dealer")))

    def apply(self, i: int, e, ev: dict) -> None:
        boxes, dealer, flagged = self.boxes, self.dealer, self.flagged
        if e == "deal":
            if ev.get("to") == "dealer":
                hole = len(dealer.cards) == 1
                dealer.cards.append(
                    self.card(
                        ev,
                        i,
                        note=lazy("hole card") if hole else "",
                        hidden=hole,
                        face_up=not hole or self.dealer_plays,
                    )
                )
            else:
                hand_in(boxes, ev.get("to")).cards.append(self.card(ev, i))
                self.focus(box_of(ev.get("to")))
        elif e == "hit":
            hand_in(boxes, ev.get("hand")).cards.append(self.card(ev, i))
            self.focus(box_of(ev.get("hand")))
        elif e == "double":
            h = hand_in(boxes, ev.get("hand"))
            h.cards.append(self.card(ev, i, note=lazy("double"), badge=lazy("double"), across=True))
            tag(h, lazy("doubled"), i, flagged)
            h.doubled = True
            self.focus(box_of(ev.get("hand")))
            stake = self.stake_at(box_of(ev.get("hand")))
            if stake is not None:
                bet = stake.wager("bet", ev.get("hand"))
                size = ev.get("amount") or (bet.amount if bet else "0")
                stake.wagers.append(WagerView("double", wager_label("double"), amount(size), hand=ev.get("hand")))
        elif e == "split":
            name = str(ev.get("hand"))
            halves = split_hand(boxes, name, i, flagged)
            stake = self.stake_at(box_of(name))
            if halves is not None and stake is not None:
                bet = stake.wager("bet", name)
                if bet is not None:
                    bet.hand = halves[0].name
                    stake.wagers.append(WagerView("bet", wager_label("bet"), bet.amount, hand=halves[1].name))
            self.focus(box_of(name))
        elif e == "stand":
            tag(hand_in(boxes, ev.get("hand")), lazy("stands"), i, flagged)
        elif e == "draw":
            self.show_hole()
            dealer.cards.append(self.card(ev, i))
            self.focus(None)
        elif e == "peek":
            note(self.layout, i, lazy("The dealer checks the hole card."), flagged)
        elif e == "insurance":
            stake = self.stake(ev)
            if stake is not None:
                stake.amounts.append((lazy("insurance"), amount(ev.get("amount"))))
                stake.wagers.append(
                    WagerView(
                        "insurance",
                        wager_label("insurance"),
                        amount(ev.get("amount")),
                        hand=str(self.spot_of(stake.id)),
                    )
                )
        elif e == "even_money":
            stake = self.stake(ev)
            if stake is not None:
                stake.tags.append(lazy("even money"))
            self.even_money.add(str(ev.get("stake")))
        elif e == "burn":
            burn(self.layout, ev, i, flagged)
        elif e in ("pay", "take", "leave"):
            # Even money is paid, and a lost insurance taken, before the dealer turns his hole card.
            early = (ev.get("wager") == "bet" and str(ev.get("stake")) in self.even_money) or (
                ev.get("wager") == "insurance" and e == "take"
            )
            if not early:
                self.show_hole()
            self.settle(ev)

    def stake_at(self, number) -> StakeView | None:
        box = self.boxes.get(number)
        return box.stakes[0] if box is not None and box.stakes else None

    def show_hole(self) -> None:
        self.dealer_plays = True
        for c in self.dealer.cards:
            c.face_up = True


# --- the round page ------------------------------------------------------------------------------


def round_page(record, outcome) -> dict:
    """The stored round for the template: boxes, hands side by side, doubles, insurance, even money
    and the jackpot, what was logged and what was owed; the dealer's cards."""
    entry = blackjack_entry_from_document(record.document)
    owed, wrong = owed_and_wrong(
        outcome, lambda w: (w.stake, w.hand, w.wager), lambda f: (f.stake, f.hand or "", f.wager)
    )
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
            view.verdict = bet if bet is not None else ""  # an Owed: its verdict, said by the |verdict filter
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
        drawn.append(
            {
                "number": n,
                "box": box,
                "stake": s,
                "hand": draw(box, box.root),
                "lines": lines,
                "leaves": len(box.leaves()),
            }
        )
    return {
        "blackjack": {
            "boxes": drawn,
            "up": entry.dealer_up,
            "hole": entry.dealer_hole,
            "draws": entry.dealer_draws,
            "rules": engine.house_rules("blackjack", record.document.get("rules")) if outcome is not None else {},
        }
    }


class BlackjackLayout(Layout):
    variant = "blackjack"
    walker = BlackjackWalk
    round_template = "dealing/_round_blackjack.html"

    def total(self, codes: list[str]) -> int:
        """What the cards count, as the engine's hand counts them (an ace 11 when it fits)."""
        hand = rules.Hand()
        for code in codes:
            hand.add(rules.CARD[code])
        return hand.best

    def round_page(self, record, outcome) -> dict:
        return round_page(record, outcome)

    def spot_count(self, doc: dict) -> int:
        return TABLE_SPOTS.get((doc.get("rules") or {}).get("preset", "salon"), 5)

    def hand_tag(self, hand) -> str:
        if len(hand.cards) == 2 and hand.total == 21 and "." not in hand.name:
            return _("blackjack")
        if hand.total > 21:
            return _("bust")
        return ""


LAYOUT = BlackjackLayout()
