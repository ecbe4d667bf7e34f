"""What every variant's replay shares: the event loop, the readers of stakes, hands and cards,
the findings, and the module functions built on them (`replay`, `next_events`, `walk`).

A variant's `Replay` is a `Round` that states only its rules: its header, the handler of each of
its events (`handlers`: event name -> (handler, the fields that event may carry)), the end of
the round (`finish`) and the events allowed next (`moves`). `replay(Replay, doc)`,
`next_events(Replay, doc)` and `walk(Replay, doc)` below are the same for every variant.
"""

from collections.abc import Callable
from typing import Any, ClassVar, Final, NoReturn

from mypy_extensions import mypyc_attr

from . import cards as _cards
from . import document as doc_
from .base import Outcome, Settled
from .errors import RoundError
from .findings import Finding
from .sentences import finding

# A card as the variants read it: (code, value, is_ace, is_picture, in_pack). A text that is no
# card at all keeps its text as its code, counts 0 and is in no pack.
NO_CARD_INFO: Final = (0, False, False, False)

# States of a hand that more than one variant has.
PLAYING: Final = "playing"
STOOD: Final = "stood"
SPLIT: Final = "split"

Handlers = dict[str, tuple[Callable[[Any, int, dict], None], frozenset]]


# A game registered at run time (games.register) may subclass Round in plain Python, also when this
# module is compiled; the built-in games' subclasses stay native.
@mypyc_attr(allow_interpreted_subclasses=True)
class Round:
    """The state every variant's replay keeps, and the loop that applies a round's events.

    What only messages need is said once per game, on its class; an instance keeps what the loop
    reads, and few attributes: past 30, CPython stops sharing the keys of instance dictionaries
    and every attribute read of the pure-Python engine gets slower.
    """

    GAME: ClassVar[str] = "this"  # the game's name in messages: "an ochko round"
    PACK_PHRASE: ClassVar[str] = "pack"  # the phrase naming the pack in CARD_INVALID ("pack_52": "the 52-card pack")
    CARD_EXAMPLE: ClassVar[str] = "AS"  # a card of the pack, for the messages that show one
    SUIT_WORDS: ClassVar[str] = "in this game"  # where suits matter: "a table with the jackpot", for suit_needed

    def __init__(self, handlers: Handlers, card_table: dict[str, tuple]) -> None:
        self.handlers = handlers
        self.card_table = card_table  # every accepted spelling -> the card's facts (see NO_CARD_INFO)
        self.copies = 1  # how many of each card the shoe (or pack) holds: set from the house rules
        self.findings: list[Finding] = []
        # Who may approve an incident in this round (the store's pit bosses of the table's pit);
        # None: not told, only the log's own names are compared.
        self.approvers: frozenset[str] | None = None
        self.shoe_cards: list[str] = []
        self.card_counts: dict[str, int] = {}
        self.ranks_over: set[str] = set()  # the ranks of suit-less cards flagged CARD_COUNT
        self.settled: list[Settled] = []
        self.events_seen = 0

    # --- the loop ---------------------------------------------------------------------------------

    def apply(self, i: int, ev) -> None:
        """Apply one event (`run` is the same for a whole list)."""
        self.run([ev], i)

    def run(self, events: list, start: int = 0) -> None:
        """Apply events in order; the first is event number `start`.

        This loop is the engine's hot path: the handlers are read once, each event's by one lookup.
        """
        handlers = self.handlers
        i = start - 1
        for item in events:
            i += 1
            if type(item) is not dict:
                self._refuse_event(i, item)
            ev: dict = item
            try:
                handler, fields = handlers[ev["e"]]
            except (KeyError, TypeError):  # no "e", or one that is no event's name
                self._refuse_event(i, ev)
            doc_.event_fields(ev, fields, i)
            handler(self, i, ev)
        self.events_seen = start + len(events)
        self.ran()

    def ran(self) -> None:
        """After a run of events: what a variant works out once rather than at every event."""

    def _refuse_event(self, i: int, ev) -> None:
        doc_.expect_object(ev, f"$.events[{i}]", i)
        if "e" not in ev:
            raise doc_.missing("e", f"$.events[{i}]", i)
        game = self.GAME
        article = "an" if game[:1] in "aeiou" else "a"
        raise RoundError(
            "unknown_event",
            f"Event {i}: {ev['e']!r} is not an event of {article} {game} round (known: {', '.join(self.handlers)}).",
            path=f"$.events[{i}].e",
            event=i,
        )

    # --- the end of the round, what may happen next: each variant's own -------------------------

    def finish(self) -> Outcome:
        raise NotImplementedError

    def moves(self) -> list[dict]:
        raise NotImplementedError

    # --- findings and cards -------------------------------------------------------------------------

    def _flag(self, code: str, message: str, event: int | None, **kw) -> None:
        self.findings.append(Finding(code, message, event=event, **kw))

    def _say(self, code: str, params: dict, event: int | None, **kw) -> None:
        """A finding whose sentence is its code's template (sentences.py) filled from `params`."""
        self.findings.append(finding(code, params, event=event, **kw))

    def _card(self, i: int, ev: dict) -> tuple:
        """Read an event's card and count it out of the shoe."""
        try:
            info = self.card_table[ev["card"]]
        except (KeyError, TypeError):
            pass
        else:
            if info[4]:
                code = info[0]
                self.shoe_cards.append(code)
                counts = self.card_counts
                n = counts[code] = counts.get(code, 0) + 1
                if n > self.copies:
                    self._over(i, code, n)
                return info
        text = doc_.card(ev, i, self.CARD_EXAMPLE)
        if _cards.suitless(text) is not None and text not in self.card_table:
            self._suit_needed(i, text)
        info = self.card_table.get(text) or (text, *NO_CARD_INFO)
        self._count(i, info)
        return info

    def _count(self, i: int, info: tuple) -> None:
        """Count a card out of the shoe: CARD_INVALID when it is no card of the pack."""
        code = info[0]
        self.shoe_cards.append(code)
        if not info[4]:
            self._say(
                "CARD_INVALID", {"rule": "not_in_pack", "event": i, "card": code, "pack": {"rule": self.PACK_PHRASE}}, i
            )
            return
        n = self.card_counts.get(code, 0) + 1
        self.card_counts[code] = n
        if n > self.copies:
            self._over(i, code, n)

    def _over(self, i: int, code: str, n: int) -> None:
        """A card counted more often than the shoe holds copies of it: CARD_COUNT once for a suited
        card; a suit-less card (``9*``) counts against its rank only, at most 4 × the copies."""
        if code[1:] != _cards.SUITLESS:
            if n == self.copies + 1:
                self._too_many(i, code, n)
            return
        rank = code[0]
        total = sum(k for c, k in self.card_counts.items() if c[0] == rank)
        limit = 4 * self.copies
        if total > limit and rank not in self.ranks_over:
            self.ranks_over.add(rank)
            self._say(
                "CARD_COUNT", {"rule": "rank", "event": i, "n": total, "card": _cards.label(code), "most": limit}, i
            )

    def _suit_needed(self, i: int, text: str) -> NoReturn:
        """A suit-less card where the suit matters: refused, naming the event."""
        raise RoundError(
            "suit_needed",
            f"Event {i}: the card {text!r} has no suit, but the suit matters "
            f'{self.SUIT_WORDS}: write the card with its suit, such as "{self.CARD_EXAMPLE}".',
            path=f"$.events[{i}].card",
            event=i,
        )

    def _too_many(self, i: int, code: str, n: int) -> None:
        """CARD_COUNT, in the variant's words, the first time a card comes out once too often."""
        raise NotImplementedError


