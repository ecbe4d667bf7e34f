"""The table terminal's round in progress, kept on the server (docs/terminal.md, "The draft"): a
model of the dealing app, imported by dealing/models.py."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import Table
from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from casino.scope import RowScope, Who


class TerminalDraft(models.Model):
    """The accepted entries of the round a terminal is following, written at each one, so that a
    reload, a lost connection or a crashed browser resumes at the same entry. One terminal holds a
    table's draft at a time; another takes it over only when its dealer asks. A stored round clears
    it. A draft still open when a new shoe is loaded or the table's shift closes is *left behind*:
    it stays until a pit boss of the pit voids it with a reason (who, when and why are kept)."""

    class Left(models.TextChoices):
        NEW_SHOE = "new_shoe", _("a new shoe was loaded")
        SHIFT_END = "shift_end", _("the shift was closed")

    row_scope = RowScope(pit="table__pit", view=Who(pits=(PIT_BOSS, INSPECTOR, DEALER), own=()))

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="terminal_drafts", verbose_name=_("table"))
    round_id = models.UUIDField(_("round id"))
    # The browser's own terminal id (kept in its storage): a write from any other is refused.
    terminal = models.CharField(_("terminal"), max_length=64)
    held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("held by")
    )
    dealer = models.CharField(_("dealer"), max_length=150, blank=True)
    stakes = models.JSONField(_("stakes"), default=list)
    events = models.JSONField(_("entries"), default=list)
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)
    # The header fields the game's terminal asks before the deal (veintiuno: who holds the bank).
    header = models.JSONField(_("header"), default=dict, blank=True)
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)
    # The clocks (docs/terminal.md): when the last entry was accepted (a retry of the same log, a
    # reload, does not move it, so a running clock resumes where it stood), and the entries a clock's
    # end logged (a timed-out stand, an insurance offer closed), kept here: round/1 has no field for it.
    entry_at = models.DateTimeField(_("last entry at"), null=True, blank=True)
    timeouts = models.JSONField(_("entries logged by a clock"), default=list, blank=True)
    taken_over_at = models.DateTimeField(_("taken over at"), null=True, blank=True)
    left_behind_at = models.DateTimeField(_("left behind at"), null=True, blank=True)
    left_behind_why = models.CharField(_("left behind because"), max_length=20, choices=Left.choices, blank=True)
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("voided by"),
    )
    void_reason = models.TextField(_("reason voided"), blank=True)

    class Meta:
        verbose_name = _("terminal draft")
        verbose_name_plural = _("terminal drafts")
        ordering = ["table", "-updated_at"]
        constraints = [
            # A table has one round in progress at a time; those left behind wait beside it.
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(left_behind_at__isnull=True, voided_at__isnull=True),
                name="terminal_draft_one_held",
            ),
            models.UniqueConstraint(fields=["round_id"], name="terminal_draft_round_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} / {self.round_id}: {len(self.events or ())}"

    @property
    def is_held(self) -> bool:
        return self.left_behind_at is None and self.voided_at is None
