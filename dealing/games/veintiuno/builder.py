"""A veintiuno round as its forms enter it → the `round/1` document, in the rules' order.

Two forms fill it: the home game's ledger (`ledger.forms.RoundForm`) and the round form of a
veintiuno table (`dealing.games.veintiuno.forms`). Each is filled seat by seat (who sits where, the
two cards, the bet, what each hand did, what it was paid) and the bank's own line (two cards, al puje, its draws, who takes the bank next).
The log must read in the order things happen at the table (rules/veintiuno.md, "A round"):

1. the first pass, face down: seat 1 (pie de banco, at the bank's right), 2, …, then the bank;
2. the bets, in seat order;
3. the second pass, face up, in the same order;
4. the naturals (A + J/Q/K) declared at once, in seat order;
5. the puje, when the bank holding 20 in two cards sends the table al puje;
6. each seat's play in turn: withdraw or void on 13, hits, stand, tapo y quedo, opening a pair
   (the new hand takes the amount given, twice the bet by default) — opened hands depth first;
7. the bank's draws;
8. the payments (pay / take / leave) hand by hand in playing order;
9. `bank_to`: who holds the bank next.

Plain functions, no database (messages go through gettext). Whether a hand is bust, a natural or a moñona is the engine's business, never worked out here: the
builder only puts the entries in order. A seat's play is written in a short line of words:

    5C 2D stand            two hits, then stands          (cards as the engine reads them: 7H, AS, 7♥)
    tapo QS                tapo y quedo with QS
    withdraw | void        withdraws (or, pie de banco, voids the hand) on a two-card 13
    split [20] …           opens the pair (amount optional: twice the hand's bet); what follows is
                           the first hand's play; "/" moves to the second hand
    declare                a natural on an opened hand, declared at once

Spanish words are understood too: planto (stand), abro / abrir (split), retiro (withdraw),
anulo (void), canto (declare). `/` and `|` both move to the next hand.
"""

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _

from dealing.engine import cards as _cards
from dealing.engine.money import fmt
from dealing.engine.veintiuno import PACK

PAY, TAKE, LEAVE = "pay", "take", "leave"
RESULTS = (PAY, TAKE, LEAVE)

# Words of a play line → the action they stand for.
WORDS = {
    "stand": "stand",
    "s": "stand",
    "planto": "stand",
    "me planto": "stand",
    "tapo": "tapo",
    "t": "tapo",
    "split": "split",
    "abro": "split",
    "abrir": "split",
    "open": "split",
    "withdraw": "withdraw",
    "retiro": "withdraw",
    "me retiro": "withdraw",
    "void": "void",
    "anulo": "void",
    "declare": "declare",
    "canto": "declare",
    "21": "declare",
    "/": "next",
    "|": "next",
}


class PlayError(ValueError):
    """A play line the builder cannot read: `word` is the 1-based position of the word."""

    def __init__(self, message: str, word: int | None = None):
        super().__init__(message)
        self.message = message
        self.word = word


@dataclass(frozen=True)
class Action:
    kind: str  # hit | stand | tapo | split | withdraw | void | declare | next
    card: str | None = None
    amount: Decimal | None = None


@dataclass
class SeatEntry:
    """One seat of the round: the player, the bet, the two dealt cards and what the hand did."""

    seat: int
    player: str
    bet: Decimal
    cards: tuple[str, str]  # the first (face down) and second (face up) card of the deal
    declare: bool = False  # a natural in the first two cards, declared at once
    play: list[Action] = field(default_factory=list)

    @property
    def stake(self) -> str:
        return stake_id(self.seat)


@dataclass(frozen=True)
class Payment:
    """What the bank did with one hand's bet."""

    hand: str  # "2", "2.1", …
    result: str  # pay | take | leave
    amount: Decimal | None = None


@dataclass
class RoundSheet:
    bank: str
    limits: tuple[Decimal, Decimal]
    seats: list[SeatEntry]
    bank_cards: tuple[str, str]
    puje: bool = False
    bank_draws: list[str] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    bank_to: str | None = None
    id: str | None = None


_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


