"""Enumerations of audit: a finding's review status and classification, an audit run's state."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Severity(models.TextChoices):
    CRITICAL = "critical", _("critical")
    MAJOR = "major", _("major")
    MINOR = "minor", _("minor")


class FindingStatus(models.TextChoices):
    """Where an auditor's work on a finding stands: open until confirmed or dismissed."""

    OPEN = "open", _("open")
    CONFIRMED = "confirmed", _("confirmed")
    DISMISSED = "dismissed", _("dismissed")


class Classification(models.TextChoices):
    DEALER_ERROR = "dealer_error", _("dealer error")
    PLAYER_DISPUTE = "player_dispute", _("player dispute")
    NO_ERROR = "no_error", _("no error")


# Which classifications fit a decision: a confirmed finding is somebody's error or a dispute, a
# dismissed one is no error or a dispute settled in the casino's favour. Reopening clears it.
CLASSIFICATIONS_FOR = {
    FindingStatus.CONFIRMED: {Classification.DEALER_ERROR, Classification.PLAYER_DISPUTE},
    FindingStatus.DISMISSED: {Classification.NO_ERROR, Classification.PLAYER_DISPUTE},
    FindingStatus.OPEN: {""},
}


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class RunTrigger(models.TextChoices):
    PAGE = "page", _("audit page")
    API = "api", _("API")
    COMMAND = "command", _("command line")
    NIGHTLY = "nightly", _("nightly schedule")


class ChunkStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    DONE = "done", _("done")


class ShoeAuditStatus(models.TextChoices):
    CLEAN = "clean", _("clean")
    FINDINGS = "findings", _("findings")
    ERROR = "error", _("error")
