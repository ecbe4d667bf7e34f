"""The toy game's house edge for the books' theoretical win (dealing.games.theory, tests only): the
house wins the ties, 3 of the 51 cards left after the box's card in one pack."""

from decimal import Decimal

from dealing.games.theory import Edge

EDGE = Decimal(3) / Decimal(51)


def edge(rules: dict) -> Edge:
    return Edge(EDGE, 1.0, "toy: the ties")
