"""Reading an Ochko game-math question and writing its answer (dealing/engine/ochko/math/__init__.py asks
the solver): the cards named, the shoe they leave, the house rules, and the exact figures as the
decimal strings of analytics-format.md."""

from decimal import Decimal, localcontext
from fractions import Fraction

from ...cards import label
from ...errors import RoundError
from ...math.questions import QuestionError
from ...math.questions import read_cards as _read_cards
from .. import DECKS, PACK, house_rules
from ..odds import RANKS, VALUE

N_RANKS = len(RANKS)
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
PER_RANK = 4 * DECKS
DIGITS = 18  # significant digits of the decimal strings (the contract asks for at least 12)


# --- reading the question -------------------------------------------------------------------------


def read_rules(rules) -> dict:
    try:
        return house_rules(rules)
    except RoundError as error:
        raise QuestionError("rules", str(error)) from None


def rules_jsonable(rules: dict) -> dict:
    return {k: (format(v, "f") if isinstance(v, Decimal) else v) for k, v in rules.items()}


def read_cards(texts, field: str) -> list[str]:
    return _read_cards(texts, field, PACK, "the 36-card ochko pack (6 to A in four suits: 6S, TS, AH …)")


def check_copies(named: list[tuple[str, str]]) -> None:
    """No card may be named more often than the shoe holds it (8 times: once per pack)."""
    seen: dict[str, int] = {}
    for field, code in named:
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > DECKS:
            raise QuestionError(field, f"{label(code)} is named {seen[code]} times; the shoe holds only {DECKS}.")


def check_not_settled(codes: list[str]) -> None:
    """A hand that a face-up card already settled (ochko or mnogo) has no decision left."""
    total = 0
    for n, code in enumerate(codes, start=1):
        total += VALUE[RANK_INDEX[code[0]]]
        if n == 2 and codes[0][0] == "A" and code[0] == "A":
            raise QuestionError("cards", "A pair of aces is ochko: the hand is already settled.")
        if n == 5 and all(c[0] in "JQK" for c in codes[:5]):
            raise QuestionError("cards", "Five pictures are ochko: the hand is already settled.")
        if total == 21:
            raise QuestionError("cards", "21 is ochko: the hand is already settled.")
        if total > 21:
            raise QuestionError("cards", f"{total} is mnogo: the hand is already settled.")


def shoe_counts(removed_codes: list[str]) -> tuple:
    counts = [PER_RANK] * N_RANKS
    for code in removed_codes:
        counts[RANK_INDEX[code[0]]] -= 1
    return tuple(counts)


def hand_counts(codes: list[str]) -> tuple:
    hand = [0] * N_RANKS
    for code in codes:
        hand[RANK_INDEX[code[0]]] += 1
    return tuple(hand)


# --- the answers ----------------------------------------------------------------------------------


def best_option(values: dict) -> str:
    """The option with the highest EV; ties go to the first in the contract's order (dicts keep it)."""
    best_name, best_value = "", None
    for name, value in values.items():
        if best_value is None or value > best_value:
            best_name, best_value = name, value
    return best_name


def decimal(value: Fraction) -> str:
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


def decimal_sqrt(value: Fraction) -> str:
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        root = (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()
        ctx.prec = DIGITS
        return format(+root, "f")
