"""Exact blackjack dealer odds, from a full shoe with only the dealer's up card removed.

The dealer stands on all 17s (soft 17 included) and draws on 16 or less. His hole card and every
card he draws come from the rest of the shoe without replacement, so the recursion carries the
shoe's composition; every path is weighed exactly with `fractions.Fraction`. "blackjack" is a
two-card 21. `no_blackjack` gives, for an ace or ten-value up card, the same table conditioned on
the peek having found no blackjack.
"""

from fractions import Fraction
from functools import cache

from ..odds import as_decimal

DECKS = {"salon": 6, "online": 8}
UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
RESULTS = ("17", "18", "19", "20", "21", "blackjack", "bust")
_INDEX = {r: k for k, r in enumerate(RESULTS)}
_ZERO = (Fraction(0),) * len(RESULTS)


def _value(card: str) -> int:
    return {"T": 10, "A": 1}.get(card) or int(card)


def _shoe(decks: int) -> tuple:
    """Cards left by value (index 0 = ace, 1 = two, …, 9 = ten-value) in a full shoe."""
    return (4 * decks,) * 9 + (16 * decks,)


@cache
def outcomes(left: tuple, hard: int, ace: bool, n: int) -> tuple:
    """Probabilities of each final result (RESULTS order) from this dealer hand and shoe."""
    best = hard + 10 if ace and hard <= 11 else hard
    if n == 2 and best == 21:
        return _one("blackjack")
    if hard > 21:
        return _one("bust")
    if best >= 17:
        return _one(str(best))
    remaining = sum(left)
    acc = [Fraction(0)] * len(RESULTS)
    for k, count in enumerate(left):
        if not count:
            continue
        sub = outcomes(left[:k] + (count - 1,) + left[k + 1 :], hard + k + 1, ace or k == 0, n + 1)
        weight = Fraction(count, remaining)
        for j, p in enumerate(sub):
            if p:
                acc[j] += weight * p
    return tuple(acc)


@cache
def _one(result: str) -> tuple:
    out = list(_ZERO)
    out[_INDEX[result]] = Fraction(1)
    return tuple(out)


def exact(preset: str = "salon") -> dict[str, dict[str, Fraction]]:
    """{up card: {result: Fraction}} for the up cards 2 … 9, T (any ten-value card), A."""
    if preset not in DECKS:
        raise ValueError(f"unknown blackjack preset {preset!r} (known: {', '.join(DECKS)})")
    full = _shoe(DECKS[preset])
    table = {}
    for card in UP_CARDS:
        v = _value(card)
        left = full[: v - 1] + (full[v - 1] - 1,) + full[v:]
        table[card] = dict(zip(RESULTS, outcomes(left, v, v == 1, 1)))
    return table


def without_blackjack(row: dict[str, Fraction]) -> dict[str, Fraction]:
    """The same results, given that the dealer has no blackjack (what the peek tells the players)."""
    rest = 1 - row["blackjack"]
    return {r: (Fraction(0) if r == "blackjack" else p / rest) for r, p in row.items()}


def dealer_odds(preset: str | None = None) -> dict:
    preset = preset or "salon"
    table = exact(preset)
    return {
        "variant": "blackjack",
        "preset": preset,
        "decks": DECKS[preset],
        "up_cards": {card: {r: as_decimal(p) for r, p in row.items()} for card, row in table.items()},
        "no_blackjack": {
            card: {r: as_decimal(p) for r, p in without_blackjack(table[card]).items()} for card in ("T", "A")
        },
    }
