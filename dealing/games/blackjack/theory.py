"""blackjack's house edge for the books' theoretical win (dealing.games.theory)."""

from decimal import Decimal

from dealing.games.theory import Edge

from .math import selectors


def edge(rules: dict) -> Edge:
    """Basic strategy, not optimal play: what a casino's theoretical assumes of its players."""
    rules = dict(rules)
    preset = rules.pop("preset", None) or "salon"
    doc = selectors.edge(preset=preset, strategy="basic", rules=rules or None)
    return Edge(Decimal(doc["house_edge"]), float(Decimal(doc["sd"])), f"blackjack {preset} basic strategy")
