"""One chip palette for every page (floor, round forms, float, drills): a denomination has one colour
wherever it is drawn, whatever other chips its table uses.

The colour of each denomination is said here, once; what each colour looks like is said once, in
casino/static/casino/chips.css (`.chip-c-<colour>` sets `--chip` and `--chip-ink`, which every chip
style reads). A denomination not listed is drawn in the neutral `other`.
"""

from decimal import Decimal, InvalidOperation

# The usual casino colours (white 1, red 5, blue 10, green 25, black 100, purple 500, yellow 1,000 …).
COLOURS: dict[Decimal, str] = {
    Decimal("1"): "white",
    Decimal("5"): "red",
    Decimal("10"): "blue",
    Decimal("20"): "yellow-green",
    Decimal("25"): "green",
    Decimal("50"): "orange",
    Decimal("100"): "black",
    Decimal("500"): "purple",
    Decimal("1000"): "yellow",
    Decimal("5000"): "brown",
    Decimal("10000"): "pink",
    Decimal("25000"): "teal",
    Decimal("50000"): "grey",
    Decimal("100000"): "sky",
    Decimal("500000"): "gold",
}
OTHER = "other"


def colour_of(denomination) -> str:
    """The colour name of a chip of `denomination` (an amount, a string or a number)."""
    try:
        value = Decimal(str(denomination))
    except (InvalidOperation, ValueError):
        return OTHER
    return COLOURS.get(value, OTHER)


def colour_class(denomination) -> str:
    """The CSS class that paints a chip of `denomination` (casino/static/casino/chips.css)."""
    return f"chip-c-{colour_of(denomination)}"
