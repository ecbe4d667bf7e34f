"""Audit: what the rules engine found in the logged rounds and shoes, the auditors' reviews of it,
and the batch runs that check a selection of rounds.

- `Finding` — one departure from the rules, of a round (`round` set) or of a shoe as a whole
  (`round` empty, `shoe` set: burns, fees, card counts, the reshuffle point). A finding carries
  a `fingerprint` that is stable across re-audits (code, event, stake, hand, wager), so a re-audit
  keeps the finding row — and its reviews — when the same finding recurs, and replaces the rest.
  Table, dealer and time are copied from the round for querying without joins.
- `Review` — an auditor's decision on a finding (confirmed, dismissed, reopened) with its
  classification and comment. Reviews are never edited or deleted: the finding shows the latest
  one, the history stays. A review keeps its round and fingerprint, so it outlives a finding that
  a later engine no longer reports, and is re-attached if that finding comes back.
- `AuditRun` / `AuditRunChunk` — a run over a selection of rounds, planned into chunks of round
  ids. A chunk's results are committed together with its "done" mark, so a chunk delivered twice
  is counted once.
- `ShoeAudit` — the verdict of the last shoe check of a shoe.
- `Rollup` / `RollupFinding` — running totals per (day, shift, table, dealer, game): audited rounds,
  handle and win; findings by code, severity and review. Kept current by audit/rollups.py in the
  transactions that change what they count; the dashboard and error rates read them (docs/rollups.md).
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import MONEY, Table
from casino.scope import RowScope
from dealing.models import Round, Shoe

from .choices import (
    ChunkStatus,
    Classification,
    FindingStatus,
    RunStatus,
    RunTrigger,
    Severity,
    ShoeAuditStatus,
)

USER = settings.AUTH_USER_MODEL


class Finding(models.Model):
    row_scope = RowScope(pit="table__pit", owner="dealer")  # as a round's (casino/scope.py)
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="findings", verbose_name=_("round")
    )
    shoe = models.ForeignKey(
        Shoe, on_delete=models.CASCADE, null=True, blank=True, related_name="findings", verbose_name=_("shoe")
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="findings", verbose_name=_("table"))
    dealer = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="findings", verbose_name=_("dealer")
    )
    played_at = models.DateTimeField(
        _("played at"), help_text=_("When the round was logged (for a shoe: its loading).")
    )
    code = models.CharField(_("code"), max_length=32)
    severity = models.CharField(_("severity"), max_length=10, choices=Severity.choices)
    event = models.IntegerField(
        _("event"),
        null=True,
        blank=True,
        help_text=_("0-based index in the round's events (for a shoe: in its items)."),
    )
    stake = models.CharField(_("stake"), max_length=40, blank=True)
    hand = models.CharField(_("hand"), max_length=20, blank=True)
    wager = models.CharField(_("wager"), max_length=20, blank=True)
    expected = models.JSONField(_("owed"), null=True, blank=True, encoder=DjangoJSONEncoder)
    actual = models.JSONField(_("logged"), null=True, blank=True, encoder=DjangoJSONEncoder)
    player_delta = models.DecimalField(
        _("player delta"), null=True, blank=True, **MONEY, help_text=_("What the player received minus what was owed.")
    )
    message = models.TextField(_("message"))
    # The named values of the sentence (round-format.md, third wave): the page renders the finding in
    # the reader's language from code + params (casino/finding_words.py). {} on a finding stored before
    # the engine gave params: it is shown by its code's label until a re-audit fills them in.
    params = models.JSONField(_("params"), default=dict, blank=True, encoder=DjangoJSONEncoder)
    engine_version = models.CharField(_("engine version"), max_length=20)
    fingerprint = models.CharField(_("fingerprint"), max_length=40, editable=False)
    # The latest review, copied here for lists and filters (the history is in Review).
    status = models.CharField(_("status"), max_length=12, choices=FindingStatus.choices, default=FindingStatus.OPEN)
    classification = models.CharField(_("classification"), max_length=20, choices=Classification.choices, blank=True)
    reviewed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("reviewed by")
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    created = models.DateTimeField(_("found at"), default=timezone.now)

    class Meta:
        ordering = ["-played_at", "-id"]
        verbose_name = _("finding")
        verbose_name_plural = _("findings")
        constraints = [
            models.CheckConstraint(
                condition=Q(round__isnull=False) | Q(shoe__isnull=False), name="finding_of_a_round_or_shoe"
            ),
            models.UniqueConstraint(
                fields=["round", "fingerprint"], condition=Q(round__isnull=False), name="finding_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["shoe", "fingerprint"], condition=Q(round__isnull=True), name="finding_once_per_shoe"
            ),
        ]
        indexes = [
            # The list pages read newest first by (played_at, id) from a key (casino/keyset.py): each
            # filter's index ends with both, so a page is an index scan with no sort.
            models.Index(fields=["played_at", "id"], name="finding_time"),
            models.Index(fields=["table", "played_at", "id"], name="finding_table_time_id"),
            models.Index(fields=["dealer", "played_at", "id"], name="finding_dealer_time_id"),
            models.Index(fields=["code", "played_at"], name="finding_code_time"),
            models.Index(fields=["status", "played_at"], name="finding_status_time"),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.round or self.shoe})"

    @property
    def is_shoe_finding(self) -> bool:
        return self.round_id is None


class Review(models.Model):
    finding = models.ForeignKey(
        Finding, on_delete=models.SET_NULL, null=True, blank=True, related_name="reviews", verbose_name=_("finding")
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("round")
    )
    shoe = models.ForeignKey(
        Shoe, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("shoe")
    )
    fingerprint = models.CharField(_("fingerprint"), max_length=40)
    code = models.CharField(_("code"), max_length=32)
    auditor = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="reviews", verbose_name=_("auditor"))
    status = models.CharField(_("decision"), max_length=12, choices=FindingStatus.choices)
    classification = models.CharField(_("classification"), max_length=20, choices=Classification.choices, blank=True)
    comment = models.TextField(_("comment"), blank=True)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        indexes = [models.Index(fields=["round", "fingerprint"], name="review_round_fingerprint")]

    def __str__(self) -> str:
        return f"{self.code}: {self.get_status_display()} ({self.auditor})"


class AuditRun(models.Model):
    started_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_runs", verbose_name=_("started by")
    )
    trigger = models.CharField(_("started from"), max_length=12, choices=RunTrigger.choices, default=RunTrigger.PAGE)
    # The selection.
    tables = models.ManyToManyField(Table, blank=True, related_name="+", verbose_name=_("tables"))
    dealers = models.ManyToManyField(USER, blank=True, related_name="+", verbose_name=_("dealers"))
    date_from = models.DateField(_("from"), null=True, blank=True)
    date_to = models.DateField(_("to"), null=True, blank=True)
    only_unaudited = models.BooleanField(_("only rounds not audited yet"), default=True)
    # How it runs.
    chunk_size = models.PositiveIntegerField(_("rounds per chunk"), default=500)
    queue = models.CharField(
        _("queue"),
        max_length=80,
        blank=True,
        help_text=_("The Celery queue of the run's tasks (empty: the default queue)."),
    )
    max_round_id = models.BigIntegerField(
        _("last round included"),
        null=True,
        blank=True,
        help_text=_("Rounds logged after the run started are not part of it."),
    )
    plan_cursor = models.BigIntegerField(default=0, editable=False)
    planned = models.BooleanField(_("planned"), default=False)
    # Progress and totals.
    status = models.CharField(_("status"), max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED)
    rounds_expected = models.PositiveIntegerField(
        _("rounds expected"),
        default=0,
        help_text=_("The selection counted at the start, for progress while the run is still being planned."),
    )
    rounds_total = models.PositiveIntegerField(_("rounds"), default=0)
    rounds_done = models.PositiveIntegerField(_("rounds done"), default=0)
    clean = models.PositiveIntegerField(_("clean"), default=0)
    with_findings = models.PositiveIntegerField(_("with findings"), default=0)
    errors = models.PositiveIntegerField(_("errors"), default=0)
    findings_total = models.PositiveIntegerField(_("findings"), default=0)
    findings_by_code = models.JSONField(_("findings by code"), default=dict, blank=True)
    engine_version = models.CharField(_("engine version"), max_length=20, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit run")
        verbose_name_plural = _("audit runs")

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_status_display()}"

    @property
    def is_finished(self) -> bool:
        return self.status in (RunStatus.DONE, RunStatus.FAILED)

    @property
    def total(self) -> int:
        """How many rounds the run covers: exact once planned, the count at the start until then."""
        return self.rounds_total if self.planned else max(self.rounds_total, self.rounds_expected)

    @property
    def percent(self) -> int:
        if self.is_finished and self.status == RunStatus.DONE:
            return 100
        if not self.total:
            return 0
        return min(99 if not self.planned else 100, self.rounds_done * 100 // self.total)

    @property
    def duration(self):
        if self.started_at is None:
            return None
        return (self.finished_at or timezone.now()) - self.started_at

    def summary(self) -> dict:
        """The figures `audit_rounds --json` prints: rounds, clean, with findings, errors, findings by code."""
        return {
            "rounds": self.rounds_done,
            "clean": self.clean,
            "with_findings": self.with_findings,
            "errors": self.errors,
            "findings": dict(sorted(self.findings_by_code.items())),
        }


class AuditRunChunk(models.Model):
    run = models.ForeignKey(AuditRun, on_delete=models.CASCADE, related_name="chunks", verbose_name=_("run"))
    number = models.PositiveIntegerField(_("number"))
    round_ids = models.JSONField(_("rounds"))
    status = models.CharField(_("status"), max_length=10, choices=ChunkStatus.choices, default=ChunkStatus.PENDING)
    rounds = models.PositiveIntegerField(_("rounds"), default=0)
    clean = models.PositiveIntegerField(_("clean"), default=0)
    with_findings = models.PositiveIntegerField(_("with findings"), default=0)
    errors = models.PositiveIntegerField(_("errors"), default=0)
    findings_by_code = models.JSONField(_("findings by code"), default=dict, blank=True)
    error_samples = models.JSONField(
        _("errors"),
        default=list,
        blank=True,
        help_text=_("The first rounds the engine could not read, with its message."),
    )
    done_at = models.DateTimeField(_("done at"), null=True, blank=True)
    # Set, and committed, when a worker takes the chunk; cleared when it is done. A pending chunk whose
    # lease has run out and whose row no transaction holds lost its worker mid-chunk: the periodic
    # `audit_chunks_expired` queues it again (services.runs.audit_chunks_requeue_expired).
    leased_until = models.DateTimeField(_("leased until"), null=True, blank=True)
    requeued = models.PositiveIntegerField(
        _("re-queued"), default=0, help_text=_("How many times the chunk was queued again after its worker died.")
    )

    class Meta:
        # By the run's id, not "run" (that orders by the run's own ordering, through a join — and a
        # `FOR UPDATE` over the join would lock the run row as well).
        ordering = ["run_id", "number"]
        verbose_name = _("audit run chunk")
        verbose_name_plural = _("audit run chunks")
        constraints = [models.UniqueConstraint(fields=["run", "number"], name="chunk_number_per_run")]
        indexes = [
            models.Index(fields=["run", "status"], name="chunk_run_status"),
            models.Index(
                fields=["leased_until"],
                condition=models.Q(status="pending", leased_until__isnull=False),
                name="chunk_lease_expiry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.run} / {self.number}"


class ShoeAudit(models.Model):
    shoe = models.OneToOneField(Shoe, on_delete=models.CASCADE, related_name="audit", verbose_name=_("shoe"))
    status = models.CharField(_("status"), max_length=10, choices=ShoeAuditStatus.choices)
    findings = models.PositiveIntegerField(_("findings"), default=0)
    rounds = models.PositiveIntegerField(_("rounds"), default=0)
    message = models.TextField(_("message"), blank=True)
    engine_version = models.CharField(_("engine version"), max_length=20)
    audited_at = models.DateTimeField(_("audited at"), default=timezone.now)

    class Meta:
        verbose_name = _("shoe audit")
        verbose_name_plural = _("shoe audits")

    def __str__(self) -> str:
        return f"{self.shoe}: {self.get_status_display()}"


class Rollup(models.Model):
    """The audited rounds in force of one (day, shift, table, dealer, game): how many, by verdict, their
    handle and their win. Written only by audit/rollups.py (increments; docs/rollups.md)."""

    row_scope = RowScope(pit="table__pit", owner="dealer_id")  # as a finding's; the dealer is an id

    day = models.DateField(_("day"), help_text=_("The calendar day in the casino's time zone."))
    shift_date = models.DateField(
        _("shift of"), help_text=_("The day the shift began (a night shift runs past midnight).")
    )
    shift = models.PositiveSmallIntegerField(_("shift"), help_text=_("The shift's place in CASINO_SHIFTS (0, 1, …)."))
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table"), db_index=False
    )
    # A plain id, 0 for none (a shoe's finding may have no dealer): a key column may not be NULL, or
    # ON CONFLICT would never match it.
    dealer_id = models.BigIntegerField(_("dealer"), default=0)
    variant = models.CharField(_("variant"), max_length=20)
    rounds = models.BigIntegerField(_("rounds audited"), default=0)
    clean = models.BigIntegerField(_("clean"), default=0)
    with_findings = models.BigIntegerField(_("with findings"), default=0)
    errors = models.BigIntegerField(_("errors"), default=0)
    initial_wagers = models.DecimalField(_("handle (initial wagers)"), max_digits=18, decimal_places=2, default=0)
    total_wagered = models.DecimalField(_("handle (total wagered)"), max_digits=18, decimal_places=2, default=0)
    win_logged = models.DecimalField(
        _("win as logged"),
        max_digits=18,
        decimal_places=2,
        default=0,
        help_text=_("Σ take − Σ pay as the dealer logged it."),
    )
    win_owed = models.DecimalField(
        _("win as owed"), max_digits=18, decimal_places=2, default=0, help_text=_("Σ take − Σ pay as the rules owed.")
    )
    initial_wagers_sq = models.DecimalField(
        _("Σ initial wagers squared"),
        max_digits=30,
        decimal_places=4,
        default=0,
        help_text=_("Σ over the rounds of each round's initial wagers, squared."),
    )

    class Meta:
        verbose_name = _("rollup")
        verbose_name_plural = _("rollups")
        constraints = [
            models.UniqueConstraint(
                fields=["day", "shift_date", "shift", "table", "dealer_id", "variant"], name="rollup_key"
            )
        ]
        indexes = [
            models.Index(fields=["table", "day"], name="rollup_table_day"),
            models.Index(fields=["dealer_id", "day"], name="rollup_dealer_day"),
        ]

    def __str__(self) -> str:
        return f"{self.day} #{self.shift} {self.table_id}/{self.dealer_id}/{self.variant}"


class RollupFinding(models.Model):
    """The findings of one rollup key with one code, severity and review (status, classification), of
    rounds (`of_shoe` false) or of shoes: how many, and the money they moved (player delta > 0: over,
    < 0: under). Written only by audit/rollups.py."""

    row_scope = RowScope(pit="table__pit", owner="dealer_id")  # as a finding's; the dealer is an id

    day = models.DateField(_("day"))
    shift_date = models.DateField(_("shift of"))
    shift = models.PositiveSmallIntegerField(_("shift"))
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table"), db_index=False
    )
    dealer_id = models.BigIntegerField(_("dealer"), default=0)
    variant = models.CharField(_("variant"), max_length=20)
    of_shoe = models.BooleanField(_("of a shoe"), default=False)
    code = models.CharField(_("code"), max_length=32)
    severity = models.CharField(_("severity"), max_length=10, choices=Severity.choices)
    status = models.CharField(_("status"), max_length=12, choices=FindingStatus.choices)
    classification = models.CharField(_("classification"), max_length=20, blank=True)
    n = models.BigIntegerField(_("findings"), default=0)
    over = models.DecimalField(_("overpaid"), max_digits=18, decimal_places=2, default=0)
    under = models.DecimalField(_("underpaid"), max_digits=18, decimal_places=2, default=0)

    class Meta:
        verbose_name = _("findings rollup")
        verbose_name_plural = _("findings rollups")
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "day",
                    "shift_date",
                    "shift",
                    "table",
                    "dealer_id",
                    "variant",
                    "of_shoe",
                    "code",
                    "severity",
                    "status",
                    "classification",
                ],
                name="rollup_finding_key",
            )
        ]
        indexes = [
            models.Index(fields=["table", "day"], name="rollup_finding_table_day"),
            models.Index(fields=["dealer_id", "day"], name="rollup_finding_dealer_day"),
        ]

    def __str__(self) -> str:
        return f"{self.day} #{self.shift} {self.table_id}/{self.dealer_id} {self.code}×{self.n}"


class PendingRollup(models.Model):
    """The rounds in force of one (day, table, dealer) whose audit is pending: a counter kept in the
    transaction that writes or clears each pending audit row (audit/state.py when a round is written,
    audit/rollups.py `changes` when it is audited or a correction enters force), so the dashboard and
    /metrics read these few rows instead of the pending audit rows themselves."""

    row_scope = RowScope(pit="table__pit", owner="dealer_id")  # as a rollup's

    day = models.DateField(_("day"), help_text=_("The calendar day in the casino's time zone."))
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table"), db_index=False
    )
    dealer_id = models.BigIntegerField(_("dealer"), default=0)
    rounds = models.BigIntegerField(_("rounds waiting for audit"), default=0)

    class Meta:
        verbose_name = _("rounds waiting for audit")
        verbose_name_plural = _("rounds waiting for audit")
        constraints = [models.UniqueConstraint(fields=["table", "day", "dealer_id"], name="pending_rollup_key")]

    def __str__(self) -> str:
        return f"{self.day} {self.table_id}/{self.dealer_id}: {self.rounds}"
