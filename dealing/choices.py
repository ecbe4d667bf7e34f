"""Enumerations of dealing: what a shoe event, a round record, an incident and an approval can be."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ShoeEventKind(models.TextChoices):
    SHUFFLE = "shuffle", _("shuffle")
    BURN = "burn", _("burn")
    DEALER_CHANGE = "dealer_change", _("dealer change")


class BurnReason(models.TextChoices):
    LOAD = "load", _("after loading the shoe")
    DEALER_CHANGE = "dealer_change", _("dealer change")
    PAID = "paid", _("paid burn (player's request)")
    OTHER = "other", _("other")


class RoundStatus(models.TextChoices):
    """Where a round record stands. The record itself never changes; a correction is a new revision."""

    RECORDED = "recorded", _("recorded")  # the revision in force
    PENDING = "pending", _("amendment awaiting a pit boss")
    REJECTED = "rejected", _("amendment rejected")
    SUPERSEDED = "superseded", _("superseded by an approved amendment")


class AuditStatus(models.TextChoices):
    PENDING = "pending", _("not audited yet")
    CLEAN = "clean", _("clean")
    FINDINGS = "findings", _("findings")
    ERROR = "error", _("error")


class IncidentKind(models.TextChoices):
    DEALER_CARD_EXPOSED = "dealer_card_exposed", _("dealer's card exposed")
    MISDRAWN_CARD = "misdrawn_card", _("card drawn by mistake")


class IncidentStatus(models.TextChoices):
    REPORTED = "reported", _("reported")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class Resolution(models.TextChoices):
    BURNED = "burned", _("burned")
    UNDER_SHOE = "under_shoe", _("put under the shoe")
    TO_BOX = "to_box", _("placed on a box by the pit boss")


class Decision(models.TextChoices):
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class IncidentClass(models.TextChoices):
    """Whose fault the incident was, as surveillance files it."""

    DEALER_ERROR = "dealer_error", _("dealer error")
    PATRON_ERROR = "patron_error", _("patron error")
    EQUIPMENT = "equipment", _("equipment or procedure")
    NONE = "none", _("no fault")


class MoneyDirection(models.TextChoices):
    """Which way the money the incident touched went for the house."""

    SAVED = "saved", _("saved")
    LOST = "lost", _("lost")


class AttachmentKind(models.TextChoices):
    IMAGE = "image", _("image")
    DOCUMENT = "document", _("document")
    VIDEO = "video", _("video reference")
