"""The `round/1` document of a blackjack round entered on the dealer's form, in the order of the rules.

The form holds a round box by box — who bet what, each hand's cards, the splits and doubles, what
the dealer paid, took or left — while the log reads in the order things happened at the table
(rules/blackjack.md): the deal (box up cards, the dealer's up card, second cards, the hole card),
insurance and even money while the dealer shows an ace, the peek, each box's hands depth first,
the dealer's draws, the settlement. This module turns the first into the second and remembers,
for every event, where on the form it came from (`Source`, `dealing.games.building`).

Whether a hand may still stand, whether the dealer peeks and whether his blackjack ended the round
are asked of the engine, never worked out here: the rules live in one place. The engine follows
the log as it is written (`WalkedLog`, one walk of the round), and the document goes to the
form's check with that walk's outcome.
What the dealer entered is logged as entered — a wrong payout stays wrong, for the engine to find.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from dealing.games.building import RESULTS, Built, Result, Source, WalkedLog, amount_json

HAND_WAGERS = ("bet", "double")  # settled per hand
STAKE_WAGERS = ("insurance", "jackpot")  # settled once per box, on its first hand


@dataclass
class HandEntry:
    """One hand of a box. `cards` are the cards this hand received itself: a box's two dealt cards
    and its draws; a split hand's cards after the split (its first card is its parent's).

    `split`: the hand was split into `<name>.1` and `<name>.2`. `double_at`: the index in `cards` of
    the card dealt by the double (None: no double); `double_amount` when the log gave one."""

    name: str
    cards: list[str] = field(default_factory=list)
    split: bool = False
    double_at: int | None = None
    double_amount: Decimal | None = None
    results: dict[str, Result] = field(default_factory=dict)  # "bet", "double"

    @property
    def is_root(self) -> bool:
        return "." not in self.name

    @property
    def drawn_from(self) -> int:
        """The index in `cards` of the first card drawn in play (a box's first two are dealt)."""
        return 2 if self.is_root else 0


@dataclass
class StakeEntry:
    id: str
    box: int
    player: str
    bet: Decimal
    jackpot: Decimal | None = None
    insurance: Decimal | None = None
    even_money: bool = False
    results: dict[str, Result] = field(default_factory=dict)  # "insurance", "jackpot"


@dataclass
class BoxEntry:
    number: int
    stake: StakeEntry
    hands: dict[str, HandEntry] = field(default_factory=dict)  # by name, split hands included

    @property
    def root(self) -> HandEntry:
        name = str(self.number)
        if name not in self.hands:
            self.hands[name] = HandEntry(name)
        return self.hands[name]

    def hand(self, name: str) -> HandEntry:
        if name not in self.hands:
            self.hands[name] = HandEntry(name)
        return self.hands[name]

    def walk(self) -> list[HandEntry]:
        """Every hand in the order it is played: depth first, a split hand before its two."""
        out: list[HandEntry] = []

        def visit(hand: HandEntry, depth: int) -> None:
            out.append(hand)
            if hand.split and depth < MAX_DEPTH:
                visit(self.hand(f"{hand.name}.1"), depth + 1)
                visit(self.hand(f"{hand.name}.2"), depth + 1)

        visit(self.root, 0)
        return out

    def leaves(self) -> list[HandEntry]:
        return [h for h in self.walk() if not h.split]


# Splits a box may go through on the form (the engine flags more hands than the table allows).
MAX_DEPTH = 6


@dataclass
class BlackjackEntry:
    boxes: list[BoxEntry]
    dealer_up: str | None = None
    dealer_hole: str | None = None
    dealer_draws: list[str] = field(default_factory=list)


class _BlackjackLog(WalkedLog):
    def settle_wager(self, stake: StakeEntry, hand: str, wager: str, entered: Result | None) -> None:
        """The dealer's settlement of one wager, if he entered one and it is not logged yet.
        Blackjack logs the amount of a `leave` too (the wager returned), when it was entered."""
        if entered is None or (stake.id, hand, wager) in self.settled:
            return
        self.settled.add((stake.id, hand, wager))
        event = {"e": entered.result, "stake": stake.id, "hand": hand, "wager": wager}
        if entered.amount is not None:
            event["amount"] = amount_json(entered.amount)
        self.add(event, Source("result", stake.box, stake.id, wager, hand=hand))

    def settle_stake(self, box: BoxEntry, wager: str) -> None:
        self.settle_wager(box.stake, box.root.name, wager, box.stake.results.get(wager))

    def settle_hand(self, box: BoxEntry, hand: HandEntry, wager: str) -> None:
        self.settle_wager(box.stake, hand.name, wager, hand.results.get(wager))


def build_blackjack(entry: BlackjackEntry, *, header: dict) -> Built:
    """The `round/1` document of a blackjack round, in the order of the rules.

    `header` gives everything but the stakes and events (format, id, variant, table, rules,
    dealer). The order: the deal — each box's first card (box 1 first), the dealer's up card, each
    box's second card, the hole card; then box by box even money (paid at once) or insurance; the
    peek when the engine says one is due; the insurance settled (after the round, when the dealer's
    blackjack ended it); each box's hands depth first — its cards as hits or the double, a split,
    a stand where the hand could still play; the dealer's draws; the settlement box by box:
    insurance, each hand's bet and double, the jackpot.
    """
    boxes = sorted(entry.boxes, key=lambda b: b.number)
    stakes = []
    for box in boxes:
        s = box.stake
        named = {"player": s.player} if s.player else {}  # a player's name is optional (round/1)
        item = {"id": s.id, "box": box.number, **named, "bet": amount_json(s.bet)}
        if s.jackpot is not None:
            item["jackpot"] = amount_json(s.jackpot)
        stakes.append(item)
    log = _BlackjackLog(dict(header), stakes)

    # 1. The deal: a card to each box, the dealer's up card, a second card to each box, the hole card.
    for k, dealer_card in enumerate((entry.dealer_up, entry.dealer_hole)):
        for box in boxes:
            root = box.root
            if len(root.cards) > k:
                log.add(
                    {"e": "deal", "to": box.number, "card": root.cards[k]},
                    Source("card", box.number, box.stake.id, hand=root.name, index=k),
                )
        if dealer_card:
            log.add({"e": "deal", "to": "dealer", "card": dealer_card}, Source("dealer_card", index=k))

    # 2. Even money (paid at once) or insurance, box by box, while the dealer shows an ace.
    insured = []
    for box in boxes:
        s = box.stake
        if s.even_money:
            log.add({"e": "even_money", "stake": s.id}, Source("even_money", box.number, s.id, "bet"))
            log.settle_hand(box, box.root, "bet")
        elif s.insurance is not None:
            log.add(
                {"e": "insurance", "stake": s.id, "amount": amount_json(s.insurance)},
                Source("insurance", box.number, s.id, "insurance"),
            )
            insured.append(box)

    # 3. The peek, where the up card calls for one.
    if any(m.get("e") == "peek" for m in log.moves()):
        log.add({"e": "peek"}, Source("peek"))

    # 4. Insurance is settled now — unless the dealer's blackjack ended the round (then box by box below).
    if insured and not _round_over(log):
        for box in insured:
            log.settle_stake(box, "insurance")

    # 5. The hands, box by box, each split hand to the end before the next.
    for box in boxes:
        if not box.stake.even_money:
            _play(log, box, box.root, 0)

    # 6. The dealer's draws.
    for k, card in enumerate(entry.dealer_draws):
        log.add({"e": "draw", "card": card}, Source("dealer_card", index=2 + k))

    # 7. The settlement, box by box: insurance, each hand's bet and double, the jackpot.
    for box in boxes:
        log.settle_stake(box, "insurance")
        for hand in box.leaves():
            for wager in HAND_WAGERS:
                log.settle_hand(box, hand, wager)
        log.settle_stake(box, "jackpot")
    return log.built()


def _play(log: _BlackjackLog, box: BoxEntry, hand: HandEntry, depth: int) -> None:
    sid = box.stake.id
    for k in range(hand.drawn_from, len(hand.cards)):
        card = hand.cards[k]
        source = Source("card", box.number, sid, hand=hand.name, index=k)
        if hand.double_at == k:
            event = {"e": "double", "hand": hand.name, "card": card}
            if hand.double_amount is not None:
                event["amount"] = amount_json(hand.double_amount)
            log.add(event, Source("double", box.number, sid, "double", hand=hand.name, index=k))
        else:
            log.add({"e": "hit", "hand": hand.name, "card": card}, source)
    if hand.split and depth < MAX_DEPTH:
        log.add({"e": "split", "hand": hand.name}, Source("split", box.number, sid, hand=hand.name))
        _play(log, box, box.hand(f"{hand.name}.1"), depth + 1)
        _play(log, box, box.hand(f"{hand.name}.2"), depth + 1)
    elif any(m.get("e") == "stand" and m.get("hand") == hand.name for m in log.moves()):
        log.add({"e": "stand", "hand": hand.name}, Source("stand", box.number, sid, hand=hand.name))


def _round_over(log: _BlackjackLog) -> bool:
    """After the peek: does the engine call for the round's settlement at once (the dealer's blackjack)?"""
    return any(m.get("e") in RESULTS and m.get("wager") != "insurance" for m in log.moves())


# --- a stored round read back ----------------------------------------------------------------------


def blackjack_entry_from_document(doc: dict) -> BlackjackEntry:
    """What the form would hold for a logged blackjack round: each box's stake, its hands (split,
    doubled) and their cards, insurance and even money, the dealer's cards and the first settlement
    of each wager — for drawing a stored round and for correcting it.

    It reads a document the engine has accepted; stakes keep whatever ids the log gave them.
    `build_blackjack` of the result gives back the log of a round dealt in the rules' order.
    """
    boxes: dict[int, BoxEntry] = {}
    stakes: dict[str, BoxEntry] = {}
    for item in doc.get("stakes", []):
        if not isinstance(item, dict) or type(item.get("box")) is not int:
            continue
        jackpot = item.get("jackpot")
        stake = StakeEntry(
            id=str(item.get("id")),
            box=item["box"],
            player=str(item.get("player", "")),
            bet=_decimal(item.get("bet")) or Decimal(0),
            jackpot=_decimal(jackpot) if jackpot is not None else None,
        )
        box = boxes.setdefault(stake.box, BoxEntry(stake.box, stake))
        box.root  # noqa: B018 - creates the box's hand
        stakes[stake.id] = box
    up = hole = None
    draws: list[str] = []
    for ev in doc.get("events", []):
        if not isinstance(ev, dict):
            continue
        e = ev.get("e")
        if e == "deal":
            to = ev.get("to")
            if to == "dealer":
                if up is None:
                    up = ev.get("card")
                elif hole is None:
                    hole = ev.get("card")
                else:
                    draws.append(ev.get("card"))
            elif to in boxes:
                boxes[to].root.cards.append(ev.get("card"))
        elif e == "draw":
            draws.append(ev.get("card"))
        elif e in ("insurance", "even_money"):
            box = stakes.get(ev.get("stake"))
            if box is not None and e == "insurance":
                box.stake.insurance = _decimal(ev.get("amount"))
            elif box is not None:
                box.stake.even_money = True
        elif e in ("hit", "double", "split"):
            box = _box_of(boxes, ev.get("hand"))
            if box is None:
                continue
            hand = box.hand(ev["hand"])
            if e == "split":
                hand.split = True
                box.hand(f"{hand.name}.1")
                box.hand(f"{hand.name}.2")
                continue
            hand.cards.append(ev.get("card"))
            if e == "double":
                hand.double_at = len(hand.cards) - 1
                if ev.get("amount") is not None:
                    hand.double_amount = _decimal(ev.get("amount"))
        elif e in RESULTS:
            box = stakes.get(ev.get("stake"))
            if box is None:
                continue
            wager = ev.get("wager")
            amount = ev.get("amount")
            entered = Result(e, _decimal(amount) if amount is not None else None)
            if wager in STAKE_WAGERS:
                box.stake.results.setdefault(wager, entered)
            elif wager in HAND_WAGERS and isinstance(ev.get("hand"), str) and ev["hand"] in box.hands:
                box.hands[ev["hand"]].results.setdefault(wager, entered)
    return BlackjackEntry(sorted(boxes.values(), key=lambda b: b.number), up, hole, draws)


def _box_of(boxes: dict[int, BoxEntry], name) -> BoxEntry | None:
    if not isinstance(name, str):
        return None
    head = name.split(".")[0]
    return boxes.get(int(head)) if head.isdigit() else None


def _decimal(value) -> Decimal | None:
    if value is None:
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


def full_cards(box: BoxEntry, hand: HandEntry) -> list[str]:
    """A hand's cards as they lie: a split hand's first card (its parent's) and then its own."""
    if hand.is_root:
        return list(hand.cards)
    parent_name, _, side = hand.name.rpartition(".")
    parent = full_cards(box, box.hand(parent_name))
    first = parent[int(side) - 1 : int(side)] if side in ("1", "2") else []
    return first + list(hand.cards)
