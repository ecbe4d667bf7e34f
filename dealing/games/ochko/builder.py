"""The `round/1` document of a round entered on the dealer's form, built in the procedure's order.

A form records a round the way a dealer remembers it — box by box: who played, the cards, what
was paid — while the log must read in the order things happened at the table (rules/ochko.md,
"One round, step by step"). This module turns the first into the second, and remembers for every
event where on the form it came from, so the engine's findings and errors can be shown next to
the field that caused them.

It knows nothing of Django or HTML: the form gives it plain entries (`OchkoEntry`), it gives back
the document and the sources (`Built`). Whether a card made an instant ochko or mnogo is asked of
the engine, never worked out here: the rules live in one place.

The builder for blackjack (hands that split, doubles, insurance) is `dealing.games.blackjack.builder`,
with its own entries; `Source`, `Built` and `Result` are shared (`dealing.games.building`).
"""

from dataclasses import dataclass, field
from decimal import Decimal

from dealing import engine
from dealing.games.building import LEAVE, PAY, RESULTS, TAKE, Built, Log, Result, Source, amount_json

__all__ = [
    "PAY",
    "TAKE",
    "LEAVE",
    "RESULTS",
    "Built",
    "Result",
    "Source",
    "amount_json",
    "StakeEntry",
    "BoxEntry",
    "OchkoEntry",
    "build_ochko",
    "ochko_entry_from_document",
    "SumResult",
]

# A stake's wagers in the order a box is settled: Bet and Ante first, dealer bets after the box's.
MAIN_WAGERS = ("bet", "ante")
OCHKO_WAGERS = ("ante", "bet", "dealer_bet")


@dataclass
class StakeEntry:
    id: str
    box: int
    player: str
    ante: Decimal
    dealer_bet: Decimal | None = None
    bet: Decimal | None = None  # None: the stake folded
    results: dict[str, Result] = field(default_factory=dict)

    @property
    def folded(self) -> bool:
        return self.bet is None


@dataclass
class BoxEntry:
    number: int
    stakes: list[StakeEntry]
    cards: list[str] = field(default_factory=list)  # the deal card first, then each hit, face up
    dark: str | None = None

    @property
    def playing(self) -> list[StakeEntry]:
        return [s for s in self.stakes if not s.folded]


@dataclass
class OchkoEntry:
    boxes: list[BoxEntry]
    dealer_cards: list[str] = field(default_factory=list)  # his face-down card first, then each draw


class _Log(Log):
    def settle(self, stake: StakeEntry, wager: str) -> None:
        """The dealer's settlement of one wager, if he entered one and it is not logged yet."""
        entered = stake.results.get(wager)
        if entered is None or (stake.id, wager) in self.settled:
            return
        self.settled.add((stake.id, wager))
        event = {"e": entered.result, "stake": stake.id, "wager": wager}
        if entered.result != LEAVE and entered.amount is not None:
            event["amount"] = amount_json(entered.amount)
        self.add(event, Source("result", stake.box, stake.id, wager))

    def settle_box(self, stakes: list[StakeEntry]) -> None:
        """Bet and Ante of each stake, then the dealer bets (rules/ochko.md, step 10).

        Within a stake what is paid comes first (a dark-card box: its Ante paid, then its Bet
        returned), otherwise the Bet before the Ante.
        """
        for stake in stakes:
            for wager in sorted(MAIN_WAGERS, key=lambda w: _paid_last(stake, w)):
                self.settle(stake, wager)
        for stake in stakes:
            self.settle(stake, "dealer_bet")


def build_ochko(entry: OchkoEntry, *, header: dict) -> Built:
    """The `round/1` document of an ochko round, in the order of the procedure.

    `header` gives everything but the stakes and events (format, id, variant, table, rules,
    dealer). The order: the deal 1 → 6 then the dealer's card; each stake's decision, a fold's
    settlement right after it; the open; each box's drawing 1 → 6 (hits, then a dark card or a
    stand), an instant ochko or mnogo settled right after the card that made it; the dealer's
    draws; the dark cards revealed 1 → 6; the final settlement from box 6 down to box 1, each
    box's Bets and Antes before its dealer bets. What the dealer entered is logged as entered —
    a wrong payout stays wrong, for the engine to find.

    Which card gave a box an instant ochko or mnogo is the engine's call, asked with one replay:
    the round is first written as if no box finished early; when the engine finds no instant
    result there, that is the document (and its replay goes with it, for the form's check), else
    it is written again with each instant settled right after its card.
    """
    first = _write(entry, header, {})
    try:
        outcome = engine.replay(first.document)
    except engine.RoundError:
        return first  # the whole document will be refused with the reason; nothing to place here
    instants: dict[int, int] = {}  # box → the index in its cards of the card that finished it
    for w in outcome.wagers or ():
        source = first.source_of(w.event) if w.kind == "instant" else None
        if source is not None and source.part == "card" and source.index:
            instants.setdefault(source.box, source.index)
    if not instants:
        first.outcome = outcome
        return first
    return _write(entry, header, instants)


