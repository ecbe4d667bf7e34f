"""The table terminal's questions to the engine, without Django: what a round in progress may do next
(the engine's moves, each as the event it would log), what is owed so far, and the findings — a
wrong payment among them the moment it is entered (the halt).

The terminal (dealing/views/terminal.py, dealing/static/dealing/terminal.js) writes the round's log
event by event, as it is dealt; each time it asks `follow(document)`. What it finally stores goes
through the same service as the round form and the API (`services.round_log`).

What the terminal asks of a stake for each game it follows (the main wager, the dealer bet,
stakes a box, a side bet) is the game's `TerminalGame`, the `terminal` slot of its GAME
(dealing/games/<variant>/terminal.py); a game without one is entered on its form.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from casino.finding_text import said
from dealing import engine, games
from dealing.engine.money import fmt


@dataclass(frozen=True)
class TerminalGame:
    wager: str  # the stake's main wager in round/1: "ante" (ochko) or "bet" (blackjack)
    per_box: int  # stakes a box may hold
    extra: tuple[str, ...] = ()  # optional amounts of a stake ("dealer_bet")
    letters: bool = True  # stake ids "1a", "1b" (ochko's form) or the box number (blackjack's form)
    # A side bet a table offers when its house rule of that name is on (blackjack's "jackpot"): the
    # stake may carry it, and the terminal asks every card's suit.
    side_bet: str = ""
    # The felt at a glance: each hand's total and the dealer's as the game counts them, read off the
    # engine's walk of the round so far (the wing's `felt(walk)`; the page never counts cards itself).
    felt: Callable[[Any], dict] | None = None
    # The game's own word for each of its wagers where the floor's differs from the shared one (the
    # seed's "Bet" of ochko is not blackjack's bet): lazy translations, by wager.
    wager_words: Mapping[str, Any] = field(default_factory=dict)
    # Its action keys on the keypad and in the key help: a template drawing part "pad" and part "help".
    keys_template: str = ""
    # The game's clocks at the terminal (docs/terminal.md, "The clocks"): `clock(rules, moves, entries)`
    # is the clock that runs after `entries` entries, given the engine's raw moves — {"kind", "seconds",
    # "move": the move logged when it ends, or None} — or None (no clock runs, or the table has none).
    clock: Callable[[dict, list, int], dict | None] | None = None
    # Where a stake sits in round/1: a "box" of the casino's felt, or a "seat" round a player's bank.
    place: str = "box"
    # Is the main wager an amount of the stake (the Ante, blackjack's bet)? Else it is placed by the
    # round's `bet` event only, and the stake's column holds the bet it played last time (the default).
    stake_wager: bool = True
    id_prefix: str = ""  # a stake id without letters: this before the place's number ("S2")
    suits: bool = False  # every card's suit may change a settlement: the terminal always asks it
    ranks: str = ""  # the ranks of the game's pack, where it has not all thirteen
    # Who the header's "deal to" names for the house's own hand ("dealer"; a player's "bank"), and the
    # felt's word for it.
    dealer_to: str = "dealer"
    dealer_word: Any = None
    # Header fields of round/1 the terminal asks before the deal, each a player's name ("bank"), with
    # their words; `carry(previous round)` gives their values from the table's previous round.
    header: Mapping[str, Any] = field(default_factory=dict)
    carry: Callable[[dict], dict] | None = None
    # One key for a move with neither card nor amount, by its event: (key, event, the key's help).
    actions: tuple[tuple[str, str, Any], ...] = ()

    def wager_word(self, wager: str) -> str | None:
        word = self.wager_words.get(wager)
        return None if word is None else said(word)

    def stake_id(self, box: int, k: int) -> str:
        return f"{box}{'abc'[k]}" if self.letters else f"{self.id_prefix}{box}"


# Fields of a move that only inform (the limits of a bet, of an insurance), never logged.
_INFO = ("min", "max")


def game_of(variant: str) -> TerminalGame | None:
    """What the terminal asks of a game's stakes, or None: the game is entered on its form."""
    return games.slot_of(variant, "terminal")


def extras(variant: str, rules: dict) -> tuple[str, ...]:
    """The optional amounts a stake of this table may carry: the dealer bet (ochko), the jackpot
    side bet (a blackjack table that offers it)."""
    game = game_of(variant)
    if game is None:
        return ()
    return game.extra + ((game.side_bet,) if game.side_bet and suited(variant, rules) else ())


