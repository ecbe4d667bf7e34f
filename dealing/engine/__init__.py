"""The rules engine: pure Python, no Django, no database, no I/O.

    from dealing import engine
    engine.settle(doc)          # settlement/1 for a round/1 document (dict, JSON text or bytes)
    engine.replay(doc)          # the same as an Outcome object (owed wagers, findings, cards)
    engine.next_events(doc)     # legal next events for a round in progress
    engine.walk(doc)            # a round in progress carried on event by event (apply, moves, finish)
    engine.check_shoe(doc)      # shoe/1 checks: burns, fees, card counts, reshuffle point
    engine.house_rules(variant, rules)   # the house rules in force, validated

`make install` compiles the same source with mypyc; `native.guard()` below decides, before any
engine module loads, whether that build is current (see native.py).

Each game (a round's ``variant``) is listed in games.py with its rules module, which offers the
same small interface (`Replay`, a loop.Round; `house_rules`, `shoe_findings`, `OPTIONS`,
`WAGERS`, `PACK`); the functions here dispatch on ``variant``. `VARIANTS` is the registered names.
"""

from types import ModuleType

from . import native as _native

_native.guard()  # before any other engine module: compiled only while it matches the source

from . import document as _document  # noqa: E402
from . import games  # noqa: E402
from . import loop as _loop  # noqa: E402
from .base import Outcome  # noqa: E402
from .errors import RoundError  # noqa: E402
from .findings import CODES, IMPOSSIBLE, SEVERITY, Finding, impossible  # noqa: E402

ENGINE_VERSION = "1.0.0"

__all__ = [
    "ENGINE_VERSION",
    "VARIANTS",
    "CODES",
    "IMPOSSIBLE",
    "SEVERITY",
    "Finding",
    "impossible",
    "Outcome",
    "RoundError",
    "load",
    "variant",
    "replay",
    "settle",
    "next_events",
    "walk",
    "check_shoe",
    "house_rules",
    "options",
]

_modules = games._loaded  # the rules modules imported so far, by name: read on every round


def __getattr__(name: str):
    if name == "VARIANTS":  # the games registered now (games.register may add one at run time)
        return games.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def variant(name) -> ModuleType:
    """The rules module of a game, e.g. ``variant("ochko").PACK``."""
    module = _modules.get(name)
    if module is None:
        game = games.get(name)
        if game is None:
            raise RoundError(
                "unknown_variant",
                f"The game {name!r} is not one this engine knows (known: {', '.join(games.names())}).",
                path="$.variant",
            )
        module = games.rules(game.name)
    return module


def load(doc) -> dict:
    """A round document as a dict: JSON text and bytes are parsed exactly (decimals stay Decimal)."""
    if type(doc) is dict:  # already decoded: the common case, and all that expect_object allows
        return doc
    if isinstance(doc, (str, bytes, bytearray)):
        doc = _document.load_json(doc)
    return _document.expect_object(doc, "$")


def _variant_of(doc: dict) -> ModuleType:
    if doc.get("format") != "round/1":
        _document.header(doc, doc.get("variant"))  # raises the precise error
    name = doc.get("variant")
    if type(name) is not str:
        if "variant" not in doc:
            raise _document.missing("variant", "$")
        raise _document.wrong_type("variant", name, "text", "$")
    return variant(name)


def replay(doc, *, approvers=None) -> Outcome:
    """Replay a round log: the owed settlement of every wager and every finding. `approvers`: the
    names that may approve an incident in it (the pit bosses of the table's pit); None: not checked."""
    doc = load(doc)
    return _loop.replay(_variant_of(doc).Replay, doc, None if approvers is None else frozenset(approvers))


def settle(doc) -> dict:
    """The `settlement/1` document for a `round/1` document."""
    return replay(doc).settlement()


def next_events(doc) -> list[dict]:
    """The events the rules allow next for a round in progress (possibly with no events yet)."""
    doc = load(doc)
    return _loop.next_events(_variant_of(doc).Replay, doc)


def walk(doc) -> _loop.Round:
    """A round in progress, carried on event by event: its state after the document's events.
    `.apply(i, event)` applies event number `i`; `.moves()` is what `next_events` would say of the
    round so far; `.finish()` is what `replay` would give for the whole log, once it is written.
    A builder that asks the engine along the way walks the round once (RoundError as `replay`)."""
    doc = load(doc)
    return _loop.walk(_variant_of(doc).Replay, doc)


def house_rules(variant_name: str, rules=None) -> dict:
    """The house rules in force for a variant, from the defaults (or preset) and overrides.

    Raises `RoundError` with code ``unknown_rule`` or ``bad_rule`` and a clear message.
    """
    return variant(variant_name).house_rules(rules)


def options(variant_name: str) -> list[dict]:
    """The house rules a table of this variant may set, for forms and documentation."""
    return [opt.describe() for opt in variant(variant_name).OPTIONS.values()]


def incident_findings(variant: str, kind: str, exposed: bool, resolution) -> list[Finding]:
    """An incident record's departures from its game's procedure (none for a game without one).
    Each finding's `params["rule"]` names the rules page's line in `incident_rule_lines(variant)`."""
    found = getattr(games.rules(variant), "incident_findings", None)
    return [] if found is None else found(kind, exposed, resolution)


def incident_rule_lines(variant: str) -> dict[str, str]:
    """rule -> the rules page's line an incident record is held to (empty for a game without one)."""
    return dict(getattr(games.rules(variant), "INCIDENT_RULE_LINES", {}))


def check_shoe(doc) -> list[Finding]:
    """Findings over a `shoe/1` document: the shoe's events and rounds in order."""
    from .shoe import check_shoe as _check

    return _check(load(doc))
