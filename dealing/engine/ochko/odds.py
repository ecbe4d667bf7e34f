"""Exact ochko dealer odds from a full 8×36 shoe with only the dealer's first card removed.

The dealer draws on 16 or less and stops on 17 or more, on a pair of aces (his first two cards)
and on five pictures. Every path through the shoe is weighed by its exact probability: cards are
drawn without replacement, so the recursion carries the shoe's composition.
"""

from fractions import Fraction
from functools import cache

from ..odds import as_decimal

RANKS = "6789TJQKA"
VALUE = (6, 7, 8, 9, 10, 2, 3, 4, 11)
PICTURE = (False, False, False, False, False, True, True, True, False)
DECKS = 8
PER_RANK = 4 * DECKS
RESULTS = ("17", "18", "19", "20", "21", "pair_of_aces", "five_pictures", "bust")


def _final(total: int, n: int, pictures_only: bool) -> str | None:
    """The dealer's result if he stops here, else None (he must draw)."""
    if n == 2 and total == 22:  # only A + A makes 22 in two cards
        return "pair_of_aces"
    if n == 5 and pictures_only:
        return "five_pictures"
    if total > 21:
        return "bust"
    if total >= 17:
        return str(total)
    return None


@cache
def outcomes(left: tuple, total: int, n: int, pictures_only: bool) -> tuple:
    """Probabilities of each result (in RESULTS order) from this state, as Fractions."""
    result = _final(total, n, pictures_only)
    if result is not None:
        return tuple(Fraction(int(r == result)) for r in RESULTS)
    remaining = sum(left)
    acc = [Fraction(0)] * len(RESULTS)
    for k, count in enumerate(left):
        if not count:
            continue
        after = left[:k] + (count - 1,) + left[k + 1 :]
        sub = outcomes(after, total + VALUE[k], n + 1, pictures_only and PICTURE[k])
        weight = Fraction(count, remaining)
        for j, p in enumerate(sub):
            if p:
                acc[j] += weight * p
    return tuple(acc)


def exact() -> dict[str, dict[str, Fraction]]:
    """{first card: {result: Fraction}} for the first cards 6 … A."""
    table = {}
    for k, rank in enumerate(RANKS):
        left = tuple(PER_RANK - (j == k) for j in range(len(RANKS)))
        probs = outcomes(left, VALUE[k], 1, PICTURE[k])
        table["T" if rank == "T" else rank] = dict(zip(RESULTS, probs))
    return table


def dealer_odds(preset: str | None = None) -> dict:
    """Ochko has one set of rules: `preset` is accepted, like every odds module's, and ignored."""
    table = exact()
    return {
        "variant": "ochko",
        "preset": None,
        "decks": DECKS,
        "first_cards": {card: {r: as_decimal(p) for r, p in row.items()} for card, row in table.items()},
        "up_cards": {card: {r: as_decimal(p) for r, p in row.items()} for card, row in table.items()},
    }
