"""Findings: where a log departs from the rules, with what it cost the player."""

from decimal import Decimal
from typing import Final

from .money import fmt

CRITICAL: Final = "critical"
MAJOR: Final = "major"
MINOR: Final = "minor"

SEVERITY: Final = {
    "WRONG_AMOUNT": CRITICAL,
    "WRONG_RESULT": CRITICAL,
    "MISSING_SETTLEMENT": CRITICAL,
    "UNEXPECTED_SETTLEMENT": CRITICAL,
    "CARD_INVALID": CRITICAL,
    "CARD_COUNT": CRITICAL,
    "LATE_SETTLEMENT": MAJOR,
    "PAYMENT_ORDER": MAJOR,
    "DEAL_ORDER": MAJOR,
    "DRAW_ORDER": MAJOR,
    "ILLEGAL_ACTION": MAJOR,
    "DEALER_DRAW_RULE": MAJOR,
    "BET_RANGE": MAJOR,
    "ANTE_LIMITS": MAJOR,
    "BOX_PLAYERS": MAJOR,
    "DEALER_BET_MIN": MINOR,
    "INCIDENT_UNAPPROVED": MAJOR,
    "INCIDENT_RESOLUTION": MAJOR,
    "BURN_COUNT": MAJOR,
    "BURN_FEE": MINOR,
    # blackjack and veintiuno
    "BET_LIMITS": MAJOR,
    "INSURANCE_AMOUNT": MAJOR,
    "RESHUFFLE_POINT": MAJOR,
    "BANK_SUCCESSION": MAJOR,
}
CODES: Final = frozenset(SEVERITY)

# The findings no dealer's mistake can make: a round with one of them cannot have happened as
# logged (a card that is no card of the pack; more copies of a card than the shoe holds — a card
# in two places, or cards dealt after the shoe ran out). Such a log is refused, not recorded: the
# Django side stores a round only when none of its findings is IMPOSSIBLE. Every other finding is
# a mistake at the table (a wrong payment, a wrong draw), recorded with the round.
IMPOSSIBLE: Final = frozenset({"CARD_INVALID", "CARD_COUNT"})


def impossible(findings) -> list:
    """The findings (of a replay) that make a round impossible, in their order."""
    return [f for f in findings if f.code in IMPOSSIBLE]


SEVERITY_ORDER: Final = {CRITICAL: 0, MAJOR: 1, MINOR: 2}


class Finding:
    """One departure from the rules. `player_delta` is what the player received minus what was owed."""

    __slots__ = ("code", "event", "stake", "hand", "wager", "expected", "actual", "player_delta", "message", "params")

    def __init__(
        self,
        code: str,
        message: str,
        *,
        event: int | None = None,
        stake: str | None = None,
        hand: str | None = None,
        wager: str | None = None,
        expected: dict | None = None,
        actual: dict | None = None,
        player_delta: Decimal | None = None,
        params: dict | None = None,
    ):
        self.code = code
        self.params = params if params is not None else {}
        self.message = message
        self.event = event
        self.stake = stake
        self.hand = hand
        self.wager = wager
        self.expected = expected
        self.actual = actual
        self.player_delta = player_delta

    @property
    def severity(self) -> str:
        return SEVERITY[self.code]

    def to_dict(self) -> dict:
        out = {
            "code": self.code,
            "severity": SEVERITY[self.code],
            "event": self.event,
            "stake": self.stake,
            "wager": self.wager,
            "expected": self.expected,
            "actual": self.actual,
            "player_delta": None if self.player_delta is None else fmt(self.player_delta),
            "message": self.message,
            "params": self.params,
        }
        if self.hand is not None:
            out["hand"] = self.hand
        return out

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Finding {self.code} event={self.event} {self.message!r}>"
