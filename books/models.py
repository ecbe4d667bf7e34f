"""The books of a table: its shifts and the float's events during each.

A `TableShift` holds the opening and closing counts (by denomination: {"100": 12, "500": 4}), who
counted and who signed them, the pit boss's explanation of a variance and who closed the shift.
A `FloatEvent` is one fill, credit, sale of chips for cash or transfer of cash to the drop box,
appended during the shift with who did each step and when. The figures (expected float, variance,
win) are never stored: `books.selectors.shift_books` computes them from these rows and the rounds.
An `IntegritySignal` is a pattern a scan found beyond chance, and its review (docs/signals.md).
"""

from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import MONEY, Table
from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from casino.scope import RowScope, Who

from .choices import EventKind, ShiftStatus, TransferStatus

USER = settings.AUTH_USER_MODEL


class TableShift(models.Model):
    """One shift of a table's float, from the opening count to the close."""

    # The dealers, inspectors and pit bosses of the table's pit read its shifts (casino/scope.py).
    row_scope = RowScope(pit="table__pit", owner="dealer", view=Who(pits=(DEALER, INSPECTOR, PIT_BOSS), own=()))

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shifts", verbose_name=_("table"))
    status = models.CharField(_("status"), max_length=10, choices=ShiftStatus.choices, default=ShiftStatus.OPENING)
    dealer = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="float_shifts",
        verbose_name=_("dealer"),
        help_text=_("The dealer who counted the opening float."),
    )
    opening = models.JSONField(_("opening count"), help_text=_('Chips by denomination, e.g. {"100": 20}.'))
    opening_total = models.DecimalField(_("opening float"), **MONEY)
    opened_at = models.DateTimeField(_("opened at"), default=timezone.now)
    opening_signed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("opening signed by")
    )
    opening_signed_at = models.DateTimeField(_("opening signed at"), null=True, blank=True)
    tolerance = models.DecimalField(
        _("variance tolerance"),
        default=Decimal("0"),
        **MONEY,
        help_text=_("A variance up to this amount (either way) closes without an explanation."),
    )
    closing = models.JSONField(_("closing count"), null=True, blank=True)
    closing_total = models.DecimalField(_("closing float"), null=True, blank=True, **MONEY)
    closing_counted_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("closing counted by")
    )
    closing_counted_at = models.DateTimeField(_("closing counted at"), null=True, blank=True)
    explanation = models.TextField(_("explanation of the variance"), blank=True)
    explained_variance = models.DecimalField(_("variance explained"), null=True, blank=True, **MONEY)
    explained_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("explained by")
    )
    explained_at = models.DateTimeField(_("explained at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("closed by")
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]
        verbose_name = _("table shift")
        verbose_name_plural = _("table shifts")
        constraints = [
            # A second opening while a shift is open (or awaiting its signature) is refused.
            models.UniqueConstraint(fields=["table"], condition=~Q(status="closed"), name="books_one_live_shift"),
        ]
        indexes = [models.Index(fields=["table", "opened_at"], name="books_shift_table_time")]

    def __str__(self) -> str:
        return f"{self.table.name} {self.opened_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.status == ShiftStatus.OPEN

    @property
    def is_closed(self) -> bool:
        return self.status == ShiftStatus.CLOSED


class FloatEvent(models.Model):
    """A fill or credit (chips by denomination: requested, approved, received), or an amount of
    chips sold for cash at the table or of cash taken to the drop box (recorded once)."""

    shift = models.ForeignKey(TableShift, on_delete=models.PROTECT, related_name="events", verbose_name=_("shift"))
    kind = models.CharField(_("kind"), max_length=12, choices=EventKind.choices)
    chips = models.JSONField(_("chips"), default=dict, blank=True)
    amount = models.DecimalField(_("amount"), **MONEY)
    status = models.CharField(_("status"), max_length=10, choices=TransferStatus.choices, blank=True)
    requested_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("requested or recorded by")
    )
    requested_at = models.DateTimeField(_("requested or recorded at"), default=timezone.now)
    approved_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("approved by")
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    received_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("received by")
    )
    received_at = models.DateTimeField(_("received at"), null=True, blank=True)

    class Meta:
        ordering = ["shift", "requested_at", "id"]
        verbose_name = _("float event")
        verbose_name_plural = _("float events")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="books_event_amount_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.shift} {self.kind} {self.amount}"

    @property
    def in_float(self) -> bool:
        """Whether it moves the float: a fill or credit once received; a sale or drop at once."""
        return self.kind in (EventKind.CHIPS_SOLD, EventKind.DROP) or self.status == TransferStatus.RECEIVED


class SignalStatus(models.TextChoices):
    OPEN = "open", _("open")
    CONFIRMED = "confirmed", _("confirmed")
    DISMISSED = "dismissed", _("dismissed")