def lookup(table: dict, i: int, ev: dict, key: str, wanted: str, among: str) -> Any:
    """The stake (or hand) an event names by `key`, or the precise error: missing, not text, unknown.

    `among` opens the list of the known names in the message ("among the round's stakes (").
    """
    try:
        return table[ev[key]]
    except (KeyError, TypeError):
        pass
    name = ev.get(key)
    if key not in ev:
        raise doc_.missing(key, f"$.events[{i}]", i)
    if type(name) is not str:
        raise doc_.wrong_type(key, name, wanted, f"$.events[{i}]", i)
    raise RoundError(
        f"unknown_{key}",
        f'Event {i} names {key} "{name}", which is not {among}{", ".join(table)}).',
        path=f"$.events[{i}].{key}",
        event=i,
    )


def stake_of(stakes: dict, i: int, ev: dict) -> Any:
    """The stake an event names, or the precise error."""
    return lookup(stakes, i, ev, "stake", "a stake id (text)", "among the round's stakes (")


def deal_target(i: int, ev: dict, own: str, wanted: str) -> Any:
    """A deal event's "to": a box (or seat) number, or `own`, the dealer's (or bank's) hand."""
    to = ev.get("to")
    if type(to) is not int and to != own:
        if "to" not in ev:
            raise doc_.missing("to", f"$.events[{i}]", i)
        raise doc_.wrong_type("to", to, wanted, f"$.events[{i}]", i)
    return to


