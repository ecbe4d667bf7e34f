"""What the live pages are told, stored first: each event a row (its id the streams' cursor), pushed
on the bus only once the row has committed. A client that missed pushes (a reconnect, the bus
restarted) reads the rows after its last id."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import Pit, Table
from casino.roles import PIT_BOSS
from casino.scope import RowScope, Who


class LiveEvent(models.Model):
    # A pit boss is told what happens in his pits; an auditor (and a superuser) everything, the
    # events of no pit (an audit run) included.
    row_scope = RowScope(pit="pit", view=Who(pits=(PIT_BOSS,), own=()))

    pit = models.ForeignKey(
        Pit, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("pit")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("table")
    )
    # An event for one user only (his notification): no pit's audience, only his own streams.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=40)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("live event")
        verbose_name_plural = _("live events")
        indexes = [models.Index(fields=["table", "kind", "-id"], name="live_event_table_kind")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind}"

    def message(self) -> dict:
        """The event as it travels on the bus and reaches a browser."""
        return {
            "id": self.pk,
            "pit": self.pit_id,
            "table": self.table_id,
            "user": self.user_id,
            "kind": self.kind,
            "data": self.payload,
            "at": self.created_at.isoformat(),
        }