def suited(variant: str, rules: dict) -> bool:
    """Does this table need every card's suit (the online jackpot)? Else the terminal types ranks."""
    game = game_of(variant)
    if game is not None and game.suits:
        return True
    if game is None or not game.side_bet:
        return False
    try:
        return bool(engine.house_rules(variant, rules)[game.side_bet])
    except engine.RoundError:
        return True


def has_clocks(variant: str, rules: dict) -> bool:
    """Does this table run clocks at the terminal (the salon's blackjack)? Its game says which clock
    runs before the first entry: a table with clocks has at least the bet clock."""
    game = game_of(variant)
    if game is None or game.clock is None:
        return False
    try:
        return game.clock(rules, [], 0) is not None
    except engine.RoundError:
        return False


def _amount(value) -> str | None:
    return None if value is None else fmt(Decimal(value))


def follow(doc: dict) -> dict:
    """What the terminal shows after the events of `doc`: one walk of the round.

    `moves`: each allowed next event as `event` (the fields it logs), `needs` (a card, an amount),
    `say` and, for a bet or insurance, its `min`/`max`. `owed`: the wagers owed so far. `findings`:
    those of the events so far and the verdicts on its settlements (every finding once it is over),
    each saying whether it `halts`. `halt`: the halting findings of the last event (a wrong payment:
    the game stops until the entry is taken back or a pit boss overrides it).
    `error`: the engine could not follow the log (code, message, event). `done`: nothing more may happen.
    """
    events = doc.get("events") or []
    try:
        walk = engine.walk(doc)
        raw_moves = walk.moves()
        seen = {id(f) for f in walk.findings}  # found by the events themselves, as they were applied
        outcome = walk.finish()
    except engine.RoundError as exc:
        return {
            "moves": [],
            "owed": [],
            "findings": [],
            "halt": [],
            "done": False,
            "error": {"code": exc.code, "message": exc.message, "event": exc.event, "path": exc.path},
            "felt": None,
            "clock": None,
        }
    handlers = walk.handlers
    moves = _settlement_order([_shape(m, handlers) for m in raw_moves])
    halting = {id(f) for f in _halting(outcome.findings, seen, events)}
    findings = []
    for f in outcome.findings:
        # Of what the end of the round finds, a round still in progress shows only what halts (the
        # findings of its entries, the verdicts on its settlements): not what is merely still to
        # come (a box not yet dealt).
        if raw_moves and id(f) not in halting:
            continue
        findings.append(_finding_json(f, halts=id(f) in halting))
    last = len(events) - 1
    owed = [
        {"stake": w.stake, "hand": w.hand, "wager": w.wager, "result": w.result, "amount": _amount(w.amount)}
        for w in (outcome.wagers or ())
    ]
    game = game_of(str(doc.get("variant")))
    paid: dict[str, Decimal] = {}  # what each stake is owed in all (its payments), for the felt
    for w in outcome.wagers or ():
        if w.result == "pay" and w.amount is not None:
            paid[w.stake] = paid.get(w.stake, Decimal(0)) + Decimal(w.amount)
    clock = None
    if game is not None and game.clock is not None:
        clock = game.clock(doc.get("rules") or {}, raw_moves, len(events))
        if clock is not None:
            move = clock.pop("move", None)
            clock["timeout"] = _shape(move, handlers)["event"] if move is not None else None
    return {
        "moves": moves,
        "owed": owed,
        "findings": findings,
        "halt": [f for f in findings if f["halts"] and f["event"] == last],
        "done": not moves,
        "error": None,
        "felt": game.felt(walk) if game is not None and game.felt is not None else None,
        "paid": {stake: fmt(amount) for stake, amount in paid.items()},
        "clock": clock,
    }


def _shape(m: dict, handlers) -> dict:
    """An engine's move as the terminal offers it: the event it logs, what it still needs, its words."""
    fields = handlers[m["e"]][1] if m["e"] in handlers else frozenset()
    needs = list(m.get("needs") or [])
    event = {k: v for k, v in m.items() if k in fields and k not in needs and k not in _INFO}
    if m["e"] == "double":
        event.pop("amount", None)  # the double's default: the hand's bet, as the form logs it
    return {"event": event, "needs": needs, "say": m.get("say", ""), **{k: m[k] for k in _INFO if k in m}}


_SETTLE = ("pay", "take", "leave")


def _finding_json(f, *, halts: bool) -> dict:
    return {
        "code": f.code,
        "severity": engine.SEVERITY.get(f.code, "major"),
        "event": f.event,
        "message": f.message,
        "params": f.params,
        "stake": f.stake,
        "wager": f.wager,
        "halts": halts,
    }