def move(e: str, say: str, *, needs: list | None = None, **fields) -> dict:
    """One event allowed next: its fields, what it still needs (a card, an amount), and what to say."""
    out = {"e": e, **fields}
    out["needs"] = needs or []
    out["say"] = say
    return out


def missing(key: str) -> NoReturn:
    raise doc_.missing(key, "$")


def finding_key(f: Finding):
    """Findings in event order; those of the round as a whole last."""
    return (f.event is None, f.event or 0)


def sort_findings(findings: list[Finding]) -> list[Finding]:
    findings.sort(key=finding_key)
    return findings


def first_in(items: list, state: str) -> Any:
    """The first of `items` (hands or boxes, in playing order) in `state`: whose turn it is."""
    for item in items:
        if item.state == state:
            return item
    return None


def card_table(
    value: Callable[[str], int], pack: frozenset[str], pictures: str = "JQK", *, suitless: bool = False
) -> dict[str, tuple]:
    """Every accepted spelling of a card -> (code, value, is_ace, is_picture, in_pack); with
    `suitless`, also the suit-less cards (``9*``) of the pack's ranks, where suits never matter."""
    table = {
        text: (code, value(code[0]), code[0] == "A", code[0] in pictures, code in pack)
        for text, code in _cards.spellings().items()
    }
    if suitless:
        ranks = {code[0] for code in pack}
        for text, code in _cards.suitless_spellings().items():
            table[text] = (code, value(code[0]), code[0] == "A", code[0] in pictures, code[0] in ranks)
    return table


# --- a whole round, for any variant's Replay ------------------------------------------------------------


def replay(cls: Callable[[dict], Round], doc: dict, approvers: frozenset[str] | None = None) -> Outcome:
    """Replay a whole round log: what each wager was owed and every finding. `approvers`: the names
    that may approve an incident (None: not checked against a list)."""
    state = cls(doc)
    state.approvers = approvers
    events = doc["events"] if "events" in doc else missing("events")
    if type(events) is not list:
        doc_.expect_list(events, "$.events")
    state.run(events)
    return state.finish()


def next_events(cls: Callable[[dict], Round], doc: dict) -> list[dict]:
    """The events the rules allow next for a round in progress."""
    return _walked(cls, doc).moves()


def walk(cls: Callable[[dict], Round], doc: dict) -> Round:
    """A round in progress, to be carried on event by event: the state after `doc`'s events (often
    none yet). Whoever writes a round's log asks it along the way what may come next (`moves()`)
    as it applies each event it writes (`apply(i, event)`), and at the end how the round went
    (`finish()`: what `replay` gives for the whole log). One walk, however many questions."""
    return _walked(cls, doc)


def _walked(cls: Callable[[dict], Round], doc: dict) -> Round:
    state = cls(doc)
    state.run(doc_.expect_list(doc.get("events", []), "$.events"))
    return state
