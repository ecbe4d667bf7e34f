"""What each finding code means, and each severity, in the reader's language: the one table of the
engine's codes (dealing/engine/findings.py's CODES; the severity of a code stays the engine's).

Pages say a finding without params (stored before the engine gave them) by its code's label
(casino/finding_words.py), the drills name a trainee's most frequent mistakes with it
(drills/choices.py adds the drills' own codes), the filters and dashboards list codes with it.
"""

from django.utils.translation import gettext_lazy as _

SEVERITY_LABELS = {"critical": _("critical"), "major": _("major"), "minor": _("minor")}

CODE_LABELS = {
    "WRONG_AMOUNT": _("Paid the wrong amount"),
    "WRONG_RESULT": _("Paid, took or left the wrong way"),
    "MISSING_SETTLEMENT": _("A wager never settled"),
    "UNEXPECTED_SETTLEMENT": _("A wager settled twice, or one that does not exist"),
    "LATE_SETTLEMENT": _("An instant ochko or mnogo settled late"),
    "PAYMENT_ORDER": _("Payment out of order (6 → 1, dealer bets last)"),
    "DEAL_ORDER": _("Dealt out of order"),
    "DRAW_ORDER": _("A card to the wrong box, or drawn out of turn"),
    "ILLEGAL_ACTION": _("A move the rules do not allow"),
    "DEALER_DRAW_RULE": _("The dealer's drawing rule broken"),
    "BET_RANGE": _("A Bet outside 1–10× its Ante"),
    "ANTE_LIMITS": _("An Ante outside the table limits"),
    "BOX_PLAYERS": _("Too many players on a box"),
    "DEALER_BET_MIN": _("A dealer bet under the minimum"),
    "INCIDENT_UNAPPROVED": _("An incident without the pit boss"),
    "INCIDENT_RESOLUTION": _("An incident resolved the wrong way"),
    "BURN_COUNT": _("The wrong number of cards burned"),
    "BURN_FEE": _("The wrong fee for a paid burn"),
    "BET_LIMITS": _("A bet outside the table limits"),
    "INSURANCE_AMOUNT": _("Insurance over half the bet"),
    "RESHUFFLE_POINT": _("Reshuffled at the wrong point"),
    "BANK_SUCCESSION": _("The bank passed to the wrong player"),
    "CARD_INVALID": _("A card that is not in the pack"),
    "CARD_COUNT": _("Too many copies of a card"),
}


def severity_label(severity: str | None) -> str:
    """critical / major / minor in the reader's language (the pills show it; the CSS class keeps the code)."""
    label = SEVERITY_LABELS.get(severity or "")
    return str(label) if label is not None else (severity or "")
