"""Exact dealer odds: the probability of each final dealer result for each first (or up) card.

Each game's table is its own `odds` module (`dealing/engine/<game>/odds.py`, named in games.py);
this module asks the registry for it and holds what they share (`as_decimal`)."""

from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

DIGITS = 12


def as_decimal(p: Fraction, digits: int = DIGITS) -> str:
    """A probability as a decimal string with `digits` places (exact Fraction in, rounded half-even out)."""
    with localcontext() as ctx:
        ctx.prec = 50
        value = Decimal(p.numerator) / Decimal(p.denominator)
        # Fixed-point text: an exact zero is "0.000000000000", never "0E-12".
        return format(value.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN), "f")


def dealer_odds(variant: str, preset: str | None = None) -> dict:
    """The game's table of dealer odds (its odds module, named in games.py)."""
    from .. import games

    return games.odds(variant).dealer_odds(preset)
