"""Blackjack, the two seed rulesets as presets of one variant (rules/blackjack.md): replay,
settle, audit, next moves.

A round is replayed event by event through its phases — the deal, the insurance / even-money
offers while the dealer shows an ace, the peek, the players' hands (depth first after a split),
the dealer's draw, settlement. Each event is validated as it is applied (a log we cannot follow
raises `RoundError`); every departure from the rules becomes a `Finding` and the replay keeps
going. A hand that breaks a rule is flagged and settled as it was actually dealt.

Hands are named by box (``"2"``); splitting ``H`` makes ``H.1`` (its first card) and ``H.2``
(its second card, with a second bet equal to the first).

The package: rules.py (the pack, wagers, house rules, hands), events.py (the header and each
event), replay.py (the end of the round and the next moves); here, the checks across a shoe.
"""

from .. import loop
from ..findings import Finding
from ..sentences import finding
from .replay import Replay
from .rules import (
    CUT,
    EVERY_ROUND,
    MAX_TABLE_BOXES,
    NAME,
    OPTIONS,
    PACK,
    PRESETS,
    WAGER_LABEL,
    WAGERS,
    Hand,
    Stake,
    blackjack_pay,
    house_rules,
)

__all__ = [
    "NAME",
    "PACK",
    "MAX_TABLE_BOXES",
    "WAGERS",
    "WAGER_LABEL",
    "CUT",
    "EVERY_ROUND",
    "OPTIONS",
    "PRESETS",
    "house_rules",
    "blackjack_pay",
    "Hand",
    "Stake",
    "Replay",
    "shoe_findings",
]


def shoe_findings(shoe) -> list[Finding]:
    """RESHUFFLE_POINT and CARD_COUNT over a shoe (rules/blackjack.md, Presets).

    Salon ("cut"): a shoe of `decks` × 52 cards; a new shoe is due when fewer than `cut_remaining`
    cards remain before a deal — a round dealt below that point, or a shuffle above it, is a finding.
    Online ("every_round"): every round comes from a freshly shuffled shoe — a round dealt from a
    shoe that already gave cards is a finding.
    """
    from ..shoe import count_cards

    rules = shoe.rules
    decks = rules["decks"]
    full = decks * 52
    cut = rules["cut_remaining"]
    every_round = rules["reshuffle"] == EVERY_ROUND
    findings: list[Finding] = []
    used = 0
    for item in shoe.items:
        if item.e == "shuffle":
            if not every_round and used and full - used >= cut:
                findings.append(
                    finding(
                        "RESHUFFLE_POINT",
                        {"rule": "early", "item": item.index, "n": full - used, "cut": cut},
                        event=item.index,
                    )
                )
            used = 0
            continue
        if item.e == "round":
            if every_round:
                if used:
                    findings.append(
                        finding(
                            "RESHUFFLE_POINT", {"rule": "no_shuffle", "item": item.index, "n": used}, event=item.index
                        )
                    )
            elif full - used < cut:
                findings.append(
                    finding(
                        "RESHUFFLE_POINT",
                        {"rule": "past_cut", "item": item.index, "n": full - used, "cut": cut},
                        event=item.index,
                    )
                )
        used += len(item.cards)
    count_cards(shoe.items, decks, PACK, findings)
    return loop.sort_findings(findings)