def _write(entry: OchkoEntry, header: dict, instants: dict[int, int]) -> Built:
    """The document with each box in `instants` finished (settled at once) at the card given."""
    boxes = sorted((b for b in entry.boxes if b.stakes), key=lambda b: b.number)
    stakes = []
    for box in boxes:
        for s in box.stakes:
            named = {"player": s.player} if s.player else {}  # a player's name is optional (round/1)
            item = {"id": s.id, "box": box.number, **named, "ante": amount_json(s.ante)}
            if s.dealer_bet is not None:
                item["dealer_bet"] = amount_json(s.dealer_bet)
            stakes.append(item)
    log = _Log(dict(header), stakes)

    # 1. The deal: one card face up to each box in play, then the dealer's own card face down.
    for box in boxes:
        if box.cards:
            log.add({"e": "deal", "to": box.number, "card": box.cards[0]}, Source("card", box.number, index=0))
    if entry.dealer_cards:
        log.add({"e": "deal", "to": "dealer", "card": entry.dealer_cards[0]}, Source("dealer_card", index=0))

    # 2. Decisions: fold (its Ante and dealer bet go to the float at once) or a Bet.
    for box in boxes:
        for s in box.stakes:
            if s.folded:
                log.add({"e": "fold", "stake": s.id}, Source("decision", box.number, s.id))
                for wager in OCHKO_WAGERS:
                    log.settle(s, wager)
            else:
                log.add(
                    {"e": "bet", "stake": s.id, "amount": amount_json(s.bet)},
                    Source("decision", box.number, s.id, "bet"),
                )

    # 3. The dealer closes the Bets and opens his card.
    log.add({"e": "open"}, Source("open"))

    # 4–5. Drawing, box by box; an instant ochko or mnogo is settled right after its card.
    for box in boxes:
        playing = box.playing
        finished = False
        for k, card in enumerate(box.cards[1:], start=1):
            log.add({"e": "hit", "box": box.number, "card": card}, Source("card", box.number, index=k))
            if playing and not finished and instants.get(box.number) == k:
                finished = True
                log.settle_box(playing)
        if box.dark is not None:
            log.add({"e": "dark", "box": box.number, "card": box.dark}, Source("dark", box.number))
        elif playing and not finished:
            log.add({"e": "stand", "box": box.number}, Source("stand", box.number))

    # 7. The dealer's draws.
    for k, card in enumerate(entry.dealer_cards[1:], start=1):
        log.add({"e": "draw", "card": card}, Source("dealer_card", index=k))

    # 8. Every dark card turned over.
    for box in boxes:
        if box.dark is not None:
            log.add({"e": "reveal", "box": box.number}, Source("reveal", box.number))

    # 9–10. Final settlement, box 6 down to box 1.
    for box in reversed(boxes):
        log.settle_box(box.stakes)
    return log.built()


def _paid_last(stake: StakeEntry, wager: str) -> bool:
    entered = stake.results.get(wager)
    return entered is None or entered.result != PAY


@dataclass
class SumResult(Result):
    """A wager paid inside a payment of several boxes in one sum (the `pay_sum` event): its own
    amount is not logged, only the sum's (`total`) and its boxes in the order paid (`in_sum`, "3, 1")."""

    in_sum: str = ""
    total: Decimal | None = None


def _paid_in_one_sum(ev: dict, boxes: dict[int, BoxEntry]) -> None:
    """Each wager of the sum's boxes that played marked paid in that sum (its first settlement)."""
    numbers = [n for n in ev["boxes"] if isinstance(n, int)]
    words = ", ".join(str(n) for n in numbers)
    total = Decimal(str(ev.get("amount"))) if ev.get("amount") is not None else None
    for n in numbers:
        for stake in boxes[n].playing if n in boxes else ():
            wagers = ("bet", "ante", "dealer_bet") if stake.dealer_bet is not None else MAIN_WAGERS
            for wager in wagers:
                stake.results.setdefault(wager, SumResult(PAY, None, words, total))


def ochko_entry_from_document(doc: dict) -> OchkoEntry:
    """What the form would hold for a logged ochko round: each box's stakes, cards and dark card,
    the dealer's cards and the first settlement of each wager — for drawing a stored round.

    It reads a document the engine has accepted; stakes keep whatever ids the log gave them.
    """
    boxes: dict[int, BoxEntry] = {}
    stakes: dict[str, StakeEntry] = {}
    for item in doc.get("stakes", []):
        ante, dealer_bet = item.get("ante"), item.get("dealer_bet")
        stake = StakeEntry(
            id=str(item["id"]),
            box=item["box"],
            player=str(item.get("player", "")),
            ante=Decimal(str(ante)) if ante is not None else Decimal(0),
            dealer_bet=Decimal(str(dealer_bet)) if dealer_bet is not None else None,
        )
        stakes[stake.id] = stake
        boxes.setdefault(stake.box, BoxEntry(stake.box, [])).stakes.append(stake)
    dealer: list[str] = []
    for ev in doc.get("events", []):
        e = ev.get("e")
        if e == "deal":
            if ev.get("to") == "dealer":
                dealer.append(ev.get("card"))
            elif ev.get("to") in boxes:
                boxes[ev["to"]].cards.append(ev.get("card"))
        elif e == "hit" and ev.get("box") in boxes:
            boxes[ev["box"]].cards.append(ev.get("card"))
        elif e == "dark" and ev.get("box") in boxes:
            boxes[ev["box"]].dark = ev.get("card")
        elif e == "draw":
            dealer.append(ev.get("card"))
        elif e == "incident" and ev.get("kind") == "dealer_card_exposed" and dealer:
            dealer.pop()  # the exposed card is burned; the next deal to the dealer replaces it
        elif e == "bet" and ev.get("stake") in stakes:
            stakes[ev["stake"]].bet = Decimal(str(ev.get("amount")))
        elif e == "pay_sum" and isinstance(ev.get("boxes"), list):
            _paid_in_one_sum(ev, boxes)
        elif e in RESULTS and ev.get("stake") in stakes:
            amount = ev.get("amount")
            stakes[ev["stake"]].results.setdefault(
                ev.get("wager"), Result(e, Decimal(str(amount)) if amount is not None else None)
            )
    return OchkoEntry(sorted(boxes.values(), key=lambda b: b.number), dealer)
