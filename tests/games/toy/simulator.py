"""The toy game's simulator (tests only), as the engine's registry names a game's simulator: a
finished, correct round — one card to each box and to the dealer, each bet paid or taken."""

from decimal import Decimal
from types import SimpleNamespace

from dealing.engine.base import PAY, TAKE

from . import rules

MISTAKES: dict[str, str] = {}


def simulate_round(
    rng, *, mistake=None, number: int = 1, table_min=Decimal(10), table_max=Decimal(100), boxes=(1, 2), **_options
) -> SimpleNamespace:
    if mistake is not None:
        raise ValueError("the toy simulator makes no mistakes")
    low, high = Decimal(table_min), Decimal(table_max)
    count = rng.randint(*boxes)
    cards = rng.sample(list(rules.PACK), count + 1)
    stakes, events, settle = [], [], []
    for box in range(1, count + 1):
        bet = min(high, low * rng.randint(1, 4))
        stakes.append({"id": str(box), "box": box, "player": f"P-{box}", "bet": bet})
        events.append({"e": "deal", "to": box, "card": cards[box - 1]})
        win = rules.RANKS.index(cards[box - 1][0]) > rules.RANKS.index(cards[-1][0])
        settle.append({"e": PAY if win else TAKE, "stake": str(box), "wager": "bet", "amount": bet})
    events.append({"e": "deal", "to": "dealer", "card": cards[-1]})
    doc = {
        "format": "round/1",
        "variant": rules.NAME,
        "id": f"toy-{number}",
        "table": {"name": "Toy-1", "min": low, "max": high},
        "stakes": stakes,
        "events": events + settle,
    }
    return SimpleNamespace(doc=doc)