def read_card(text) -> str | None:
    """The canonical code of a card of the 40-card pack (``"7♥"``, ``"7h"`` → ``"7H"``), or None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if text and text[-1] in _SYMBOLS:
        text = text[:-1] + _SYMBOLS[text[-1]]
    code = _cards.normalize(text) or _cards.normalize(text.upper())
    return code if code in PACK else None


def stake_id(seat: int) -> str:
    return f"S{seat}"


def parse_play(text: str) -> list[Action]:
    """Read a play line ("5C 2D stand", "split 20 AS declare / 7S stand", "tapo QS")."""
    words = (text or "").replace(",", " ").replace("/", " / ").replace("|", " | ").split()
    actions: list[Action] = []
    k = 0
    while k < len(words):
        word = words[k]
        position = k + 1
        low = word.lower()
        if low in ("me",) and k + 1 < len(words) and f"me {words[k + 1].lower()}" in WORDS:
            low = f"me {words[k + 1].lower()}"
            k += 1
        kind = WORDS.get(low)
        if kind is None:
            card = read_card(word)
            if card is None:
                raise PlayError(
                    _(
                        "“%(word)s” is neither a card of the 40-card pack (such as 7H, AS, K♠) nor a word "
                        "of the play (stand, tapo, split, withdraw, void, declare, /)."
                    )
                    % {"word": word},
                    position,
                )
            actions.append(Action("hit", card=card))
        elif kind == "tapo":
            if k + 1 >= len(words) or read_card(words[k + 1]) is None:
                raise PlayError(_("“tapo” is followed by the hidden card, such as “tapo QS”."), position)
            actions.append(Action("tapo", card=read_card(words[k + 1])))
            k += 1
        elif kind == "split":
            amount = None
            if k + 1 < len(words) and read_card(words[k + 1]) is None and words[k + 1].lower() not in WORDS:
                try:
                    amount = Decimal(words[k + 1])
                except InvalidOperation:
                    raise PlayError(
                        _("“%(word)s” after “split” is not an amount.") % {"word": words[k + 1]}, position + 1
                    ) from None
                if not amount.is_finite() or amount <= 0:
                    raise PlayError(
                        _("“%(word)s” after “split” is not an amount.") % {"word": words[k + 1]}, position + 1
                    )
                k += 1
            actions.append(Action("split", amount=amount))
        else:
            actions.append(Action(kind))
        k += 1
    return actions


def play_text(actions: list[Action]) -> str:
    """A play line back as text (what `parse_play` reads)."""
    out = []
    for a in actions:
        if a.kind == "hit":
            out.append(a.card)
        elif a.kind == "tapo":
            out.append(f"tapo {a.card}")
        elif a.kind == "split":
            out.append("split" if a.amount is None else f"split {fmt(a.amount)}")
        elif a.kind == "next":
            out.append("/")
        else:
            out.append(a.kind)
    return " ".join(out)


@dataclass
class _SeatPlay:
    """A seat's play split into hands: the events of its turn, and the hands it ended with."""

    events: list[dict]
    hands: list[str]
    declared_at_deal: bool


def _seat_play(entry: SeatEntry) -> _SeatPlay:
    """Walk a seat's actions hand by hand. An opening of hand H plays H.1, then H.2 (depth first):
    the words after a split belong to H.1 until a "/" moves on to the next pending hand."""
    events: list[dict] = []
    finished: list[str] = []
    first = str(entry.seat)
    bets = {first: Decimal(entry.bet)}
    current = first
    pending: list[str] = []  # hands still to play, the next one last
    declared_at_deal = entry.declare
    acted = False
    for action in entry.play:
        if action.kind == "next":
            if not pending:
                raise PlayError(
                    _("Place %(seat)d: “/” moves to the next hand, but no opened hand is waiting.")
                    % {"seat": entry.seat}
                )
            finished.append(current)
            current = pending.pop()
            continue
        if action.kind == "declare" and current == first and not acted:
            declared_at_deal = True  # the dealt natural: declared with the others after the deal
            continue
        acted = True
        if action.kind == "split":
            amount = action.amount if action.amount is not None else bets[current] * 2
            events.append({"e": "split", "hand": current, "amount": amount})
            bets[current + ".1"] = bets[current]
            bets[current + ".2"] = amount
            pending.append(current + ".2")
            current = current + ".1"
        elif action.kind in ("hit", "tapo"):
            events.append({"e": action.kind, "hand": current, "card": action.card})
        else:
            events.append({"e": action.kind, "hand": current})
    finished.append(current)
    while pending:  # opened hands never played on (each holds one card): listed for payment all the same
        finished.append(pending.pop())
    return _SeatPlay(events, finished, declared_at_deal)


def seat_hands(entry: SeatEntry) -> list[str]:
    """The hands a seat ends the round with, in playing order ("3", or "3.1", "3.2" after opening)."""
    return _seat_play(entry).hands


def build_round(sheet: RoundSheet) -> dict:
    """The `round/1` document of the sheet, events in the order of the rules. Raises `PlayError`
    for a play line that does not fit its seat (a "/" with no hand waiting)."""
    seats = sorted(sheet.seats, key=lambda s: s.seat)
    plays = {s.seat: _seat_play(s) for s in seats}
    events: list[dict] = []
    for s in seats:
        events.append({"e": "deal", "to": s.seat, "card": s.cards[0]})
    events.append({"e": "deal", "to": "bank", "card": sheet.bank_cards[0]})
    for s in seats:
        events.append({"e": "bet", "stake": s.stake, "amount": Decimal(s.bet)})
    for s in seats:
        events.append({"e": "deal", "to": s.seat, "card": s.cards[1]})
    events.append({"e": "deal", "to": "bank", "card": sheet.bank_cards[1]})
    for s in seats:
        if plays[s.seat].declared_at_deal:
            events.append({"e": "declare", "hand": str(s.seat)})
    if sheet.puje:
        events.append({"e": "puje"})
    for s in seats:
        events.extend(plays[s.seat].events)
    for card in sheet.bank_draws:
        events.append({"e": "draw", "card": card})
    order = {hand: (s.seat, k) for s in seats for k, hand in enumerate(plays[s.seat].hands)}
    owner = {hand: s for s in seats for hand in plays[s.seat].hands}
    for p in sorted(sheet.payments, key=lambda p: order.get(p.hand, (10**6, 0))):
        entry = owner.get(p.hand)
        if entry is None:
            raise PlayError(_("A payment names hand %(hand)s, which nobody played this round.") % {"hand": p.hand})
        ev = {"e": p.result, "stake": entry.stake, "hand": p.hand, "wager": "bet"}
        if p.amount is not None:
            ev["amount"] = Decimal(p.amount)
        events.append(ev)
    if sheet.bank_to:
        events.append({"e": "bank_to", "player": sheet.bank_to})
    doc = {
        "format": "round/1",
        "variant": "veintiuno",
        "table": {"min": Decimal(sheet.limits[0]), "max": Decimal(sheet.limits[1])},
        "bank": sheet.bank,
        "stakes": [{"id": s.stake, "seat": s.seat, "player": s.player} for s in seats],
        "events": events,
    }
    if sheet.id:
        doc["id"] = sheet.id
    return doc


