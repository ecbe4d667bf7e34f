"""ochko's house edge for the books' theoretical win (dealing.games.theory)."""

from decimal import Decimal

from dealing.games.theory import Edge

from .math import selectors


def edge(rules: dict) -> Edge:
    """Optimal play under the table's dark-card house rules. An ochko stake is written with its Ante
    (and dealer bet); the Bet comes later, as an event, so the rollups' initial wagers are the Antes:
    the edge and sd per Ante."""
    known = {k: v for k, v in rules.items() if k in selectors.RULE_NAMES}
    doc = selectors.edge(rules=known or None)
    return Edge(
        Decimal(doc["house_edge"]),
        float(Decimal(doc["sd"])),
        "ochko optimal play " + ", ".join(f"{k}={v}" for k, v in sorted(known.items())),
    )
