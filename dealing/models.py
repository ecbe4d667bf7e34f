"""Dealing: shoes and what happens between rounds, the rounds themselves, their stakes, incidents
and pit-boss approvals.

A round record is immutable: its `document` (the `round/1` log, canonical) and the fields the chain
covers are written once by `dealing.services` and never updated. A correction is a new revision
(`supersedes` the old record) that a pit boss approves. Every record of a table is a link of a
keyed chain (dealing/chain.py, docs/chain.md): `sha256` is the HMAC of the record and its stake
rows, `prev_sha256` the previous record's link on that table; approvals are chained too. So an
edit made behind the application's back shows up in `manage.py verify_chain`.

Append-only: a round and its stakes are never updated. What happens to a round later is an
appended fact beside it: its audit verdict (`RoundAudit`, written only by audit/state.py), a pit
boss's decision on a correction (`Approval`) and, when he approves, a `Supersession`. A round's
`status` and `audit_status` are derived from those facts (`RoundQuerySet` annotates them on every
query of `Round.objects`; `in_force_q`, `status_q`, `audit_status_q` filter by them).
"""

import functools
import uuid

from django.conf import settings
from django.db import connection, models
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.choices import Variant
from casino.db import values_from_row
from casino.models import MONEY, Table
from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from casino.scope import RowScope, Who

from .choices import (
    AuditStatus,
    BurnReason,
    Decision,
    IncidentKind,
    IncidentStatus,
    Resolution,
    RoundStatus,
    ShoeEventKind,
)

# Imported from here by the apps and migrations that filter rounds by status.
from .round_status import audit_status_q, in_force_q, status_expression, status_q  # noqa: F401

USER = settings.AUTH_USER_MODEL


class Shoe(models.Model):
    """One loading of a table's shoe, from the shuffle to the cut (or its end)."""

    # Dealers, inspectors and pit bosses see their pits' shoes (casino/scope.py).
    row_scope = RowScope(pit="table__pit", view=Who(pits=(PIT_BOSS, INSPECTOR, DEALER), own=()))

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes", verbose_name=_("table"))
    number = models.PositiveIntegerField(_("number"), help_text=_("1, 2, … on this table."))
    decks = models.PositiveSmallIntegerField(_("packs"))
    loaded_at = models.DateTimeField(_("loaded at"), default=timezone.now)
    shuffled_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="shuffled_shoes", verbose_name=_("shuffled by")
    )
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # Rounds and shoe events share one sequence per shoe, so their order is never ambiguous.
    next_position = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["table__name", "-number"]
        verbose_name = _("shoe")
        verbose_name_plural = _("shoes")
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="shoe_number_per_table")]

    def __str__(self) -> str:
        return f"{self.table.name} / {self.number}"

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


class ShoeEvent(models.Model):
    """What happens to a shoe between rounds: a shuffle, a burn (with its reason and fee), a dealer change."""

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="events", verbose_name=_("shoe"))
    position = models.PositiveIntegerField(_("position"))
    kind = models.CharField(_("kind"), max_length=20, choices=ShoeEventKind.choices)
    card = models.CharField(_("card"), max_length=3, blank=True)
    reason = models.CharField(_("reason"), max_length=20, choices=BurnReason.choices, blank=True)
    fee = models.DecimalField(_("fee"), null=True, blank=True, **MONEY)
    dealer = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("new dealer")
    )
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    class Meta:
        ordering = ["shoe", "position"]
        verbose_name = _("shoe event")
        verbose_name_plural = _("shoe events")
        constraints = [models.UniqueConstraint(fields=["shoe", "position"], name="shoe_event_position")]

    def __str__(self) -> str:
        return f"{self.shoe} #{self.position} {self.kind}"


class RoundQuerySet(models.QuerySet):
    """Every query of `Round.objects` carries the derived `status`, `audit_status`, `audited_at` and
    `engine_version` (subqueries: a `values()` or `count()` that does not name them leaves them out)."""

    def in_force(self):
        return self.filter(in_force_q())


