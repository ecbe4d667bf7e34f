"""Reads of the record's chains: the rows a checkpoint hashes (rounds, stakes, approvals, in link
order), one round's link and checkpoint as its page shows them, and the chains' state for the
audit dashboard — from the signed checkpoint log first (dealing/checkpoint_log.py)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from casino import selectors as floor_selectors
from casino.models import Table

from . import chain, checkpoint_log, witness_mirror
from .models import Approval, ChainCheck, Round, Stake


class _Row:
    """A stored row as the chain reads it: its values by attribute name, as on the model."""

    __slots__ = ()

    def __init__(self, values):
        for name, value in zip(self.__slots__, values):
            setattr(self, name, value)


class _ChainRow(_Row):
    __slots__ = (
        "pk",
        "table_id",
        "chain_index",
        "uid",
        "revision",
        "supersedes_id",
        "supersedes_sha256",
        "amendment_reason",
        "shoe_id",
        "position",
        "number",
        "dealer_id",
        "logged_by_id",
        "logged_at",
        "played_at",
        "variant",
        "house_rules",
        "table_min",
        "table_max",
        "float_owed",
        "float_logged",
        "document",
        "chain_key",
        "stakes_hmac",
        "prev_sha256",
        "sha256",
        "table_round",
        "supersedes_table_round",
    )


# The query's names for `_ChainRow`'s slots: the superseded record's link and number come through the relation.
_CHAIN_ROUND_VALUES = tuple(
    {"supersedes_sha256": "supersedes__sha256", "supersedes_table_round": "supersedes__table_round"}.get(name, name)
    for name in _ChainRow.__slots__
)


def chain_round_rows(*, table_id: int, chunk: int = 2000, start: int = 0, stop: int | None = None):
    """A table's round records in chain order, streamed (a server-side cursor on PostgreSQL)."""
    rows = Round.objects.filter(table_id=table_id, chain_index__gte=start)
    if stop is not None:
        rows = rows.filter(chain_index__lt=stop)
    values = rows.order_by("chain_index").values_list(*_CHAIN_ROUND_VALUES).iterator(chunk_size=chunk)
    return (_ChainRow(v) for v in values)


def chain_stake_rows(*, table_id: int, chunk: int = 8000, start: int = 0, stop: int | None = None):
    """A table's stake rows in the chain order of their rounds, streamed: (link, *chain.STAKE_FIELDS)."""
    rows = Stake.objects.filter(round__table_id=table_id, round__chain_index__gte=start)
    if stop is not None:
        rows = rows.filter(round__chain_index__lt=stop)
    return (
        rows.order_by("round__chain_index")
        .values_list("round__chain_index", *chain.STAKE_FIELDS)
        .iterator(chunk_size=chunk)
    )


class _ApprovalRow(_Row):
    __slots__ = (
        "pk",
        "link",
        "incident_id",
        "round_id",
        "round_sha256",
        "decided_by_id",
        "decision",
        "comment",
        "decided_at",
        "chain_key",
        "prev_hmac",
        "hmac",
        "round_supersedes_id",
        "supersession_id",
        "supersession_superseded_id",
        "supersession_superseding_id",
        "supersession_at",
    )


# The query's names for `_ApprovalRow`'s slots: the decided round's link and what it corrects, and the
# approval's Supersession (if any), come through the relations.
_APPROVAL_VALUES = tuple(
    {
        "round_sha256": "round__sha256",
        "round_supersedes_id": "round__supersedes_id",
        "supersession_id": "supersession__id",
        "supersession_superseded_id": "supersession__superseded_id",
        "supersession_superseding_id": "supersession__superseding_id",
        "supersession_at": "supersession__at",
    }.get(name, name)
    for name in _ApprovalRow.__slots__
)


def chain_approval_rows(*, chunk: int = 2000, start: int = 0, stop: int | None = None):
    """Every approval in chain order (or those of links start…stop-1), with the link of the round it
    decides and its supersession, streamed. A supersession names its approval (one each), so this
    walk sees every one of them."""
    rows = Approval.objects.filter(link__gte=start) if start else Approval.objects.all()
    if stop is not None:
        rows = rows.filter(link__lt=stop)
    values = rows.order_by("link").values_list(*_APPROVAL_VALUES).iterator(chunk_size=chunk)
    return (_ApprovalRow(v) for v in values)


