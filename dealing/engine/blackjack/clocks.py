"""Seed 002's clocks (rules/blackjack.md, Presets: "clocks"), as data of the blackjack wing.

The salon's players have 15 seconds to bet (the deal starts sooner when every seat is ready), 8 to
decide on insurance or even money, and 15 for each action, a timeout standing the hand. The online
game (seed 001) has no clock. The engine judges a round's log, which holds no time, so nothing here
changes a settlement: the table terminal runs the clocks while a round is dealt
(dealing/games/blackjack/terminal.py) and logs what a timeout does as an ordinary event.
"""

from typing import Final

from .rules import house_rules

# Seconds by preset; a preset without clocks is absent.
CLOCKS: Final = {
    "salon": {"bet": 15, "insurance": 8, "action": 15},
}

KINDS: Final = ("bet", "insurance", "action")


def clocks(rules) -> dict | None:
    """The clocks of a table's rules ({"bet", "insurance", "action"}: seconds), None when it has none."""
    got = CLOCKS.get(house_rules(rules)["preset"])
    return dict(got) if got is not None else None


def running(rules, moves: list[dict], entries: int) -> dict | None:
    """The clock that runs now, given the engine's moves after `entries` entries of the round:

    - before the first entry, the **bet** clock (nothing is logged when it ends: the deal may start);
    - an insurance or even-money offer (with the peek that closes it): the **insurance** clock, whose
      end logs the peek: every offer not taken is declined;
    - a hand that may stand: the **action** clock, whose end logs its `stand`.

    Each as {"kind", "seconds", "move": the engine's move logged when it ends (None for bets)}. None
    when no clock runs (a card to deal, a payment, the online table)."""
    got = clocks(rules)
    if got is None:
        return None
    if entries == 0:
        return {"kind": "bet", "seconds": got["bet"], "move": None}
    names = [m.get("e") for m in moves]
    if "peek" in names and ("insurance" in names or "even_money" in names):
        return {"kind": "insurance", "seconds": got["insurance"], "move": moves[names.index("peek")]}
    if "stand" in names:
        return {"kind": "action", "seconds": got["action"], "move": moves[names.index("stand")]}
    return None
