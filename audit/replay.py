"""What the round replay page draws: the table as it stood at the end of a round, and the owed
versus logged settlement of every wager.

`table_layout(doc, flagged)` walks a stored `round/1` document and places every card where it
went — the boxes (ochko), hands and split hands (blackjack), seats and the bank (veintiuno), the
dealer's hand, burns and incidents — keeping each card's event index so findings can be marked on
the cards they concern. It only places cards; the rules stay the engine's (`engine.replay`), whose
outcome gives the owed side of `wager_rows`.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from dealing.engine.base import PAY, TAKE
from dealing.engine.cards import RANK_NAMES, SUIT_SYMBOLS, normalize
from dealing.engine.money import fmt

RED_SUITS = {"H", "D"}


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


def _amount(value) -> str:
    if value is None:
        return ""
    try:
        return fmt(Decimal(str(value)))
    except Exception:  # an amount the engine refused is shown as it was logged
        return str(value)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def table_layout(doc: dict, *, flagged_events=(), flagged_stakes=(), boxes: int | None = None) -> TableLayout:
    """The table drawn from a round document. `flagged_events` / `flagged_stakes`: what findings name."""
    flagged = set(flagged_events)
    stakes_flagged = set(flagged_stakes)
    variant = doc.get("variant")
    walker = {"blackjack": _blackjack, "veintiuno": _veintiuno}.get(variant, _ochko)
    layout = walker(doc, flagged)
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


def _stakes_by_box(doc: dict, key: str, wagers: tuple[tuple[str, str], ...]) -> dict[int, BoxView]:
    boxes: dict[int, BoxView] = {}
    for item in doc.get("stakes") or []:
        if not isinstance(item, dict):
            continue
        number = _int(item.get(key))
        if number is None:
            continue
        box = boxes.setdefault(number, BoxView(number))
        view = StakeView(str(item.get("id", "")), str(item.get("player", "")))
        for name, label in wagers:
            if item.get(name) is not None:
                view.amounts.append((label, _amount(item.get(name))))
        if item.get("owner"):
            view.tags.append(_("owner"))
        box.stakes.append(view)
    return boxes


def _events(doc: dict):
    for i, ev in enumerate(doc.get("events") or []):
        if isinstance(ev, dict):
            yield i, ev.get("e"), ev


# --- ochko -----------------------------------------------------------------------------------------

def _ochko(doc: dict, flagged: set) -> TableLayout:
    boxes = _stakes_by_box(doc, "box", (("ante", _("Ante")), ("dealer_bet", _("dealer bet"))))
    stakes = {s.id: s for b in boxes.values() for s in b.stakes}
    dealer = HandView(_("Dealer"))
    layout = TableLayout("ochko", _("Box"), _("Dealer"), [], dealer)

    def hand(number) -> HandView:
        number = _int(number)
        box = boxes.setdefault(number if number is not None else 0, BoxView(number or 0))
        if not box.hands:
            box.hands.append(HandView(str(box.number)))
        return box.hands[0]

    pending_burn: list[str] = []
    for i, e, ev in _events(doc):
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
            _tag(h, _("revealed"), i, flagged)
        elif e == "stand":
            _tag(hand(ev.get("box")), _("stands"), i, flagged)
        elif e == "draw":
            dealer.cards.append(card(ev.get("card"), i, flagged))
        elif e == "bet":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.amounts.append((_("Bet"), _amount(ev.get("amount"))))
        elif e == "fold":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.tags.append(_("folds"))
        elif e == "open":
            layout.notes.append({"event": i, "text": _("The dealer opens his card."), "flagged": i in flagged})
        elif e == "burn":
            code = normalize(str(ev.get("card")))
            if code in pending_burn:
                pending_burn.remove(code)
                continue
            layout.burns.append(card(ev.get("card"), i, flagged, note=str(ev.get("reason") or _("burn"))))
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
    layout.notes.append({"event": i, "text": f"{what}: {how} ({who}).", "flagged": i in flagged})


def _tag(h: HandView, text: str, i: int, flagged: set) -> None:
    h.tags.append(text)
    if i in flagged:
        h.flagged = True


# --- blackjack -------------------------------------------------------------------------------------

def _split_hands(box: BoxView, name: str, i: int, flagged: set) -> tuple[HandView, HandView] | None:
    for k, h in enumerate(box.hands):
        if h.name == name:
            first = HandView(f"{name}.1", cards=h.cards[:1], tags=[_("split")])
            second = HandView(f"{name}.2", cards=h.cards[1:], tags=[_("split")])
            first.flagged = second.flagged = i in flagged
            box.hands[k:k + 1] = [first, second]
            return first, second
    return None


def _box_of(name) -> int | None:
    return _int(str(name).split(".")[0]) if name is not None else None


def _hands_layout(doc: dict, flagged: set, *, variant: str, seat_key: str, dealer_name: str, dealer_word: str,
                  wagers) -> tuple[TableLayout, dict[int, BoxView], dict[str, StakeView]]:
    boxes = _stakes_by_box(doc, seat_key, wagers)
    stakes = {s.id: s for b in boxes.values() for s in b.stakes}
    dealer = HandView(dealer_word)
    layout = TableLayout(variant, _("Box") if seat_key == "box" else _("Seat"), dealer_word, [], dealer)
    return layout, boxes, stakes


def _hand(boxes: dict[int, BoxView], name) -> HandView:
    name = str(name)
    number = _box_of(name) or 0
    box = boxes.setdefault(number, BoxView(number))
    for h in box.hands:
        if h.name == name:
            return h
    h = HandView(name)
    box.hands.append(h)
    return h


def _blackjack(doc: dict, flagged: set) -> TableLayout:
    layout, boxes, stakes = _hands_layout(
        doc, flagged, variant="blackjack", seat_key="box", dealer_name="dealer", dealer_word=_("Dealer"),
        wagers=(("bet", _("bet")), ("jackpot", _("jackpot"))))
    dealer = layout.dealer
    for i, e, ev in _events(doc):
        if e == "deal":
            if ev.get("to") == "dealer":
                hole = len(dealer.cards) == 1
                dealer.cards.append(card(ev.get("card"), i, flagged, note=_("hole card") if hole else "",
                                         hidden=hole))
            else:
                _hand(boxes, ev.get("to")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "hit":
            _hand(boxes, ev.get("hand")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "double":
            h = _hand(boxes, ev.get("hand"))
            h.cards.append(card(ev.get("card"), i, flagged, note=_("double"), badge=_("double"), across=True))
            _tag(h, _("doubled"), i, flagged)
        elif e == "split":
            name = str(ev.get("hand"))
            box = boxes.setdefault(_box_of(name) or 0, BoxView(_box_of(name) or 0))
            _split_hands(box, name, i, flagged)
        elif e == "stand":
            _tag(_hand(boxes, ev.get("hand")), _("stands"), i, flagged)
        elif e == "draw":
            dealer.cards.append(card(ev.get("card"), i, flagged))
        elif e == "peek":
            layout.notes.append({"event": i, "text": _("The dealer checks the hole card."), "flagged": i in flagged})
        elif e in ("insurance", "even_money"):
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                if e == "insurance":
                    stake.amounts.append((_("insurance"), _amount(ev.get("amount"))))
                else:
                    stake.tags.append(_("even money"))
        elif e == "burn":
            layout.burns.append(card(ev.get("card"), i, flagged, note=str(ev.get("reason") or _("burn"))))
    layout.boxes = list(boxes.values())
    return layout


# --- veintiuno -------------------------------------------------------------------------------------

def _veintiuno(doc: dict, flagged: set) -> TableLayout:
    layout, boxes, stakes = _hands_layout(
        doc, flagged, variant="veintiuno", seat_key="seat", dealer_name="bank", dealer_word=_("Bank"), wagers=())
    layout.bank = str(doc.get("bank") or "")
    bank = layout.dealer
    if layout.bank:
        bank.name = _("Bank (%(player)s)") % {"player": layout.bank}
    first_pass: set[str] = set()
    for i, e, ev in _events(doc):
        if e == "deal":
            to = ev.get("to")
            target = bank if to == "bank" else _hand(boxes, to)
            key = "bank" if to == "bank" else str(to)
            down = key not in first_pass
            first_pass.add(key)
            target.cards.append(card(ev.get("card"), i, flagged, note=_("face down") if down else "", hidden=down))
        elif e == "bet":
            stake = stakes.get(str(ev.get("stake")))
            if stake is not None:
                stake.amounts.append((_("bet"), _amount(ev.get("amount"))))
        elif e == "hit":
            _hand(boxes, ev.get("hand")).cards.append(card(ev.get("card"), i, flagged))
        elif e == "tapo":
            h = _hand(boxes, ev.get("hand"))
            h.cards.append(card(ev.get("card"), i, flagged, note=_("tapo"), badge=_("tapo"), hidden=True))
            _tag(h, _("tapo y quedo"), i, flagged)
        elif e == "split":
            name = str(ev.get("hand"))
            box = boxes.setdefault(_box_of(name) or 0, BoxView(_box_of(name) or 0))
            _split_hands(box, name, i, flagged)
        elif e in ("stand", "declare", "withdraw", "void"):
            words = {"stand": _("stands"), "declare": _("declares"), "withdraw": _("withdraws"), "void": _("voids")}
            _tag(_hand(boxes, ev.get("hand")), words[e], i, flagged)
        elif e == "draw":
            bank.cards.append(card(ev.get("card"), i, flagged))
        elif e == "puje":
            layout.notes.append({"event": i, "text": _("The bank sends the table al puje."), "flagged": i in flagged})
        elif e == "bank_to":
            layout.notes.append({"event": i, "text": _("The bank passes to %(player)s.") % {"player": ev.get("player")},
                                 "flagged": i in flagged})
        elif e == "burn":
            layout.burns.append(card(ev.get("card"), i, flagged, note=str(ev.get("reason") or _("burn"))))
    layout.boxes = list(boxes.values())
    return layout


# --- owed versus logged ----------------------------------------------------------------------------

@dataclass
class WagerRow:
    stake: str
    hand: str
    wager: str
    box: str
    player: str
    owed_result: str = ""
    owed_amount: str = ""
    logged_result: str = ""
    logged_amount: str = ""
    logged_event: int | None = None
    delta: Decimal | None = None
    codes: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def flagged(self) -> bool:
        return bool(self.codes)


def wager_rows(doc: dict, outcome, findings) -> list[WagerRow]:
    """One row per owed wager (and per logged settlement nothing was owed for, or a second one),
    with the findings of that wager. `findings` are rows with stake, hand, wager and code."""
    places = {}
    for item in doc.get("stakes") or []:
        if isinstance(item, dict):
            places[str(item.get("id"))] = (str(item.get("box", item.get("seat", ""))), str(item.get("player", "")))
    codes: dict[tuple, list[str]] = {}
    for f in findings:
        if f.stake:
            codes.setdefault((f.stake, f.hand or "", f.wager or ""), []).append(f.code)
    rows: list[WagerRow] = []
    seen = set()
    owed_keys = set()
    for w in outcome.wagers or []:
        key = (w.stake, w.hand or "", w.wager)
        owed_keys.add(key)
        box, player = places.get(w.stake, ("", ""))
        rows.append(WagerRow(w.stake, w.hand or "", w.wager, box, player, owed_result=w.result,
                             owed_amount=fmt(w.amount if w.result == PAY else w.size), why=w.why,
                             codes=list(codes.get(key, []))))
    by_key = {(r.stake, r.hand, r.wager): r for r in rows}
    for s in outcome.settled:
        key = (s.stake, s.hand or "", s.wager)
        row = by_key.get(key)
        amount = s.amount
        if amount is None and row is not None and s.result == TAKE:
            amount = Decimal(row.owed_amount)
        if row is None or key in seen:
            box, player = places.get(s.stake, ("", ""))
            extra = WagerRow(s.stake, s.hand or "", s.wager, box, player, logged_result=s.result,
                             logged_amount="" if amount is None else fmt(amount), logged_event=s.event,
                             codes=[c for c in codes.get(key, []) if c == "UNEXPECTED_SETTLEMENT"])
            rows.append(extra)
            continue
        seen.add(key)
        row.logged_result = s.result
        row.logged_amount = "" if amount is None else fmt(amount)
        row.logged_event = s.event
    if outcome.settled:  # a log without settlement events is only told what is owed
        for row in rows:
            row.delta = _delta(row)
    rows.sort(key=lambda r: (_sort_box(r.box), r.stake, r.hand, r.wager, r.logged_event or 0))
    return rows


def _sort_box(box: str):
    number = _int(box)
    return (0, number) if number is not None else (1, box)


def _signed(result: str, amount: str) -> Decimal | None:
    if not result:
        return None
    if result == PAY:
        return Decimal(amount or 0)
    if result == TAKE:
        return -Decimal(amount or 0)
    return Decimal(0)


def _delta(row: WagerRow) -> Decimal | None:
    """What the player received minus what was owed, for this row (None when nothing to compare)."""
    owed = _signed(row.owed_result, row.owed_amount)
    logged = _signed(row.logged_result, row.logged_amount)
    if owed is None and logged is None:
        return None
    return (logged or Decimal(0)) - (owed or Decimal(0))
