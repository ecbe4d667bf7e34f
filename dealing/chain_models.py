"""The chains' bookkeeping: each signed checkpoint written (or the attempt that failed) and each
verification of the chains, as the audit dashboard and the round page report them. A model of the
dealing app, imported by dealing/models.py."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ChainCheck(models.Model):
    """One signed checkpoint written (or the attempt that failed), or one verification of the
    chains: what the audit dashboard and the round page report. A checkpoint's `seq` and `digest`
    let the verifier tell that lines of the checkpoint log were removed."""

    class Kind(models.TextChoices):
        CHECKPOINT = "checkpoint", _("checkpoint")
        VERIFICATION = "verification", _("verification")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    at = models.DateTimeField(_("at"), default=timezone.now)
    ok = models.BooleanField(_("ok"))
    message = models.TextField(_("message"), blank=True)
    records = models.PositiveBigIntegerField(_("records"), default=0)
    seq = models.PositiveIntegerField(_("checkpoint line"), null=True, blank=True)
    digest = models.CharField(_("checkpoint line hash"), max_length=64, blank=True)
    breaks = models.JSONField(_("breaks"), default=list, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("chain check")
        verbose_name_plural = _("chain checks")
        indexes = [models.Index(fields=["kind", "ok", "at"], name="chain_check_kind_time")]

    def __str__(self) -> str:
        return f"{self.kind} {self.at:%Y-%m-%d %H:%M} {'ok' if self.ok else 'failed'}"


class RecordLink(models.Model):
    """One fact of a chained relation (dealing/services/record_links.py): what a row of `relation`
    said at `at` — its covered columns as `payload`, or that it was deleted (`payload` null) — as
    the next link of that relation's keyed chain. A row that legitimately changes (an incident
    decided, a shift closed, a user renamed) gets a new link, the history of its states; the row's
    current values must always be its latest link's payload. Appended only."""

    relation = models.CharField(_("relation"), max_length=63)
    link = models.PositiveBigIntegerField(_("link"))
    row_id = models.BigIntegerField(_("row id"))
    payload = models.JSONField(_("payload"), null=True, blank=True)
    # SHA-256 of the part of the payload the row must still match (all but the staff's names then),
    # so comparing every row with its latest link decodes no payload; covered by the link's HMAC.
    digest = models.CharField(_("row digest"), max_length=64, blank=True)
    at = models.DateTimeField(_("at"))
    chain_key = models.CharField(_("key id"), max_length=16)
    prev_hmac = models.CharField(_("previous link"), max_length=64, blank=True)
    hmac = models.CharField(_("link"), max_length=64)

    class Meta:
        verbose_name = _("record link")
        verbose_name_plural = _("record links")
        constraints = [models.UniqueConstraint(fields=["relation", "link"], name="record_link_once")]
        indexes = [models.Index(fields=["relation", "row_id", "link"], name="record_link_row")]

    def __str__(self) -> str:
        return f"{self.relation} #{self.link} (row {self.row_id})"
