"""The engine's Ochko math, cached per rule set so that pages and the API answer warm in milliseconds.

The engine memoises its solver per shoe × rule set, but `strategy` still walks every reachable
state (about a third of a second) and `edge_table` formats four documents on each call; these
answers depend on the house rules alone, so each is kept per process once computed. Only the two
dark-card house rules can be chosen here (four combinations, each of the ten charts), so the caches
stay small. `ev` is not cached here: off a full shoe it is a look-up in the engine's own memo, and a
question with `removed` cards is a shoe of its own, bounded by the engine (DEPLETED_SHOES_KEPT).
"""

from dealing.engine import ochko as ochko_rules
from dealing.engine.errors import RoundError
from dealing.engine.ochko import math as ochko
from dealing.games.figures import kept

QuestionError = ochko.QuestionError

# The house rules a caller may choose, with their values, in the engine's order; the first value is
# the default (rules/ochko.md).
RULE_NAMES = ("dark_win_bet", "dark_double_bust_bet")
RULE_VALUES = ("leave", "take")
BETS = ochko.BETS
CHART_BETS = (1, 10)  # the charts the issue asks for: the smallest and the largest Bet


def rules_key(rules: dict | None) -> tuple:
    """The hashable key of a rule set: the engine's resolved rules (an unknown one raises QuestionError)."""
    try:
        resolved = ochko_rules.house_rules(rules)
    except RoundError as error:  # as the engine's math reports it: the `rules` are at fault
        raise QuestionError("rules", str(error)) from None
    return tuple(sorted(resolved.items()))


@kept(maxsize=64)
def _strategy(bet: int, key: tuple) -> dict:
    return ochko.strategy(bet, dict(key))


@kept(maxsize=8)
def _edge(key: tuple) -> dict:
    return ochko.edge(dict(key))


@kept(maxsize=8)
def _edge_without_dark(key: tuple) -> dict:
    return ochko.edge(dict(key), dark=False)


@kept(maxsize=1)
def _edge_table() -> tuple:
    return tuple(ochko.edge_table())


def strategy(*, bet: int = 1, rules: dict | None = None) -> dict:
    """The engine's `strategy/1` chart for a Bet of `bet` Antes (cached; do not mutate the answer)."""
    if type(bet) is not int or not 1 <= bet <= max(BETS):
        return ochko.strategy(bet, rules)  # raises the engine's QuestionError naming `bet`
    return _strategy(bet, rules_key(rules))


def edge(*, rules: dict | None = None) -> dict:
    """The engine's `edge/1` under optimal play for a rule set (cached)."""
    return _edge(rules_key(rules))


def edge_table() -> list[dict]:
    """`edge/1` for each combination of the dark-card house rules (cached)."""
    return list(_edge_table())


def rule_effects() -> list[dict]:
    """Per combination of the dark-card house rules: its `edge/1`, the edge with no dark card
    allowed, and the value the dark card adds (the engine's `dark_value`), all cached."""
    rows = []
    for document in _edge_table():
        key = rules_key(document["rules"])
        rows.append(
            {
                "rules": document["rules"],
                "edge": document,
                "without_dark": _edge_without_dark(key),
                "dark_value": _strategy(1, key)["dark_value"],
            }
        )
    return rows


def ev(*, cards, dealer=None, bet=None, removed=(), rules: dict | None = None) -> dict:
    """The engine's `ev/1` for a question (QuestionError, naming the field, for a bad one)."""
    return ochko.ev(cards, dealer=dealer, bet=bet, removed=removed, rules=rules)


def clear_cache() -> None:
    """Forget the cached answers (and the engine's solvers): for timing a cold page."""
    _strategy.cache_clear()
    _edge.cache_clear()
    _edge_table.cache_clear()
    _edge_without_dark.cache_clear()
    ochko.clear_cache()
