"""Reading a blackjack game-math question (dealing/engine/blackjack/math/__init__.py asks the solver): the
rules in force, the cards named, the shoe they leave, and the answers as decimal strings."""

from decimal import Decimal, localcontext

from ...cards import label
from ...errors import RoundError
from ...math.questions import QuestionError
from ...math.questions import read_cards as _read_cards
from ..rules import OPTIONS, PACK, house_rules
from .dealer import N_RANKS

DIGITS = 15  # significant digits of the decimal strings (floats: see docs/blackjack-math.md)
RANK_INDEX = {"A": 0, **{str(v): v - 1 for v in range(2, 10)}, "T": 9, "J": 9, "Q": 9, "K": 9}
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")

# House rules the math model knows beyond the engine's (the rule-effects table changes them).
MATH_OPTIONS = {
    "hit_soft_17": ("bool", False, "The dealer hits soft 17."),
    "blackjack_pays": ("choice", "3:2", "What a blackjack is paid: 3:2 or 6:5.", ("3:2", "6:5")),
    "surrender": ("bool", False, "Late surrender (after the peek) of the first two cards, for half the bet."),
    "double": ("choice", "any", "Double on any first two cards, or on a hard 9, 10 or 11 only.", ("any", "9-11")),
}
PAYOUT = {"3:2": 1.5, "6:5": 1.2}
ENGINE_RULES = (
    "decks",
    "max_hands",
    "resplit_aces",
    "hit_split_aces",
    "double_after_split",
    "jackpot",
    "jackpot_bet",
    "jackpot_amount",
    "reshuffle",
    "cut_remaining",
    "boxes",
)


def _coerce(name: str, value, kind: str):
    """A command-line string as the option's type (the API passes JSON values as they are)."""
    if type(value) is not str:
        return value
    if kind == "bool":
        low = value.lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise QuestionError("rules", f'House rule "{name}" must be true or false, not {value!r}.')
    if kind == "int":
        try:
            return int(value)
        except ValueError:
            raise QuestionError("rules", f'House rule "{name}" must be a whole number, not {value!r}.') from None
    return value


def read_rules(preset, rules) -> dict:
    """The rules in force: the preset's (salon by default), the engine's house rules, the math ones."""
    rules = dict(rules or {})
    if preset is None:
        preset = rules.pop("preset", "salon")
    else:
        rules.pop("preset", None)
    if preset not in ("salon", "online"):
        raise QuestionError("preset", f"Unknown blackjack preset {preset!r} (known: salon, online).")
    engine, math = {}, {}
    for name, value in rules.items():
        if name in MATH_OPTIONS:
            kind, _default, _help, *choices = MATH_OPTIONS[name]
            value = _coerce(name, value, kind)
            if kind == "bool" and type(value) is not bool:
                raise QuestionError("rules", f'House rule "{name}" must be true or false, not {value!r}.')
            if kind == "choice" and value not in choices[0]:
                raise QuestionError(
                    "rules", f'House rule "{name}" is {value!r}; it must be one of {", ".join(choices[0])}.'
                )
            math[name] = value
        elif name in OPTIONS and name != "preset":
            engine[name] = _coerce(name, value, OPTIONS[name].kind)
        else:
            known = sorted(set(ENGINE_RULES) | set(MATH_OPTIONS))
            raise QuestionError("rules", f'There is no blackjack house rule "{name}" (known: {", ".join(known)}).')
    try:
        in_force = house_rules({"preset": preset, **engine})
    except RoundError as error:
        raise QuestionError("rules", str(error)) from None
    for name, (_kind, default, *_rest) in MATH_OPTIONS.items():
        in_force[name] = math.get(name, default)
    return in_force


def rules_jsonable(rules: dict) -> dict:
    return {k: (format(v, "f") if isinstance(v, Decimal) else v) for k, v in rules.items()}


def rules_key(rules: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in rules.items()))


def read_cards(texts, field: str) -> list[str]:
    return _read_cards(texts, field, PACK, "the 52-card pack (2 to A in four suits: TS, 6H, AC …)")


def check_copies(named: list[tuple[str, str]], decks: int) -> None:
    seen: dict[str, int] = {}
    for field, code in named:
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > decks:
            raise QuestionError(field, f"{label(code)} is named {seen[code]} times; the shoe holds only {decks}.")


def full_shoe(decks: int) -> tuple:
    return (4 * decks,) * 9 + (16 * decks,)


def counts(codes: list[str]) -> tuple:
    out = [0] * N_RANKS
    for code in codes:
        out[RANK_INDEX[code[0]]] += 1
    return tuple(out)


def decimal(value: float) -> str:
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return format(+Decimal(repr(value)), "f")


def decimal_sqrt(value: float) -> str:
    return decimal(max(value, 0.0) ** 0.5)


def best_option(values: dict, order) -> str:
    best_name, best_value = "", None
    for name in order:
        if name in values and (best_value is None or values[name] > best_value):
            best_name, best_value = name, values[name]
    return best_name
