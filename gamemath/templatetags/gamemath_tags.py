"""Showing the engine's exact decimal strings: rounded for reading, never recomputed."""

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation

from django import template

register = template.Library()


def _decimal(value):
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


@register.filter
def antes(value, places=3):
    """An EV in Antes, signed, to `places` decimals: +0.061 / −0.439 / 0.000."""
    amount = _decimal(value)
    if amount is None:
        return "—"
    rounded = amount.quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_EVEN)
    if rounded > 0:
        return f"+{rounded}"
    if rounded < 0:
        return f"−{-rounded}"
    return f"{abs(rounded)}"


@register.filter
def percent(value, places=2):
    """A share (0.0431…) as a percentage to `places` decimals: 4.31 %."""
    amount = _decimal(value)
    if amount is None:
        return "—"
    shown = (amount * 100).quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_EVEN)
    return f"{shown} %".replace("-", "−")


@register.filter
def plain(value, places=4):
    """A decimal to `places` decimals, unsigned unless negative: 4.0000 / 5.4467."""
    amount = _decimal(value)
    if amount is None:
        return "—"
    return f"{amount.quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_EVEN)}".replace("-", "−")


@register.filter
def one_in(value):
    """A chance (0.0615…) as "one in N", N to a whole number (16); "—" for a chance of nothing."""
    amount = _decimal(value)
    if not amount:
        return "—"
    return f"{(1 / amount).quantize(Decimal(1), rounding=ROUND_HALF_EVEN):,}"
