"""Small hand-written blackjack logs for the tests, and what a settlement owes and finds."""

from decimal import Decimal

import pytest

from dealing import engine
from dealing.engine import RoundError


def bj(stakes, events, *, preset="salon", rules=None, table=None):
    return {
        "format": "round/1",
        "variant": "blackjack",
        "table": table or ({"min": 100, "max": 5000} if preset == "salon" else {"min": 1, "max": 500}),
        "rules": {"preset": preset, **(rules or {})},
        "stakes": stakes,
        "events": events,
    }


def stake(box, bet=100, **extra):
    return {"id": str(box), "box": box, "player": f"P-{box}", "bet": bet, **extra}


def deal(*cards_and_targets):
    """deal((1, "TS"), ("dealer", "6H"), ...) in the order given."""
    return [{"e": "deal", "to": to, "card": card} for to, card in cards_and_targets]


def one_box(first, up, second, hole, *, bet=100, preset="salon", rules=None, extra=(), **stake_extra):
    return bj(
        [stake(1, bet, **stake_extra)],
        deal((1, first), ("dealer", up), (1, second), ("dealer", hole)) + list(extra),
        preset=preset,
        rules=rules,
    )


def ev(e, **fields):
    return {"e": e, **fields}


def owed(settlement):
    return {(w["stake"], w["hand"], w["wager"]): (w["result"], Decimal(w["amount"])) for w in settlement["wagers"]}


def codes(settlement):
    return sorted({f["code"] for f in settlement["findings"]})


def raises(doc):
    with pytest.raises(RoundError) as caught:
        engine.settle(doc)
    return caught.value
