"""The engine's blackjack math, cached per preset so that pages and the API answer warm in milliseconds.

Each answer depends on the rules alone; the pages offer the two presets, the API any rule set
(kept per process, a few at a time). `ev` is not cached here: off a full shoe the engine answers it
from its own memo in a fraction of a millisecond once the shoe's solve is warm.
"""

from dealing.engine.blackjack import math as blackjack
from dealing.engine.blackjack.math import effects as blackjack_effects
from dealing.engine.blackjack.math.question import rules_key
from dealing.games.figures import kept

QuestionError = blackjack.QuestionError
PRESETS = ("salon", "online")
STRATEGIES = ("optimal", "basic")
CUT_CARD_ROUNDS = 200_000  # per arm: about 3 s of CPU together


def _key(preset: str, rules: dict | None) -> tuple:
    """A hashable key of the rules in force (the engine reads them; a bad rule raises QuestionError)."""
    return rules_key(blackjack.read_rules(preset, rules))


@kept(maxsize=16)
def _strategy(preset: str, key: tuple, rules: tuple) -> dict:
    return blackjack.strategy(dict(rules) or None, preset=preset)


@kept(maxsize=32)
def _edge(preset: str, key: tuple, rules: tuple, strategy: str) -> dict:
    return blackjack.edge(dict(rules) or None, preset=preset, strategy=strategy)


def strategy(*, preset: str = "salon", rules: dict | None = None) -> dict:
    return _strategy(preset, _key(preset, rules), tuple(sorted((rules or {}).items())))


def edge(*, preset: str = "salon", strategy: str = "optimal", rules: dict | None = None) -> dict:
    if strategy not in STRATEGIES:
        return blackjack.edge(rules, preset=preset, strategy=strategy)  # raises, naming `strategy`
    return _edge(preset, _key(preset, rules), tuple(sorted((rules or {}).items())), strategy)


@kept(maxsize=2)
def _rule_effects(preset: str) -> dict:
    return blackjack_effects.rule_effects(preset)


@kept(maxsize=2)
def _cut_card(preset: str) -> dict:
    return blackjack_effects.cut_card(CUT_CARD_ROUNDS, preset=preset)


@kept(maxsize=2)
def _insurance(preset: str) -> dict:
    return blackjack_effects.insurance(preset)


def _preset(preset: str) -> str:
    blackjack.read_rules(preset, None)  # QuestionError naming `preset` when unknown
    return preset


def rule_effects(*, preset: str = "salon") -> dict:
    return _rule_effects(_preset(preset))


def cut_card(*, preset: str = "salon") -> dict:
    return _cut_card(_preset(preset))


def insurance(*, preset: str = "salon") -> dict:
    return _insurance(_preset(preset))


def jackpot(*, preset: str = "online", rules: dict | None = None) -> dict:
    return blackjack_effects.jackpot(preset, rules)


def ev(*, cards, dealer=None, removed=(), preset: str = "salon", rules: dict | None = None) -> dict:
    return blackjack.ev(cards, dealer=dealer, removed=removed, rules=rules, preset=preset)


_CACHED = {
    "strategy": _strategy,
    "edge": _edge,
    "rule_effects": _rule_effects,
    "cut_card": _cut_card,
    "insurance": _insurance,
}


def cached() -> dict[str, int]:
    """How many figures each cache holds (what warming at start-up filled)."""
    return {name: fn.cache_info().currsize for name, fn in _CACHED.items()}


def clear_cache() -> None:
    for fn in _CACHED.values():
        fn.cache_clear()
    blackjack.clear_cache()
