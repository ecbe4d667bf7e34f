"""Choices of the drills."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from casino.finding_labels import CODE_LABELS as ENGINE_CODE_LABELS


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

# What each finding code means, as the results pages name the trainee's most frequent mistakes: the
# engine's codes (casino/finding_labels.py, the one table of them) and the drills' own.
CODE_LABELS = {**ENGINE_CODE_LABELS, **DRILL_CODE_LABELS}
