"""21 Ochko, the Russian casino procedure (rules/ochko.md): replay, settle, audit, next moves.

A round is replayed event by event through the phases of the procedure — deal, decisions,
open, drawing, the dealer's draw, reveal, settlement. Each event is validated as it is applied
(a log we cannot follow raises `RoundError`), every departure from the procedure becomes a
`Finding`, and the replay keeps going so that one mistake never hides the next.

The package: rules.py (the pack, wagers, house rules, hands), table.py (the header and the
state), events.py (each event), replay.py (the end of the round and the next moves); here,
the checks across a shoe.
"""

from typing import Final

from .. import loop
from ..findings import Finding
from ..money import fmt
from ..sentences import finding
from .incidents import RULE_LINES as INCIDENT_RULE_LINES
from .incidents import incident_findings
from .replay import Replay
from .rules import (
    BET_MULTIPLE_MAX,
    DECKS,
    MAX_BOXES,
    MAX_STAKES_PER_BOX,
    NAME,
    OPTIONS,
    PACK,
    WAGER_LABEL,
    WAGERS,
    Box,
    Hand,
    Stake,
    house_rules,
)

__all__ = [
    "NAME",
    "PACK",
    "DECKS",
    "MAX_BOXES",
    "MAX_STAKES_PER_BOX",
    "BET_MULTIPLE_MAX",
    "WAGERS",
    "WAGER_LABEL",
    "OPTIONS",
    "house_rules",
    "Hand",
    "Stake",
    "Box",
    "Replay",
    "shoe_findings",
    "incident_findings",
    "INCIDENT_RULE_LINES",
]

LOAD_BURNS: Final = 6
DEALER_CHANGE_BURNS: Final = 1


def shoe_findings(shoe) -> list[Finding]:
    """BURN_COUNT, BURN_FEE and CARD_COUNT over a shoe (rules/ochko.md, The shoe)."""
    from ..shoe import count_cards

    findings: list[Finding] = []
    fee_due = shoe.table_min / 2
    # The shoe document starts at its loading: 6 burns are due before the first round.
    due: tuple[str, int, int] | None = ("load", LOAD_BURNS, 0)
    burns = 0
    for item in shoe.items:
        if item.e in ("shuffle", "dealer_change"):
            due = (
                ("load", LOAD_BURNS, item.index)
                if item.e == "shuffle"
                else ("dealer_change", DEALER_CHANGE_BURNS, item.index)
            )
            burns = 0
        elif item.e == "burn":
            if item.reason == "paid":
                if item.fee != fee_due:
                    params = (
                        {"rule": "no_fee", "item": item.index, "fee": fmt(fee_due)}
                        if item.fee is None
                        else {"rule": "wrong_fee", "item": item.index, "paid": fmt(item.fee), "fee": fmt(fee_due)}
                    )
                    findings.append(finding("BURN_FEE", params, event=item.index))
            elif due is not None:
                burns += 1
        elif item.e == "round" and due is not None:
            what, wanted, at = due
            if burns != wanted:
                findings.append(
                    finding(
                        "BURN_COUNT",
                        {"rule": what, "item": item.index, "at": at, "n": burns, "want": wanted},
                        event=item.index,
                    )
                )
            due = None
    count_cards(shoe.items, DECKS, PACK, findings)
    return loop.sort_findings(findings)
