"""Enumerations of the ledger: where a game night stands and how it ended."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class SessionStatus(models.TextChoices):
    DRAWING = "drawing", _("drawing for the first bank")
    PLAYING = "playing", _("playing")
    ENDED = "ended", _("ended")


class EndReason(models.TextChoices):
    ALL_CHIPS = "all_chips", _("one player holds every chip")
    AGREEMENT = "agreement", _("settled by agreement")
