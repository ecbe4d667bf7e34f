"""What every game's round builder shares: where an event came from on the form (`Source`), what
the dealer did with a wager (`Result`), the built document with its sources (`Built`), and the log
being written in the order of the rules (`Log`).

A builder turns what a dealer entered on his game's round form (plain entries, no Django) into a
`round/1` document in the order things happened at the table, and remembers for every event where
on the form it came from, so the engine's findings and errors can be shown next to the field that
caused them. Each game's builder is `dealing/games/<variant>/builder.py`.
"""

from dataclasses import dataclass
from decimal import Decimal

from dealing import engine
from dealing.engine.money import fmt

PAY, TAKE, LEAVE = "pay", "take", "leave"
RESULTS = (PAY, TAKE, LEAVE)


@dataclass(frozen=True)
class Source:
    """Where on the form an event came from.

    `part` is one of: "card" (a box's card, `index` 0 being the deal), "dark", "stand", "decision"
    (a stake's Bet or fold), "result" (a wager's settlement), "dealer_card" (`index` 0 being his
    face-down card), "open", "reveal". Blackjack adds "double", "split", "insurance",
    "even_money" and "peek", and names the `hand` ("2.1") an event belongs to; veintiuno adds
    "play" (a seat's play line), "declare", "puje" and "bank_to".
    """

    part: str
    box: int | None = None
    stake: str | None = None
    wager: str | None = None
    index: int | None = None
    hand: str | None = None


@dataclass
class Result:
    """What the dealer did with one wager: pay (an amount), take (optionally the amount), leave."""

    result: str
    amount: Decimal | None = None


@dataclass
class Built:
    document: dict
    sources: list[Source]  # one per event, same index
    # The engine's replay of `document` when the builder already made it (it asked the engine how
    # the round went): the form's check uses it instead of replaying the same document again.
    outcome: object = None

    def source_of(self, event: int | None) -> Source | None:
        if event is None or not 0 <= event < len(self.sources):
            return None
        return self.sources[event]


def amount_json(amount: Decimal):
    """An amount as the round log writes it: whole amounts as integers, others as "7.50"."""
    return int(amount) if amount == amount.to_integral_value() else fmt(amount)


class Log:
    """The events of a round being written, each with its source on the form."""

    def __init__(self, header: dict, stakes: list[dict]):
        self.header = header
        self.stakes = stakes
        self.events: list[dict] = []
        self.sources: list[Source] = []
        self.settled: set[tuple] = set()

    def add(self, event: dict, source: Source) -> int:
        self.events.append(event)
        self.sources.append(source)
        return len(self.events) - 1

    def document(self) -> dict:
        return {**self.header, "stakes": self.stakes, "events": list(self.events)}

    def built(self, outcome=None) -> Built:
        return Built(self.document(), self.sources, outcome)


class WalkedLog(Log):
    """A log the engine follows as it is written: each event is applied to one walk of the round
    (`engine.walk`) as it is added, so the builder may ask what the rules allow next (`moves()`) as
    often as it needs, and the built document comes with its outcome — the round walked once.

    When the engine cannot follow the log (a `RoundError`), the walk stops: `moves()` is then empty
    and the document goes without an outcome, for the form's check to replay and report the error
    on its field."""

    def __init__(self, header: dict, stakes: list[dict]):
        super().__init__(header, stakes)
        self.walk = None
        try:
            self.walk = engine.walk(self.document())
        except engine.RoundError:
            pass

    def add(self, event: dict, source: Source) -> int:
        i = super().add(event, source)
        if self.walk is not None:
            try:
                self.walk.apply(i, event)
            except engine.RoundError:
                self.walk = None
        return i

    def moves(self) -> list[dict]:
        """What the engine says may happen next in the round as logged so far."""
        if self.walk is not None:
            try:
                return self.walk.moves()
            except engine.RoundError:
                self.walk = None
        return []

    def built(self, outcome=None) -> Built:
        if outcome is None and self.walk is not None:
            try:
                outcome = self.walk.finish()
            except engine.RoundError:
                outcome = None
            self.walk = None  # a finished round takes no more events
        return super().built(outcome)