@dataclass
class RoundChainStatus:
    """What the round page says about a round's link: whether it verifies (recomputed, with its stake
    rows, against its neighbours' links) and whether the latest checkpoint does (its signature and the
    head it signed for the table)."""

    link_ok: bool
    link_problem: str = ""
    checkpoint_ok: bool | None = None  # None: no checkpoint covers the table yet
    checkpoint_problem: str = ""
    checkpoint_at: datetime | None = None
    checkpoint_seq: int | None = None
    covered: bool = False  # the round is at or before the head the checkpoint signed


def round_chain_status(*, round: Round) -> RoundChainStatus:  # noqa: A002
    """The cheap check of one round: its link recomputed, its place between its neighbours, and the
    latest checkpoint of its table (the whole chains are `chain_verify`'s)."""
    row = next(chain_round_rows(table_id=round.table_id, start=round.chain_index, stop=round.chain_index + 1), None)
    status = RoundChainStatus(link_ok=True)
    if row is None or row.pk != round.pk:
        return RoundChainStatus(link_ok=False, link_problem=str(_("The round is no longer at its link.")))
    stakes = [s[1:] for s in chain_stake_rows(table_id=round.table_id, start=row.chain_index, stop=row.chain_index + 1)]
    try:
        latest, problem = checkpoint_log.latest()
    except checkpoint_log.CheckpointError as exc:
        latest, problem = None, str(exc)
    head = None if problem else (latest or {}).get("heads", {}).get(str(round.table_id))
    head_index = None if head is None else int(head["count"]) - 1
    # The neighbours' links and the link the checkpoint signed as the table's head, in one query.
    links = {
        index: (sha256, prev)
        for index, sha256, prev in Round.objects.filter(
            table_id=round.table_id,
            chain_index__in=[i for i in (row.chain_index - 1, row.chain_index + 1, head_index) if i is not None],
        ).values_list("chain_index", "sha256", "prev_sha256")
    }
    before = links.get(row.chain_index - 1, ("", ""))[0]
    next_prev = links.get(row.chain_index + 1, (None, None))[1]
    try:
        key = chain.key_for(row.chain_key)
    except chain.UnknownKey:
        status.link_ok, status.link_problem = False, str(_("Its key is not a configured chain key."))
        key = None
    if key is not None:
        wrong = chain.round_mismatch(row, stakes, key)
        if wrong == chain.ROUNDS:
            status.link_ok, status.link_problem = False, str(_("Its contents do not match its link."))
        elif wrong == chain.STAKES:
            status.link_ok, status.link_problem = False, str(_("Its stake rows do not match its link."))
        elif row.prev_sha256 != before:
            status.link_ok, status.link_problem = False, str(_("The link before it does not match."))
        elif next_prev is not None and next_prev != row.sha256:
            status.link_ok, status.link_problem = False, str(_("The link after it does not match."))
    if problem:
        status.checkpoint_ok, status.checkpoint_problem = False, problem
        return status
    if head is None:
        return status
    status.checkpoint_at, status.checkpoint_seq = datetime.fromisoformat(latest["at"]), latest["seq"]
    status.covered = row.chain_index <= head_index
    status.checkpoint_ok = links.get(head_index, (None, None))[0] == head["head"]
    if not status.checkpoint_ok:
        status.checkpoint_problem = str(
            _("The table's stored link %(link)d is not the head the checkpoint signed.") % {"link": head_index}
        )
    return status


