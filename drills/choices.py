"""Choices of the drills."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    PAYOUT = "payout", _("Payout drill")
    PROCEDURE = "procedure", _("Procedure drill")
    STRATEGY = "strategy", _("Strategy trainer")


class Status(models.TextChoices):
    ACTIVE = "active", _("in progress")
    FINISHED = "finished", _("finished")


class Preset(models.TextChoices):
    NONE = "", _("—")
    SALON = "salon", "salon"
    ONLINE = "online", "online"


class StepKind(models.TextChoices):
    SETTLE = "settle", _("settlement")
    MISSING = "missing", _("settlement never made")
    ACTION = "action", _("dealer's move")
    INCIDENT = "incident", _("incident")
    BETWEEN = "between", _("between rounds")
    PLAY = "play", _("playing decision")


# Mistakes no round log can show (the procedure drill explains them from the procedure itself).
# Every other mistake is named by the engine's finding code.
DRILL_CODE_LABELS = {
    "SHUFFLE_DEMAND": _("A demand for a new shuffle handled against the procedure"),
    "PAID_BURN": _("A paid burn refused"),
    "INCIDENT_HANDLING": _("An exposed card kept in play"),
    "STRATEGY_PLAY": _("A play worth less than the best option"),
    "STRATEGY_BET": _("A fold or Bet worth less than the best one"),
}

# What each finding code means, as the results pages name the trainee's most frequent mistakes.
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
    **DRILL_CODE_LABELS,
}