class SignalKind(models.TextChoices):
    FAVOURED_PLAYER = "favoured_player", _("errors favouring one player")
    FAVOURED_BOX = "favoured_box", _("errors favouring one box")
    LEAN = "lean", _("errors leaning to overpayment")
    PLAYER_RESULTS = "player_results", _("a player's results beyond chance")
    INCIDENTS_DEALER = "incidents_dealer", _("incidents concentrated on a dealer")
    INCIDENTS_TABLE = "incidents_table", _("incidents concentrated on a table")
    PROCEDURE = "procedure", _("burns or reshuffles out of procedure")
    ADVANTAGE_PLAY = "advantage_play", _("a player's bets following the count")


class IntegritySignal(models.Model):
    """A pattern a scan of a period found beyond chance (books/integrity/detection.py, docs/signals.md), with its
    test's figures and evidence, and an auditor's review. `key` names the subject the same way in
    every scan: a re-scan updates the open signal of the same key and period instead of adding one."""

    # A pit boss sees the signals of his pits' tables and of his pits' dealers (casino/scope.py).
    row_scope = RowScope(
        pit=("table__pit", "dealer__staff__pits"), owner="dealer", view=Who(pits=(PIT_BOSS,), own=()), distinct=True
    )

    kind = models.CharField(_("kind"), max_length=20, choices=SignalKind.choices)
    key = models.CharField(_("subject key"), max_length=200, editable=False)
    dealer = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="signals", verbose_name=_("dealer")
    )
    player = models.CharField(_("player"), max_length=80, blank=True)
    box = models.PositiveSmallIntegerField(_("box or seat"), null=True, blank=True)
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="signals", verbose_name=_("table")
    )
    period_start = models.DateField(_("from"))
    period_end = models.DateField(_("to"))
    statistic = models.FloatField(_("statistic"))
    p_value = models.FloatField(_("p-value"))
    p_adjusted = models.FloatField(_("p-value after Holm's correction"))
    evidence = models.JSONField(_("evidence"), default=dict, encoder=DjangoJSONEncoder)
    round_ids = models.JSONField(_("rounds"), default=list, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=SignalStatus.choices, default=SignalStatus.OPEN)
    reviewed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("reviewed by")
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)
    created_at = models.DateTimeField(_("found at"), default=timezone.now)
    updated_at = models.DateTimeField(_("last scanned"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("integrity signal")
        verbose_name_plural = _("integrity signals")
        constraints = [
            models.UniqueConstraint(fields=["key", "period_start", "period_end"], name="books_signal_once"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="books_signal_status_time")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.period_start}–{self.period_end}"


class SlipCounter(models.Model):
    """The last number issued of each kind of slip, for the whole property: taken under a row lock in
    the transaction that issues the slip, so a number is used once and a rolled-back issue leaves no
    gap."""

    kind = models.CharField(_("kind"), max_length=12, choices=EventKind.choices, unique=True)
    last_number = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("slip counter")
        verbose_name_plural = _("slip counters")


class Slip(models.Model):
    """The fill or credit slip of an approved transfer: numbered without gaps per kind across the
    property, carried between the cage and the table. A void needs a reason and two signatures (the
    pit boss who asks and another who confirms); it keeps its number. Every print after the first is
    a reprint and says so."""

    row_scope = RowScope(pit="event__shift__table__pit", view=Who(pits=(DEALER, INSPECTOR, PIT_BOSS), own=()))

    event = models.OneToOneField(FloatEvent, on_delete=models.PROTECT, related_name="slip", verbose_name=_("transfer"))
    kind = models.CharField(_("kind"), max_length=12, choices=EventKind.choices)
    number = models.PositiveIntegerField(_("number"))
    issued_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("issued by"))
    issued_at = models.DateTimeField(_("issued at"), default=timezone.now)
    void_reason = models.TextField(_("reason for the void"), blank=True)
    void_requested_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("void asked by")
    )
    void_requested_at = models.DateTimeField(_("void asked at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("void confirmed by")
    )
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)

    class Meta:
        ordering = ["kind", "number"]
        verbose_name = _("slip")
        verbose_name_plural = _("slips")
        constraints = [
            models.UniqueConstraint(fields=["kind", "number"], name="books_slip_number_per_kind"),
            models.CheckConstraint(
                condition=Q(voided_by__isnull=True) | ~Q(voided_by=models.F("void_requested_by")),
                name="books_slip_void_two_signatures",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The number as printed: F-000123 for a fill, C-000045 for a credit."""
        return f"{self.kind[0].upper()}-{self.number:06d}"

    @property
    def voided(self) -> bool:
        return self.voided_by_id is not None

    @property
    def void_pending(self) -> bool:
        return self.void_requested_by_id is not None and self.voided_by_id is None


class SlipPrint(models.Model):
    """One print of a slip: the first is the original, every later one a reprint."""

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="prints", verbose_name=_("slip"))
    printed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("printed by"))
    printed_at = models.DateTimeField(_("printed at"), default=timezone.now)
    reprint = models.BooleanField(_("reprint"))

    class Meta:
        ordering = ["slip", "printed_at", "id"]
        verbose_name = _("slip print")
        verbose_name_plural = _("slip prints")