# --- a stored round read back ----------------------------------------------------------------------

_PLAY_EVENTS = ("hit", "stand", "tapo", "split", "withdraw", "void", "declare")


def sheet_from_document(doc: dict) -> RoundSheet:
    """What the forms would hold for a logged veintiuno round: each seat's player, bet, dealt cards
    and play line, the bank's cards and draws, the first payment of each hand — for correcting a
    stored round on the form. `build_round` of the result gives the log back in the rules' order.

    It reads a document the engine has accepted; stakes keep the ids the log gave them only where
    they are the forms' own ("S<seat>")."""
    seats: dict[int, SeatEntry] = {}
    by_stake: dict[str, SeatEntry] = {}
    for item in doc.get("stakes", []):
        if not isinstance(item, dict) or type(item.get("seat")) is not int:
            continue
        entry = SeatEntry(item["seat"], str(item.get("player", "")), Decimal(0), ("", ""))
        seats[entry.seat] = by_stake[str(item.get("id"))] = entry
    dealt: dict[int, list[str]] = {n: [] for n in seats}
    bank_cards: list[str] = []
    draws: list[str] = []
    bets: dict[str, Decimal] = {}
    current: dict[int, str] = {n: str(n) for n in seats}  # the hand each seat's play line is at
    payments: list[Payment] = []
    paid: set[str] = set()
    puje, bank_to = False, None
    for ev in doc.get("events", []):
        if not isinstance(ev, dict):
            continue
        e = ev.get("e")
        if e == "deal":
            to = ev.get("to")
            if to == "bank":
                bank_cards.append(ev.get("card"))
            elif to in dealt:
                dealt[to].append(ev.get("card"))
        elif e == "bet" and ev.get("stake") in by_stake:
            entry = by_stake[ev["stake"]]
            entry.bet = _amount(ev.get("amount"))
            bets[str(entry.seat)] = entry.bet
        elif e in _PLAY_EVENTS and isinstance(ev.get("hand"), str):
            hand = ev["hand"]
            head = hand.split(".")[0]
            entry = seats.get(int(head)) if head.isdigit() else None
            if entry is None:
                continue
            if e == "declare" and hand == str(entry.seat) and not entry.play:
                entry.declare = True  # the dealt natural, declared at once
                continue
            if hand != current[entry.seat]:
                entry.play.append(Action("next"))
                current[entry.seat] = hand
            if e == "split":
                amount = _amount(ev.get("amount"))
                bet = bets.get(hand, Decimal(0))
                bets[hand + ".1"], bets[hand + ".2"] = bet, amount
                entry.play.append(Action("split", amount=None if amount == bet * 2 else amount))
                current[entry.seat] = hand + ".1"
            elif e in ("hit", "tapo"):
                entry.play.append(Action(e, card=ev.get("card")))
            else:
                entry.play.append(Action(e))
        elif e == "draw":
            draws.append(ev.get("card"))
        elif e == "puje":
            puje = True
        elif e in RESULTS and isinstance(ev.get("hand"), str) and ev["hand"] not in paid:
            paid.add(ev["hand"])
            amount = ev.get("amount")
            payments.append(Payment(ev["hand"], e, _amount(amount) if amount is not None else None))
        elif e == "bank_to":
            bank_to = ev.get("player")
    for n, entry in seats.items():
        cards = dealt[n] + ["", ""]
        entry.cards = (cards[0], cards[1])
    table = doc.get("table") if isinstance(doc.get("table"), dict) else {}
    bank2 = bank_cards + ["", ""]
    return RoundSheet(
        bank=str(doc.get("bank", "")),
        limits=(_amount(table.get("min")), _amount(table.get("max"))),
        seats=sorted(seats.values(), key=lambda s: s.seat),
        bank_cards=(bank2[0], bank2[1]),
        puje=puje,
        bank_draws=draws,
        payments=payments,
        bank_to=bank_to,
        id=doc.get("id"),
    )


def _amount(value) -> Decimal:
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return Decimal(0)