def chain_health() -> dict:
    """The chains' state for the audit dashboard, with what is critical — taken from the signed
    checkpoint log first, which nobody can rewrite without the signing key: the breaks the latest
    signed line records (new links checked at each checkpoint, and the latest full verification,
    carried from line to line), a log that does not verify, a log that ends before the checkpoints
    the database saw written, no checkpoint signed for longer than CHECKPOINT_GRACE_S (with a key
    configured). Then the ChainCheck rows — the latest verification and checkpoint attempt — which
    can only add to it: deleting a failed row or inserting a passing one hides nothing signed. And a
    checkpoint directory that cannot be written now (the same check as /readyz's)."""
    verification = ChainCheck.objects.filter(kind=ChainCheck.Kind.VERIFICATION).order_by("-at", "-id").first()
    checkpoint = ChainCheck.objects.filter(kind=ChainCheck.Kind.CHECKPOINT).order_by("-at", "-id").first()
    latest_ok = (
        checkpoint
        if checkpoint is None or checkpoint.ok
        else ChainCheck.objects.filter(kind=ChainCheck.Kind.CHECKPOINT, ok=True).order_by("-at", "-id").first()
    )
    critical = []
    if verification is not None and not verification.ok:
        critical.append(
            {
                "what": "verification",
                "at": verification.at,
                "message": verification.message,
                "breaks": verification.breaks,
            }
        )
    if checkpoint is not None and not checkpoint.ok:
        critical.append({"what": "checkpoint", "at": checkpoint.at, "message": checkpoint.message, "breaks": []})
    try:
        signed, problem = checkpoint_log.latest()
    except checkpoint_log.CheckpointError as exc:
        signed, problem = None, str(exc)
    last_written = None
    if problem is not None:
        critical.append({"what": "log", "at": None, "message": problem, "breaks": []})
    if signed is not None:
        at = datetime.fromisoformat(signed["at"])
        last_written = {"seq": signed["seq"], "at": at}
        verified = signed.get("verified") or {}
        for part in ("new", "full"):
            outcome = verified.get(part) or {}
            if outcome and not outcome.get("ok", True):
                breaks = outcome.get("breaks") or []
                critical.append({"what": "signed", "at": at, "message": "; ".join(breaks), "breaks": breaks})
        if checkpoint_log.expected() and at < timezone.now() - timedelta(seconds=settings.CHECKPOINT_GRACE_S):
            critical.append({"what": "stale", "at": at, "message": "", "breaks": []})
    if latest_ok is not None and problem is None and (signed is None or int(signed["seq"]) < (latest_ok.seq or 0)):
        critical.append(
            {
                "what": "cut",
                "at": latest_ok.at,
                "message": f"checkpoint {latest_ok.seq} was written, the log ends "
                + ("with no line" if signed is None else f"at checkpoint {signed['seq']}"),
                "breaks": [],
            }
        )
    # Checked now, not at the next attempt: a directory lost or made read-only is seen before a
    # checkpoint is missed (the same check as /readyz's).
    directory = floor_selectors.checkpoint_dir_health()
    if not directory["ok"]:
        critical.append({"what": "checkpoint_dir", "at": None, "message": directory["error"], "breaks": []})
    witness = witness_mirror.health(None if signed is None else int(signed["seq"]))
    if witness is not None and witness["refused"]:
        # The witness holds a newer or another checkpoint than the local log offers it: the log was
        # cut, rolled back or rewritten (verify_chain names what is missing).
        critical.append({"what": "witness_refused", "at": None, "message": witness["refused"], "breaks": []})
    return {
        "verification": verification,
        "checkpoint": checkpoint,
        "last_written": last_written,
        "critical": critical,
        "witness": witness,
    }


# Each round whose number (`table_round`) is not the one its place in the chain gives: a new round
# one more than the table's new rounds before it, a correction its original's. One statement over
# every table (an index-ordered window per table), the first wrong round of each table.
_TABLE_ROUND_WRONG = f"""
SELECT DISTINCT ON (x.table_id) x.table_id, t.name, x.chain_index, x.id, x.table_round, x.expected
FROM (
    SELECT r.id, r.table_id, r.chain_index, r.table_round,
           CASE WHEN r.supersedes_id IS NULL
                THEN SUM(CASE WHEN r.supersedes_id IS NULL THEN 1 ELSE 0 END)
                     OVER (PARTITION BY r.table_id ORDER BY r.chain_index)
                ELSE s.table_round END AS expected
    FROM {Round._meta.db_table} r LEFT JOIN {Round._meta.db_table} s ON s.id = r.supersedes_id
) x JOIN {Table._meta.db_table} t ON t.id = x.table_id
WHERE x.table_round IS NULL OR x.expected IS NULL OR x.table_round <> x.expected
ORDER BY x.table_id, x.chain_index
"""


def table_round_wrong() -> list[tuple]:
    """(table id, table name, link, row id, stored number, the number its place gives) of the first
    misnumbered round of each table (PostgreSQL; elsewhere the walks check it link by link)."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(_TABLE_ROUND_WRONG)
        return cursor.fetchall()