class RoundManager(models.Manager.from_queryset(RoundQuerySet)):
    # Resolving the four annotations costs about a millisecond of CPU, on every `Round.objects` query
    # (a logged round makes several): they are resolved once per model and each query starts from a
    # copy of that SQL query, the same copy `annotate` would hand on.
    _annotated: dict = {}

    def get_queryset(self):
        query = self._annotated.get(self.model)
        if query is None:
            audit = RoundAudit.objects.filter(round=OuterRef("pk"))
            query = (
                super()
                .get_queryset()
                .annotate(
                    status=status_expression(),
                    audit_status=Coalesce(Subquery(audit.values("status")[:1]), Value(AuditStatus.PENDING.value)),
                    audited_at=Subquery(audit.values("audited_at")[:1]),
                    engine_version=Coalesce(Subquery(audit.values("engine_version")[:1]), Value("")),
                )
                .query
            )
            self._annotated[self.model] = query
        return self._queryset_class(model=self.model, query=query.chain(), using=self._db, hints=self._hints)


def _derived(name: str, compute):
    """A derived attribute of a round: the query's annotation when it was read with one, else
    computed (and kept) on first use; settable, as the services do after appending a fact."""
    attr = f"_{name}"

    def get(self):
        if attr not in self.__dict__:
            self.__dict__[attr] = compute(self)
        return self.__dict__[attr]

    def set(self, value):
        self.__dict__[attr] = value

    return property(get, set)


def _compute_status(record) -> str:
    if record.pk is None:
        return RoundStatus.PENDING if record.supersedes_id else RoundStatus.RECORDED
    return Round.objects.filter(pk=record.pk).values_list("status", flat=True).first() or RoundStatus.RECORDED


_AUDIT_DEFAULTS = (AuditStatus.PENDING.value, None, "")
_AUDIT_FIELDS = ("status", "audited_at", "engine_version")


@functools.cache
def _audit_select() -> tuple[list, str]:
    """The audit values' fields and their one-row SELECT, made once."""
    fields = [RoundAudit._meta.get_field(name) for name in _AUDIT_FIELDS]
    sql = f"SELECT {', '.join(f.column for f in fields)} FROM {RoundAudit._meta.db_table} WHERE round_id = %s"
    return fields, sql


def _audit_row(pk: int) -> list | None:
    """A round's audit values, in SQL of its own: every round the API logs answers with them, and
    the ORM's building of this one-row query cost more CPU than the rest of the answer."""
    fields, sql = _audit_select()
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    return None if row is None else values_from_row(fields, row)


def _compute_audit(index: int):
    """One of a round's audit values read from its RoundAudit row (one query for the three: the
    others are kept unless already set)."""

    def compute(record):
        row = None if record.pk is None else _audit_row(record.pk)
        row = row or _AUDIT_DEFAULTS
        for k, name in enumerate(("_audit_status", "_audited_at", "_engine_version")):
            record.__dict__.setdefault(name, row[k])
        return row[index]

    return compute