def _halting(findings, seen: set[int], events: list) -> list:
    """The findings that halt the terminal at the entry they name: those the entry raised as it was
    applied (a card out of the pack, a draw the rules forbid) and the verdict on a settlement (a
    wrong payment). What only the end of the round finds (a settlement missing) halts nothing."""
    return [
        f
        for f in findings
        if f.event is not None
        and 0 <= f.event < len(events)
        and (id(f) in seen or (isinstance(events[f.event], dict) and events[f.event].get("e") in _SETTLE))
    ]


def halts(doc: dict) -> list[dict]:
    """Every halt the terminal raised over the round's log, each as in `follow` (`event` is the entry
    it halted at): the server stores a terminal's round only when each was taken back or overridden
    by a pit boss. A log the engine cannot follow has none (it is refused as it is stored)."""
    events = doc.get("events") or []
    try:
        walk = engine.walk(doc)
        seen = {id(f) for f in walk.findings}
        outcome = walk.finish()
    except engine.RoundError:
        return []
    return [_finding_json(f, halts=True) for f in _halting(outcome.findings, seen, events)]


def _same_wager_holder(a: dict, b: dict) -> bool:
    return a.get("stake") == b.get("stake") and a.get("hand") == b.get("hand")


def _settlement_order(moves: list[dict]) -> list[dict]:
    """Where the rules leave the order free, the round form's: within a stake what is paid first,
    its dealer bet last (dealing/games/ochko/builder.py, `settle_box`), so the terminal's log and the
    form's are the same log."""
    out: list[dict] = []
    k = 0
    while k < len(moves):
        ev = moves[k]["event"]
        if ev["e"] not in _SETTLE:
            out.append(moves[k])
            k += 1
            continue
        group = [moves[k]]
        k += 1
        while k < len(moves) and moves[k]["event"]["e"] in _SETTLE and _same_wager_holder(moves[k]["event"], ev):
            group.append(moves[k])
            k += 1
        group.sort(key=lambda m: (m["event"].get("wager") == "dealer_bet", m["event"]["e"] != "pay"))
        out.extend(group)
    return out


def header_fields(variant: str, data) -> dict:
    """The header fields the game's terminal asks (a player's bank), from what the page sends: each a
    name, trimmed; one not sent is left out (the engine names it missing)."""
    game = game_of(variant)
    sent = data if isinstance(data, dict) else {}
    out = {}
    for name in game.header if game is not None else ():
        value = sent.get(name)
        if isinstance(value, str) and value.strip():
            out[name] = value.strip()[:HEADER_MAX]
    return out


HEADER_MAX = 80  # a player's name, as the round form's


def carried_header(variant: str, previous: dict | None) -> dict:
    """The header fields for the table's next round, from its previous one (who holds the bank now)."""
    game = game_of(variant)
    if game is None or game.carry is None or not previous or previous.get("variant") != variant:
        return {}
    return {k: v for k, v in game.carry(previous).items() if k in game.header and isinstance(v, str)}


def carried_stakes(variant: str, previous: dict | None, *, boxes: int, extra: tuple[str, ...] = ()) -> list[dict]:
    """The stakes of the table's previous round, for the next one (the players mostly stay):
    id, box (or seat), player (when named), the main wager and the dealer bet, each with the Bet it
    played. A game whose stakes carry no wager (veintiuno's bet is an event) gets the bet it played
    in the wager's place, as the next round's default."""
    game = game_of(variant)
    if game is None or not previous or previous.get("variant") != variant:
        return []
    bets: dict[str, object] = {}
    for ev in previous.get("events") or ():
        if isinstance(ev, dict) and ev.get("e") == "bet" and "stake" in ev:
            bets[ev["stake"]] = ev.get("amount")
    out = []
    place = game.place
    for item in previous.get("stakes") or ():
        if not isinstance(item, dict) or type(item.get(place)) is not int or not 1 <= item[place] <= boxes:
            continue
        wager = item.get(game.wager) if game.stake_wager else bets.get(item.get("id"))
        stake = {"id": str(item.get("id")), "box": item[place], game.wager: wager}
        if isinstance(item.get("player"), str) and item["player"].strip():
            stake["player"] = item["player"]
        for key in extra or game.extra:
            if item.get(key) is not None:
                stake[key] = item[key]
        if item.get("id") in bets:
            stake["last_bet"] = bets[item["id"]]
        out.append(stake)
    return out
