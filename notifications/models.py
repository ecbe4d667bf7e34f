"""A notification is a row per recipient (rows first, pushes second: a push or an e-mail that fails
loses nothing), and each user's choice of channel per kind."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .kinds import Kind


class Notification(models.Model):
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("recipient")
    )
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    # The facts the title and text are made of, in the reader's language (notifications/kinds.py).
    params = models.JSONField(_("params"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=300, blank=True)
    # One event told once: the same HALT of the same round, asked again by the terminal, adds no row.
    key = models.CharField(_("event key"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    # Shown in the bell and the list (the user's choice at the time); e-mail owed and when it went.
    on_page = models.BooleanField(_("on the page"), default=True)
    email_due = models.BooleanField(_("e-mail due"), default=False)
    emailed_at = models.DateTimeField(_("e-mailed at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "kind", "key"], condition=~Q(key=""), name="notification_once_per_event"
            ),
        ]
        indexes = [
            # The bell: a user's unread rows shown on the page.
            models.Index(
                fields=["recipient"], name="notification_unread", condition=Q(read_at__isnull=True, on_page=True)
            ),
            models.Index(fields=["recipient", "created_at", "id"], name="notification_recipient_time"),
            models.Index(fields=["created_at"], name="notification_email_due", condition=Q(email_due=True)),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.recipient_id}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None

    @property
    def title(self) -> str:
        from .kinds import title

        return str(title(self.kind, self.params))  # a plain string: a lazy one cannot be sent as JSON

    @property
    def text(self) -> str:
        from .kinds import text

        return str(text(self.kind, self.params))


class Preference(models.Model):
    """A user's channel for each kind (the defaults of notifications/kinds.py for a kind not named)
    and whether he wants the daily digest of what he has not read."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preference",
        verbose_name=_("user"),
    )
    channels = models.JSONField(_("channels"), default=dict, blank=True)
    digest = models.BooleanField(_("daily digest by e-mail"), default=False)
    digest_sent_at = models.DateTimeField(_("digest sent at"), null=True, blank=True)
    # The e-mails' language: the user's choice, or (blank) the language he last used, recorded at
    # each sign-in and on his notification settings, as the pages he reads are in it.
    language = models.CharField(_("language of the e-mails"), max_length=10, blank=True, choices=settings.LANGUAGES)
    last_language = models.CharField(_("language last used"), max_length=10, blank=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return str(self.user_id)
