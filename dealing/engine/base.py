"""What every variant shares: house-rule options, owed wagers, the outcome of a replay, and the
comparison of what the dealer did with what was owed.

Each variant's rules module (``ochko``, ``blackjack``, ``veintiuno``; games.py lists them) builds
on these; the package's top level dispatches on the document's ``variant``.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from .errors import RoundError
from .findings import Finding
from .money import ZERO, fmt, parse_amount
from .sentences import finding, phrase

# Final: the compiled engine (native.py) reads these as C constants instead of module lookups.
PAY: Final = "pay"
TAKE: Final = "take"
LEAVE: Final = "leave"
RESULT_WORDS: Final = {PAY: "paid", TAKE: "taken", LEAVE: "left"}


# --- house rules -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One house rule a table may set: its default and what values it accepts."""

    name: str
    default: Any
    kind: str  # "choice" | "amount" | "int" | "bool"
    help: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None

    def read(self, value, path: str):
        if self.kind == "choice":
            if value not in self.choices:
                raise RoundError(
                    "bad_rule",
                    f'House rule "{self.name}" is {value!r}; it must be one of '
                    f"{', '.join(repr(c) for c in self.choices)}.",
                    path=path,
                )
            return value
        if self.kind == "bool":
            if type(value) is not bool:
                raise RoundError(
                    "bad_rule", f'House rule "{self.name}" must be true or false, not {value!r}.', path=path
                )
            return value
        if self.kind == "int":
            if (
                type(value) is not int
                or (self.minimum is not None and value < self.minimum)
                or (self.maximum is not None and value > self.maximum)
            ):
                raise RoundError(
                    "bad_rule",
                    f'House rule "{self.name}" must be a whole number from '
                    f"{self.minimum} to {self.maximum}, not {value!r}.",
                    path=path,
                )
            return value
        if self.kind == "amount":
            try:
                return parse_amount(value, path)
            except RoundError:
                raise RoundError(
                    "bad_rule",
                    f'House rule "{self.name}" must be a positive amount such as 1 or "0.50", not {value!r}.',
                    path=path,
                ) from None
        raise AssertionError(self.kind)  # pragma: no cover

    def describe(self) -> dict:
        out = {"name": self.name, "default": _jsonable(self.default), "kind": self.kind, "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def _jsonable(value):
    return fmt(value) if isinstance(value, Decimal) else value


def resolve_rules(
    variant: str, options: dict[str, Option], rules, path: str = "$.rules", base: dict | None = None
) -> dict:
    """The house rules in force: the defaults (or a preset's), overridden by `rules`."""
    in_force = dict(base) if base is not None else {name: opt.default for name, opt in options.items()}
    if rules is None:
        return in_force
    if type(rules) is not dict:
        raise RoundError("wrong_type", f"{path} must be an object of house rules.", path=path)
    for name, value in rules.items():
        opt = options.get(name)
        if opt is None:
            raise RoundError(
                "unknown_rule",
                f'There is no house rule "{name}" in {variant} (known: {", ".join(sorted(options))}).',
                path=f"{path}.{name}",
            )
        in_force[name] = opt.read(value, f"{path}.{name}")
    return in_force


def plain_rules(variant: str, options: dict[str, Option], defaults: dict, rules) -> dict:
    """The house rules in force where they start from the options' defaults (no preset)."""
    if rules is None or (type(rules) is dict and not rules):
        return dict(defaults)  # the usual table: nothing to read
    return resolve_rules(variant, options, rules)


def rules_jsonable(rules: dict) -> dict:
    return {k: _jsonable(v) for k, v in rules.items()}


# --- what was owed -----------------------------------------------------------------------------


class Owed:
    """The settlement one wager was owed.

    `size` is the wager itself (what `take` moves); `amount` is what `pay` moves. `kind` tells
    the variant's timing checks when it had to be settled; `verdict` is the reason, a phrase's params
    (sentences.py; None when there is none) and `why` the same in plain English words.
    """

    __slots__ = ("stake", "hand", "wager", "result", "amount", "size", "kind", "verdict", "words", "event", "order")

    def __init__(
        self,
        stake: str,
        hand: str | None,
        wager: str,
        result: str,
        amount: Decimal,
        size: Decimal,
        kind: str = "final",
        why: dict | str | None = None,
        event: int | None = None,
        order: int = 0,
    ):
        self.stake = stake
        self.hand = hand
        self.wager = wager
        self.result = result
        self.amount = amount
        self.size = size
        self.kind = kind
        # A game of the engine gives the verdict as a phrase; a plain string (a game that has no
        # sentences declared, e.g. a test's toy game) is kept as its English words.
        if isinstance(why, str):
            self.verdict: dict | None = None
            self.words = why
        else:
            self.verdict = why
            self.words = ""
        self.event = event
        self.order = order

    @property
    def why(self) -> str:
        """The verdict in English ("" when there is none)."""
        verdict = self.verdict
        return phrase(verdict) if verdict is not None else self.words

    @property
    def delta(self) -> Decimal:
        """The player's gain from this settlement: pay +amount, take -wager, leave 0."""
        if self.result == PAY:
            return self.amount
        if self.result == TAKE:
            return -self.size
        return ZERO

    def as_dict(self) -> dict:
        amount = fmt(self.amount)
        if self.hand is not None:
            return {
                "stake": self.stake,
                "hand": self.hand,
                "wager": self.wager,
                "result": self.result,
                "amount": amount,
            }
        return {"stake": self.stake, "wager": self.wager, "result": self.result, "amount": amount}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Owed {self.stake}/{self.hand}/{self.wager} {self.result} {self.amount}>"


class Settled:
    """A `pay`, `take` or `leave` event as the dealer logged it."""

    __slots__ = ("event", "stake", "hand", "wager", "result", "amount")

    def __init__(self, event: int, stake: str, hand: str | None, wager: str, result: str, amount: Decimal | None):
        self.event = event
        self.stake = stake
        self.hand = hand
        self.wager = wager
        self.result = result
        self.amount = amount

    def delta(self, size: Decimal | None) -> Decimal:
        amount = self.amount  # never None for a pay: the variants' readers require it
        if self.result == PAY and amount is not None:
            return amount
        if self.result == TAKE:
            if amount is not None:
                return -amount
            return -size if size is not None else ZERO
        return ZERO

    def as_dict(self, size: Decimal | None) -> dict:
        amount = self.amount if self.amount is not None else size
        return {"result": self.result, "amount": None if amount is None else fmt(amount)}


@dataclass
class Outcome:
    """The replay of one round: what was owed, what went wrong, and the cards that left the shoe."""

    variant: str
    wagers: list[Owed] | None
    findings: list[Finding]
    cards: list[str] = field(default_factory=list)
    rules: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    settled: list[Settled] = field(default_factory=list)

    @property
    def float(self) -> Decimal | None:
        """Σ take − Σ pay as owed: the float's change for the round."""
        return None if self.wagers is None else _float_of(self.wagers)

    def settlement(self) -> dict:
        wagers = self.wagers
        out = {
            "format": "settlement/1",
            "variant": self.variant,
            "wagers": None if wagers is None else [w.as_dict() for w in wagers],
            "float": None if wagers is None else fmt(_float_of(wagers)),
        }
        out.update(self.extra)
        out["findings"] = [f.to_dict() for f in self.findings]
        return out


def _float_of(wagers: list[Owed]) -> Decimal:
    total = ZERO
    for w in wagers:
        if w.result == TAKE:
            total += w.size
        elif w.result == PAY:
            total -= w.amount
    return total


def sort_wagers(owed: list[Owed], wager_rank: dict[str, int]) -> list[Owed]:
    """Sort by stake id, then hand, then wager name, as settlement/1 lists them."""
    return sorted(owed, key=lambda w: (w.stake, w.hand or "", w.wager))


def compare_settlements(
    owed: dict[tuple, Owed],
    settled: list[Settled],
    findings: list[Finding],
    *,
    who: Callable[[str, str | None], dict],
    game: str,
    check_missing: bool = True,
) -> dict[tuple, Settled]:
    """Compare each logged settlement with what was owed. Returns the first settlement of each wager.

    Every wager is judged on its own, so a wrong payout never hides the boxes after it. `who` gives
    the params naming a stake (or a hand of it) in a finding (sentences.py: who, box, stake, …).
    """
    first: dict[tuple, Settled] = {}
    for s in settled:
        key = (s.stake, s.hand, s.wager)
        o = owed.get(key)
        # setdefault records the first settlement of an owed wager and tells a repeat, in one lookup.
        if o is None or first.setdefault(key, s) is not s:
            size = o.size if o is not None else None
            delta = s.delta(size)
            params = who(s.stake, s.hand)
            params["wager"] = s.wager
            params["game"] = game
            if o is None:
                params["rule"] = RESULT_WORDS[s.result]
            else:
                params["rule"] = RESULT_WORDS[s.result] + "_again"
                params["first"] = first[key].event
            findings.append(
                finding(
                    "UNEXPECTED_SETTLEMENT",
                    params,
                    event=s.event,
                    stake=s.stake,
                    hand=s.hand,
                    wager=s.wager,
                    expected=None,
                    actual=s.as_dict(size),
                    player_delta=delta,
                )
            )
            continue
        if s.result != o.result:
            delta = s.delta(o.size) - o.delta
            params = who(s.stake, s.hand)
            params.update(rule="result", wager=s.wager, game=game)
            if s.result == PAY and s.amount is not None:
                params["did"] = "paid"
                params["paid"] = fmt(s.amount)
            else:
                params["did"] = RESULT_WORDS[s.result]
            _owed_params(o, params)
            findings.append(
                finding(
                    "WRONG_RESULT",
                    params,
                    event=s.event,
                    stake=s.stake,
                    hand=s.hand,
                    wager=s.wager,
                    expected=_owed_dict(o),
                    actual=s.as_dict(o.size),
                    player_delta=delta,
                )
            )
        elif s.amount is not None and s.amount != (o.amount if o.result == PAY else o.size):
            delta = s.delta(o.size) - o.delta
            owed_amount = o.amount if o.result == PAY else o.size
            params = who(s.stake, s.hand)
            params.update(
                rule=RESULT_WORDS[s.result], wager=s.wager, game=game, paid=fmt(s.amount), owed=fmt(owed_amount)
            )
            if o.verdict is not None:
                params["why"] = o.verdict
            findings.append(
                finding(
                    "WRONG_AMOUNT",
                    params,
                    event=s.event,
                    stake=s.stake,
                    hand=s.hand,
                    wager=s.wager,
                    expected=_owed_dict(o),
                    actual=s.as_dict(o.size),
                    player_delta=delta,
                )
            )
    # `first` only holds owed wagers, so when it holds as many as `owed` none is missing.
    if check_missing and settled and len(first) < len(owed):
        for key, o in owed.items():
            if key not in first:
                params = who(o.stake, o.hand)
                params.update(rule="never", wager=o.wager, game=game)
                _owed_params(o, params)
                findings.append(
                    finding(
                        "MISSING_SETTLEMENT",
                        params,
                        event=None,
                        stake=o.stake,
                        hand=o.hand,
                        wager=o.wager,
                        expected=_owed_dict(o),
                        actual=None,
                        player_delta=-o.delta,
                    )
                )
    return first


def _owed_params(o: Owed, params: dict) -> None:
    """What was owed, as a settlement finding's params: owed_as, owed and the verdict (why)."""
    params["owed_as"] = RESULT_WORDS[o.result]
    params["owed"] = fmt(o.amount if o.result == PAY else o.size)
    if o.verdict is not None:
        params["why"] = o.verdict


def _owed_dict(o: Owed) -> dict:
    return {"result": o.result, "amount": fmt(o.amount if o.result == PAY else o.size)}