class Round(models.Model):
    """One round as logged: the `round/1` document and what is queried about it."""

    # Pit bosses and inspectors see their pits' rounds, a dealer those he dealt (casino/scope.py).
    row_scope = RowScope(pit="table__pit", owner="dealer")

    objects = RoundManager()

    uid = models.UUIDField(
        _("round id"),
        default=uuid.uuid4,
        help_text=_("The document's id: sending the same round twice stores it once."),
    )
    # No single-column indexes on table, shoe and dealer: the composite indexes below start with
    # them and serve the same lookups, and every index is one more write for each logged round.
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="rounds", verbose_name=_("table"), db_index=False
    )
    shoe = models.ForeignKey(
        Shoe,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rounds",
        verbose_name=_("shoe"),
        db_index=False,
    )
    position = models.PositiveIntegerField(_("position in the shoe"), null=True, blank=True)
    number = models.PositiveIntegerField(_("round of the shoe"), null=True, blank=True)
    # The round's number at its table: 1, 2, 3, … in the order its rounds were first logged (a
    # correction keeps the number of the round it corrects). The one number a round is shown by.
    table_round = models.PositiveIntegerField(
        _("round"), null=True, blank=True, help_text=_("1, 2, … on this table; a correction keeps it.")
    )
    dealer = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="dealt_rounds", verbose_name=_("dealer"), db_index=False
    )
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    house_rules = models.JSONField(_("house rules in force"), default=dict)
    table_min = models.DecimalField(_("table minimum"), **MONEY)
    table_max = models.DecimalField(_("table maximum"), **MONEY)
    document = models.JSONField(_("round log"))
    # The chain.
    chain_index = models.PositiveIntegerField(_("link"), help_text=_("0, 1, 2, … on this table."))
    # Unique by a constraint, not `unique=True`: on PostgreSQL that would add a second index for
    # LIKE searches, which nothing makes, and each index is one more write per round logged.
    sha256 = models.CharField(_("hash"), max_length=64)
    prev_sha256 = models.CharField(_("previous hash"), max_length=64, blank=True)
    # The id of the key the link was computed with (CHAIN_KEY_ID, or one of CHAIN_KEYS_OLD), and
    # the HMAC of the round's stake rows, which the link covers.
    chain_key = models.CharField(_("chain key"), max_length=20, blank=True)
    stakes_hmac = models.CharField(_("stakes hash"), max_length=64, blank=True)
    revision = models.PositiveSmallIntegerField(_("revision"), default=1)
    # Indexed only where set (`round_amendments`): few rounds are corrections, and a full index
    # would take one more write for every round logged.
    supersedes = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="amendments",
        verbose_name=_("corrects"),
        db_index=False,
    )
    amendment_reason = models.TextField(_("reason for the correction"), blank=True)
    logged_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="logged_rounds", verbose_name=_("logged by")
    )
    logged_at = models.DateTimeField(_("logged at"), default=timezone.now)
    # When the round was dealt (the document's `played_at`; else when it was logged): what periods,
    # rollups, pace and reports count it by, and what lists order it by. A history imported or a
    # round entered late keeps its own time; `logged_at` says when the record was made.
    played_at = models.DateTimeField(_("played at"), default=timezone.now)
    # The engine's figures when the round was logged (the audit recomputes them).
    float_owed = models.DecimalField(
        _("float owed"), null=True, blank=True, **MONEY, help_text=_("Σ take − Σ pay as the rules owed.")
    )
    float_logged = models.DecimalField(
        _("float logged"), null=True, blank=True, **MONEY, help_text=_("Σ take − Σ pay as the dealer logged it.")
    )

    class Meta:
        ordering = ["-played_at", "-id"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["table", "chain_index"], name="round_chain_link"),
            models.UniqueConstraint(fields=["uid", "revision"], name="round_uid_revision"),
            models.UniqueConstraint(fields=["sha256"], name="round_sha256"),
        ]
        indexes = [
            # The rounds list reads newest first by (played_at, id), all of them or of a table or a
            # dealer, and a period reads a range of played_at: each has its index ending with both,
            # so a page needs no sort of every round.
            models.Index(fields=["played_at", "id"], name="round_played"),
            models.Index(fields=["table", "played_at", "id"], name="round_table_played_id"),
            models.Index(fields=["dealer", "played_at", "id"], name="round_dealer_played_id"),
            models.Index(fields=["shoe", "position"], name="round_shoe_position"),
            models.Index(fields=["supersedes"], name="round_amendments", condition=Q(supersedes__isnull=False)),
            # A dealer's game pace (books/performance/selectors.py): his first revisions, by table then
            # time, with the shoe — what the pace's window reads, in its order, from the index alone.
            # The shoe is a key column, not INCLUDEd: SQLite has no INCLUDE (and after the unique id it
            # changes no order).
            models.Index(
                fields=["dealer", "table", "played_at", "id", "shoe"],
                name="round_dealer_pace",
                condition=Q(supersedes__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        rev = f" r{self.revision}" if self.revision > 1 else ""
        return f"{self.table.name} round {self.table_round}{rev}"

    # Derived from the facts appended beside the round (never stored on it).
    status = _derived("status", _compute_status)
    audit_status = _derived("audit_status", _compute_audit(0))
    audited_at = _derived("audited_at", _compute_audit(1))
    engine_version = _derived("engine_version", _compute_audit(2))

    def refresh_from_db(self, using=None, fields=None, from_queryset=None):
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)
        for name in ("_status", "_audit_status", "_audited_at", "_engine_version"):
            self.__dict__.pop(name, None)  # derived anew from the facts on the next read

    def get_status_display(self) -> str:
        return RoundStatus(self.status).label

    def get_audit_status_display(self) -> str:
        return AuditStatus(self.audit_status or AuditStatus.PENDING).label

    @property
    def in_force(self) -> bool:
        return self.status == RoundStatus.RECORDED


class Stake(models.Model):
    """One stake of a round, for querying: who played which box for how much, owed and paid."""

    row_scope = RowScope(pit="round__table__pit", owner="round__dealer")  # as its round's

    # Indexed by the unique (round, stake_id) constraint, which starts with it.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="stakes", verbose_name=_("round"), db_index=False
    )
    stake_id = models.CharField(_("stake"), max_length=40)
    box = models.PositiveSmallIntegerField(_("box or seat"), null=True)
    player = models.CharField(_("player"), max_length=80)
    ante = models.DecimalField(_("Ante"), null=True, blank=True, **MONEY)
    bet = models.DecimalField(_("Bet"), null=True, blank=True, **MONEY)
    dealer_bet = models.DecimalField(_("dealer bet"), null=True, blank=True, **MONEY)
    owed_net = models.DecimalField(
        _("owed to the player"),
        null=True,
        blank=True,
        **MONEY,
        help_text=_("Σ pay − Σ take as the rules owed (the player's side)."),
    )
    paid_net = models.DecimalField(
        _("paid to the player"), null=True, blank=True, **MONEY, help_text=_("Σ pay − Σ take as the dealer logged it.")
    )

    class Meta:
        ordering = ["round", "box", "stake_id"]
        verbose_name = _("stake")
        verbose_name_plural = _("stakes")
        constraints = [models.UniqueConstraint(fields=["round", "stake_id"], name="stake_id_per_round")]

    def __str__(self) -> str:
        return f"{self.round} {self.stake_id}"


class RoundAudit(models.Model):
    """The audit's verdict on a round, beside it: written only by audit (audit/state.py) — a pending
    row in the transaction that logs the round, the verdict as an upsert when it is audited. No row
    (a round loaded behind the services' back) reads as pending too. Each verdict is a link of the
    verdicts' chain (dealing/services/record_links.py; a pending row needs none), so a verdict
    changed or deleted behind the application's back is a break, not only a re-audit's surprise."""

    row_scope = RowScope(pit="round__table__pit", owner="round__dealer")  # as its round's

    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="audit", verbose_name=_("round")
    )
    status = models.CharField(_("audit"), max_length=20, choices=AuditStatus.choices, default=AuditStatus.PENDING)
    audited_at = models.DateTimeField(_("audited at"), null=True, blank=True)
    engine_version = models.CharField(_("engine version"), max_length=20, blank=True)

    class Meta:
        verbose_name = _("round audit")
        verbose_name_plural = _("round audits")
        indexes = [
            # The rounds still to audit (the sweep, the nightly run, the dashboard's pending count):
            # a few rows at any time, however many rounds are stored.
            models.Index(fields=["round"], name="round_audit_pending", condition=Q(status=AuditStatus.PENDING)),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}: {self.status}"


