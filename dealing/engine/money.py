"""Amounts: read exactly, written as decimal strings, never through a binary float."""

import re
from decimal import Decimal
from typing import Final

from .errors import RoundError
from .paths import json_kind as _json_kind
from .paths import place as _place

ZERO: Final = Decimal(0)
CENT: Final = Decimal("0.01")

# The digits 0-9 only: `\d` would also match ٣ or ３, which Decimal() reads as 3.
_AMOUNT_TEXT = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,2})?\Z")
# Whole amounts are by far the most common; their Decimals are kept instead of rebuilt. Only
# valid amounts (positive, under the limit) ever enter, so a hit here needs no further check.
INT_AMOUNTS: Final[dict[int, Decimal]] = {}
_INT_CACHE: Final = INT_AMOUNTS


def parse_amount(value, path: str, *, event: int | None = None, allow_zero: bool = False) -> Decimal:
    """Read an amount: an integer, a decimal string, or a number with at most 2 decimals.

    Floats can only arrive from callers that parsed JSON without `parse_float=Decimal`; their
    shortest repr is the text that was sent, so reading that text keeps the value exact.
    """
    kind = type(value)
    if kind is int:
        amount = _INT_CACHE.get(value)
        if amount is None:
            if value < 0 or value >= 10**15:
                raise _bad(value, path, event)
            amount = Decimal(value)
            if value and len(_INT_CACHE) < 100_000:
                _INT_CACHE[value] = amount
    elif kind is str:
        if not _AMOUNT_TEXT.match(value):
            raise _bad(value, path, event)
        amount = Decimal(value)
    elif kind is Decimal:
        # JSON read with parse_float=Decimal: its text shows exponents ("1E+3") and extra decimals.
        if not _AMOUNT_TEXT.match(str(value)):
            raise _bad(value, path, event)
        amount = value
    elif kind is float:
        text = repr(value)
        if not _AMOUNT_TEXT.match(text) and not _AMOUNT_TEXT.match(text.removesuffix(".0")):
            raise _bad(value, path, event)
        amount = Decimal(text)
    else:
        raise RoundError(
            "wrong_type",
            f'{_where(path, event)} must be an amount such as 100 or "7.50", not {_json_kind(value)}.',
            path=path,
            event=event,
        )
    if not amount and not allow_zero:
        raise RoundError("bad_amount", f"{_where(path, event)} must be more than zero.", path=path, event=event)
    return amount


_FMT: Final[dict[Decimal, str]] = {}


def fmt(amount: Decimal) -> str:
    """The decimal string an amount leaves the system as: "100", "10.50", "-310"."""
    text = _FMT.get(amount)
    if text is None:
        if amount == amount.to_integral_value():
            text = str(int(amount))
        else:
            text = str(amount.quantize(CENT))
        if len(_FMT) < 100_000:
            _FMT[amount] = text
    return text


def _bad(value, path, event):
    return RoundError(
        "bad_amount",
        f"{_where(path, event)} is {value!r}: an amount is a positive number with at most 2 decimals "
        f'(100, "7.50"), in the digits 0-9, without exponents.',
        path=path,
        event=event,
    )


def _where(path, event):
    if event is not None:
        return f"Event {event}: the amount"
    place = _place(path.rsplit(".", 1)[0]) if "." in path else path
    key = path.rsplit(".", 1)[-1]
    return f'In {place}, "{key}"' if place != path.rsplit(".", 1)[0] else f"The amount at {path}"
