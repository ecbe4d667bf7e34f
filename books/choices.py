"""Enumerations of the books: where a shift stands, what a float event is, where a fill or credit stands."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ShiftStatus(models.TextChoices):
    OPENING = "opening", _("opening count awaiting the pit boss's signature")
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class EventKind(models.TextChoices):
    FILL = "fill", _("fill")
    CREDIT = "credit", _("credit")
    CHIPS_SOLD = "chips_sold", _("chips sold for cash")
    DROP = "drop", _("cash to the drop box")


# Fills and credits move chips by denomination; the other two are cash amounts.
CHIP_KINDS = (EventKind.FILL, EventKind.CREDIT)
CASH_KINDS = (EventKind.CHIPS_SOLD, EventKind.DROP)


class TransferStatus(models.TextChoices):
    REQUESTED = "requested", _("requested")
    APPROVED = "approved", _("approved")
    RECEIVED = "received", _("received")