class HaltOverride(models.Model):
    """A pit boss's word on a halt at the table terminal (dealing/services/terminal.py): the entry the
    terminal halted at (a wrong payment) was kept because he said so, with his credentials typed at
    that terminal and a reason. Written once, with its round; the finding stays the round's."""

    row_scope = RowScope(pit="round__table__pit", owner="round__dealer")  # as its round's

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="halt_overrides", verbose_name=_("round"))
    event = models.PositiveIntegerField(
        _("entry"), help_text=_("The number of the entry in the round's log (0, 1, …).")
    )
    codes = models.CharField(_("findings"), max_length=200)
    overridden_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("pit boss"))
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("halt overridden")
        verbose_name_plural = _("halts overridden")
        ordering = ["round", "event"]
        constraints = [models.UniqueConstraint(fields=["round", "event"], name="halt_override_once")]

    def __str__(self) -> str:
        return f"{self.round_id} #{self.event}: {self.codes}"


class Supersession(models.Model):
    """An approved correction in force: `superseding` replaces `superseded`, by `approval`. Appended
    with the approval, never changed; `verify_chain` checks each one against its approval and the
    rounds' links (dealing/chain.py `supersession_mismatch`)."""

    superseded = models.OneToOneField(
        Round, on_delete=models.PROTECT, related_name="superseded_by", verbose_name=_("superseded round")
    )
    superseding = models.OneToOneField(
        Round, on_delete=models.PROTECT, related_name="supersession", verbose_name=_("correction in force")
    )
    approval = models.OneToOneField(
        "Approval", on_delete=models.PROTECT, related_name="supersession", verbose_name=_("approval")
    )
    at = models.DateTimeField(_("at"))

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("supersession")
        verbose_name_plural = _("supersessions")

    def __str__(self) -> str:
        return f"{self.superseded_id} -> {self.superseding_id}"


