"""What the books' theoretical win needs of a game (the `theory` slot of its GAME): a function
`edge(rules) -> Edge`, the house's expected win and the standard deviation of one round's result
per unit of the initial wager the rollups count, under a table's house rules.
books/theory/arithmetic.py asks the registry for it and names no game."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Edge:
    """The house's expected win per unit of initial wager (`edge`) and the standard deviation of one
    round's result per unit of initial wager (`sd`), with where they come from."""

    edge: Decimal
    sd: float
    source: str
