"""veintiuno's house edge for the books' theoretical win (dealing.games.theory)."""

from decimal import Decimal

from dealing.games.theory import Edge

from .math import selectors


def edge(rules: dict) -> Edge:
    """The documented play, under what the table pays a suited two-card 12."""
    pays = int(rules.get("suited_twelve_pays", 2))
    doc = selectors.edge(suited_twelve_pays=pays)
    return Edge(Decimal(doc["house_edge"]), float(Decimal(str(doc["sd"]))), "veintiuno documented play")