class Incident(models.Model):
    """An exposed dealer card or a card drawn by mistake, reported by an inspector or pit boss."""

    row_scope = RowScope(pit="table__pit", owner="dealer")  # as a round's (casino/scope.py)

    kind = models.CharField(_("kind"), max_length=30, choices=IncidentKind.choices)
    card = models.CharField(_("card"), max_length=3)
    exposed = models.BooleanField(_("exposed"), default=True)
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="incidents", verbose_name=_("table"))
    shoe = models.ForeignKey(
        Shoe, on_delete=models.PROTECT, null=True, blank=True, related_name="incidents", verbose_name=_("shoe")
    )
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, null=True, blank=True, related_name="incidents", verbose_name=_("round")
    )
    dealer = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="incidents_dealt", verbose_name=_("dealer"))
    reported_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="incidents_reported", verbose_name=_("reported by")
    )
    reported_at = models.DateTimeField(_("reported at"), default=timezone.now)
    status = models.CharField(
        _("status"), max_length=20, choices=IncidentStatus.choices, default=IncidentStatus.REPORTED
    )
    resolution = models.CharField(_("resolution"), max_length=20, choices=Resolution.choices)
    to_box = models.PositiveSmallIntegerField(_("placed on box"), null=True, blank=True)
    evidence = models.CharField(
        _("evidence"), max_length=120, blank=True, help_text=_("A reference such as a surveillance clip id.")
    )
    note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["-reported_at", "-id"]
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")
        constraints = [
            models.CheckConstraint(
                condition=Q(resolution="to_box", to_box__isnull=False)
                | (~Q(resolution="to_box") & Q(to_box__isnull=True)),
                name="incident_box_only_when_placed",
            ),
        ]
        indexes = [models.Index(fields=["status", "reported_at"], name="incident_status_time")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.card} ({self.table.name})"


class Approval(models.Model):
    """A pit boss's decision on an incident or on a round's amendment, with his comment."""

    incident = models.ForeignKey(
        Incident, on_delete=models.PROTECT, null=True, blank=True, related_name="approvals", verbose_name=_("incident")
    )
    round = models.ForeignKey(
        Round,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="approvals",
        verbose_name=_("amended round"),
    )
    decided_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="approvals", verbose_name=_("decided by")
    )
    decision = models.CharField(_("decision"), max_length=20, choices=Decision.choices)
    comment = models.TextField(_("comment"), blank=True)
    decided_at = models.DateTimeField(_("decided at"), default=timezone.now)
    # The approvals' own keyed chain (dealing/chain.py): 0, 1, 2, … over every approval.
    link = models.PositiveIntegerField(_("link"))
    prev_hmac = models.CharField(_("previous hash"), max_length=64, blank=True)
    hmac = models.CharField(_("hash"), max_length=64)
    chain_key = models.CharField(_("chain key"), max_length=20)

    class Meta:
        ordering = ["-decided_at", "-id"]
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")
        constraints = [
            models.CheckConstraint(
                condition=Q(incident__isnull=False, round__isnull=True) | Q(incident__isnull=True, round__isnull=False),
                name="approval_of_one_thing",
            ),
            models.UniqueConstraint(fields=["link"], name="approval_chain_link"),
        ]

    def __str__(self) -> str:
        what = self.incident or self.round
        return f"{self.get_decision_display()}: {what}"


# The chains' own bookkeeping (dealing/chain_models.py) and the terminal's drafts (draft_models.py) are models of this app.
from .chain_models import ChainCheck, RecordLink  # noqa: E402, F401
from .draft_models import TerminalDraft  # noqa: E402, F401
from .incident_models import IncidentAttachment, IncidentReview  # noqa: E402, F401
