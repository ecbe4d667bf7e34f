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
