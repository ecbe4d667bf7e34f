"""What surveillance files on an incident beyond the report: its review (classification, the money
saved or lost, a first and a second reviewer) and its attachments (images, documents, video
references). Models of the dealing app, imported by dealing/models.py; both relations are in the
record chain (dealing/apps.py), an attachment with the SHA-256 of its file."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import MONEY
from casino.scope import RowScope

from .choices import AttachmentKind, IncidentClass, MoneyDirection

USER = settings.AUTH_USER_MODEL


class IncidentReview(models.Model):
    """The classification of an incident and the money it saved or lost, set by a first reviewer
    (a pit boss of its pit, or an auditor) and signed off by a second, different one. Both are
    never its reporter; the second is never the first (the database refuses that too)."""

    row_scope = RowScope(pit="incident__table__pit", owner="incident__dealer")

    incident = models.OneToOneField(
        "dealing.Incident", on_delete=models.PROTECT, related_name="review", verbose_name=_("incident")
    )
    classification = models.CharField(_("classification"), max_length=20, choices=IncidentClass.choices)
    money_direction = models.CharField(_("money saved or lost"), max_length=10, choices=MoneyDirection.choices)
    money = models.DecimalField(_("amount"), **MONEY)
    reason = models.TextField(_("reason"))
    reviewed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="incident_reviews", verbose_name=_("first reviewer")
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), default=timezone.now)
    second_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="incident_second_reviews",
        verbose_name=_("second reviewer"),
    )
    second_at = models.DateTimeField(_("signed off at"), null=True, blank=True)
    second_comment = models.TextField(_("second reviewer's comment"), blank=True)

    class Meta:
        verbose_name = _("incident review")
        verbose_name_plural = _("incident reviews")
        constraints = [
            models.CheckConstraint(condition=Q(money__gte=0), name="incident_review_money_not_negative"),
            models.CheckConstraint(condition=~Q(second_by=F("reviewed_by")), name="incident_review_two_people"),
            models.CheckConstraint(
                condition=Q(second_by__isnull=True, second_at__isnull=True)
                | Q(second_by__isnull=False, second_at__isnull=False),
                name="incident_review_second_signed_when",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.incident_id}: {self.get_classification_display()}"

    @property
    def signed_off(self) -> bool:
        return self.second_by_id is not None


def attachment_path(attachment, filename: str) -> str:
    # The stored name never carries the uploader's: a hash-named file under the incident's folder.
    return f"incidents/{attachment.incident_id}/{attachment.sha256}{attachment.extension}"


class IncidentAttachment(models.Model):
    """A file (an image or a PDF) kept through Django's storage with its SHA-256, or a reference to
    a surveillance camera's video between two times (no file)."""

    row_scope = RowScope(pit="incident__table__pit", owner="incident__dealer")

    incident = models.ForeignKey(
        "dealing.Incident", on_delete=models.PROTECT, related_name="attachments", verbose_name=_("incident")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=AttachmentKind.choices)
    file = models.FileField(_("file"), upload_to=attachment_path, max_length=200, blank=True)
    name = models.CharField(_("file name"), max_length=200, blank=True)
    content_type = models.CharField(_("type"), max_length=60, blank=True)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    camera = models.CharField(_("camera"), max_length=60, blank=True)
    video_start = models.DateTimeField(_("video from"), null=True, blank=True)
    video_end = models.DateTimeField(_("video to"), null=True, blank=True)
    added_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="incident_attachments", verbose_name=_("added by")
    )
    added_at = models.DateTimeField(_("added at"), default=timezone.now)

    class Meta:
        ordering = ["added_at", "id"]
        verbose_name = _("incident attachment")
        verbose_name_plural = _("incident attachments")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="video", file="", sha256="", camera__gt="", video_end__gt=F("video_start"))
                | (~Q(kind="video") & ~Q(file="") & Q(sha256__regex=r"^[0-9a-f]{64}$", video_start__isnull=True)),
                name="incident_attachment_file_or_video",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.camera} {self.video_start:%Y-%m-%d %H:%M:%S}"

    @property
    def extension(self) -> str:
        return {"image/png": ".png", "image/jpeg": ".jpg", "application/pdf": ".pdf"}.get(self.content_type, "")
