"""The toy game's engine module (its rules): one card to each box and one to the dealer, the higher rank wins
(a tie goes to the dealer); a win is paid 1:1, a loss taken. Tests only.

It gives the engine's game interface (`NAME`, `PACK`, `DECKS`, `OPTIONS`, `WAGERS`,
`house_rules`, and `Replay`, a `loop.Round` the engine's event loop drives) over a real `round/1`
document; registered with `dealing.engine.games.register` (tests/games/toy/__init__.py):

    {"format": "round/1", "variant": "toy", "table": {"min": 10, "max": 100}, "stakes":
     [{"id": "1", "box": 1, "player": "P-1", "bet": 20}], "events": [{"e": "deal", "to": 1, "card": "9S"},
     {"e": "deal", "to": "dealer", "card": "5H"}, {"e": "pay", "stake": "1", "wager": "bet", "amount": 20}]}
"""

from dealing.engine import cards as _cards
from dealing.engine import document as doc_
from dealing.engine import loop
from dealing.engine.base import LEAVE, PAY, TAKE, Outcome, Owed, Settled
from dealing.engine.errors import RoundError
from dealing.engine.findings import Finding
from dealing.engine.money import fmt, parse_amount

NAME = "toy"
RANKS = "23456789TJQKA"
PACK = _cards.pack(RANKS)
DECKS = 1
OPTIONS: dict = {}
WAGERS = ("bet",)


def house_rules(rules) -> dict:
    if rules not in (None, {}):
        raise RoundError("unknown_rule", "The toy game has no house rules.", path="$.rules")
    return {}


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def _outcome(doc: dict, events: list) -> Outcome:
    """The whole round at once: the toy needs no state carried between events."""
    doc_.header(doc, NAME)
    table = doc_.expect_object(doc.get("table"), "$.table")
    low, high = parse_amount(table.get("min"), "$.table.min"), parse_amount(table.get("max"), "$.table.max")
    stakes: dict[str, dict] = {}
    for k, item in enumerate(doc_.expect_list(doc.get("stakes"), "$.stakes")):
        item = doc_.expect_object(item, f"$.stakes[{k}]")
        bet = parse_amount(item.get("bet"), f"$.stakes[{k}].bet")
        stakes[str(item.get("id"))] = {"box": item.get("box"), "bet": bet}
    cards: dict[object, str] = {}
    settled: list[Settled] = []
    findings: list[Finding] = []
    for i, ev in enumerate(events):
        ev = doc_.expect_object(ev, f"$.events[{i}]")
        e = ev.get("e")
        if e == "deal":
            card = ev.get("card")
            if card not in PACK:
                raise RoundError(
                    "bad_card",
                    f"Event {i}: {card!r} is not a card of the toy pack.",
                    event=i,
                    path=f"$.events[{i}].card",
                )
            cards[ev.get("to")] = card
        elif e in (PAY, TAKE, LEAVE):
            if ev.get("stake") not in stakes:
                raise RoundError(
                    "unknown_stake",
                    f"Event {i}: there is no stake {ev.get('stake')!r}.",
                    event=i,
                    path=f"$.events[{i}].stake",
                )
            amount = parse_amount(ev["amount"], f"$.events[{i}].amount") if "amount" in ev else None
            settled.append(Settled(i, ev["stake"], None, "bet", e, amount))
        else:
            raise RoundError(
                "unknown_event", f"Event {i}: the toy game has no event {e!r}.", event=i, path=f"$.events[{i}].e"
            )
    if "dealer" not in cards:
        raise RoundError("no_dealer_card", "The dealer has no card.", path="$.events")
    owed: dict[str, Owed] = {}
    for sid, stake in stakes.items():
        if not low <= stake["bet"] <= high:
            findings.append(
                Finding(
                    "BET_LIMITS",
                    f"Stake {sid}: bet {fmt(stake['bet'])} outside the table limits.",
                    stake=sid,
                    wager="bet",
                )
            )
        card = cards.get(stake["box"])
        if card is None:
            raise RoundError("no_card", f"Box {stake['box']} has no card.", path="$.events")
        win = _rank(card) > _rank(cards["dealer"])
        owed[sid] = Owed(
            sid,
            None,
            "bet",
            PAY if win else TAKE,
            stake["bet"],
            stake["bet"],
            why="higher than the dealer's card" if win else "not higher than the dealer's card",
        )
    first: dict[str, Settled] = {}
    for s in settled:
        o = owed[s.stake]
        if first.setdefault(s.stake, s) is not s:
            findings.append(
                Finding(
                    "UNEXPECTED_SETTLEMENT",
                    f"Stake {s.stake}: settled a second time.",
                    event=s.event,
                    stake=s.stake,
                    wager="bet",
                )
            )
        elif s.result != o.result:
            findings.append(
                Finding(
                    "WRONG_RESULT",
                    f"Stake {s.stake}: {s.result}, owed {o.result}.",
                    event=s.event,
                    stake=s.stake,
                    wager="bet",
                    player_delta=s.delta(o.size) - o.delta,
                )
            )
        elif s.result == PAY and s.amount != o.amount:
            findings.append(
                Finding(
                    "WRONG_AMOUNT",
                    f"Stake {s.stake}: paid {fmt(s.amount)}, owed {fmt(o.amount)}.",
                    event=s.event,
                    stake=s.stake,
                    wager="bet",
                    expected={"result": o.result, "amount": fmt(o.amount)},
                    actual={"result": s.result, "amount": fmt(s.amount)},
                    player_delta=s.delta(o.size) - o.delta,
                )
            )
    if settled:
        for sid in owed:
            if sid not in first:
                findings.append(Finding("MISSING_SETTLEMENT", f"Stake {sid}: never settled.", stake=sid, wager="bet"))
    return Outcome(
        NAME, sorted(owed.values(), key=lambda w: w.stake), findings, list(cards.values()), {}, settled=settled
    )


class Replay(loop.Round):
    """The engine replays a round through `loop.replay(Replay, doc)`: `run` hands over the events and
    `finish` judges them all, which is all a one-card game needs (the real games apply each event)."""

    def __init__(self, doc):
        super().__init__({}, loop.card_table(_rank, PACK))
        self.doc = doc
        self.events: list = []

    def run(self, events, start=0):
        self.events = list(events)

    def finish(self):
        return _outcome(self.doc, self.events)

    def moves(self):
        return []
