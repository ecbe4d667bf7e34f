"""Auditing stored rounds: the engine's findings and the audit status of each round.

A round's findings are brought to exactly what the engine reports now, matched by fingerprint —
a recurring finding keeps its row and its reviews, a finding no longer reported is deleted (its
reviews stay, detached), a new one is added (and picks up detached reviews with its fingerprint,
if it had been reported before). The shoe checks (shoes.py) use the same matching.
"""

import hashlib
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from casino.db import one_of
from dealing import engine
from dealing import services as dealing_services
from dealing.choices import AuditStatus
from dealing.models import Round, RoundAudit, in_force_q
from dealing.selectors import incident_approvers

from .. import hooks, rollups
from ..metrics import count_sweep_repairs
from ..models import Finding, Review
from ..signals import findings_written
from ..state import round_record_audit, rounds_record_audit

log = logging.getLogger(__name__)

MAX_ERROR_SAMPLES = 5


# Fields of a finding that a re-audit may change without it becoming another finding.
_MUTABLE = (
    "severity",
    "message",
    "params",
    "expected",
    "actual",
    "player_delta",
    "engine_version",
    "table_id",
    "dealer_id",
    "played_at",
    "shoe_id",
)


# --- fingerprints ---------------------------------------------------------------------------------


def fingerprints(findings) -> list[str]:
    """A stable identity for each engine finding of one round or shoe, in order.

    The same code at the same event, stake, hand and wager is the same finding; should one round
    report it twice, the occurrences are numbered.
    """
    seen: Counter = Counter()
    out = []
    for f in findings:
        key = "|".join("" if part is None else str(part) for part in (f.code, f.event, f.stake, f.hand, f.wager))
        seen[key] += 1
        out.append(hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest())
    return out


# --- auditing rounds ------------------------------------------------------------------------------


@dataclass
class AuditTotals:
    """What auditing some rounds found."""

    rounds: int = 0
    clean: int = 0
    with_findings: int = 0
    errors: int = 0
    findings_by_code: Counter = field(default_factory=Counter)
    error_samples: list = field(default_factory=list)
    statuses: dict = field(default_factory=dict)  # round id -> audit status

    @property
    def findings(self) -> int:
        return sum(self.findings_by_code.values())


def replay_findings(document, handles=None, pk=None, approvers=None):
    """(engine findings, None) or (None, the reason the engine could not read the round). `handles`
    gets the round's handle (initial wagers, total wagered) for the rollups; `approvers`: who may
    approve an incident at the round's table (dealing.selectors.incident_approvers)."""
    try:
        outcome = engine.replay(document, approvers=approvers)
        if handles is not None:
            handles[pk] = rollups.handle(document, outcome)
        return outcome.findings, None
    except engine.RoundError as exc:
        return None, exc.message
    except Exception as exc:  # an engine bug must not stop a run of a million rounds: record it
        log.exception("the engine failed on a stored round")
        return None, f"{type(exc).__name__}: {exc}"


def rounds_audit(*, round_ids, record=None) -> AuditTotals:
    """Replay stored rounds with the engine; write their findings and audit status. One transaction.

    The documents are read and replayed first (a stored round never changes); then the audit
    status is written — `record(status_to_ids, version)`, by default one upsert of the rounds'
    RoundAudit rows (audit/state.py; no round row is written) — which locks those rows, and only
    then are their findings read and replaced. So two audits of the same
    round (its own task and a run) never interleave, without a separate locking read.
    """
    totals = AuditTotals()
    version = engine.ENGINE_VERSION
    rows = list(
        Round.objects.filter(pk__in=one_of(round_ids))
        .order_by("pk")
        .values_list("pk", "document", "table_id", "dealer_id", "shoe_id", "played_at")
    )
    wanted: dict[tuple, Finding] = {}
    by_status: dict[str, list[int]] = {}
    handles: dict[int, tuple] = {}
    approvers = incident_approvers({row[2] for row in rows})
    for pk, document, table_id, dealer_id, shoe_id, played_at in rows:
        found, error = replay_findings(document, handles, pk, approvers.get(table_id, frozenset()))
        totals.rounds += 1
        if found is None:
            status = AuditStatus.ERROR
            totals.errors += 1
            if len(totals.error_samples) < MAX_ERROR_SAMPLES:
                totals.error_samples.append({"round": pk, "message": error})
        elif found:
            status = AuditStatus.FINDINGS
            totals.with_findings += 1
            for f, fp in zip(found, fingerprints(found)):
                totals.findings_by_code[f.code] += 1
                wanted[(pk, fp)] = finding_row(
                    f,
                    fp,
                    version,
                    round_id=pk,
                    shoe_id=shoe_id,
                    table_id=table_id,
                    dealer_id=dealer_id,
                    played_at=played_at,
                )
        else:
            status = AuditStatus.CLEAN
            totals.clean += 1
        by_status.setdefault(status, []).append(pk)
        totals.statuses[pk] = status
    with transaction.atomic(), rollups.changes(round_ids=[row[0] for row in rows], handles=handles):
        (record or record_verdicts)(by_status, version)
        # A round the engine cannot read keeps no findings: they would describe a log it no longer reads.
        findings_sync(Finding.objects.filter(round_id__in=one_of([row[0] for row in rows])), wanted, scope="round_id")
    return totals


def finding_row(f, fp: str, version: str, *, round_id, shoe_id, table_id, dealer_id, played_at) -> Finding:
    return Finding(
        round_id=round_id,
        shoe_id=shoe_id,
        table_id=table_id,
        dealer_id=dealer_id,
        played_at=played_at,
        code=f.code,
        severity=f.severity,
        event=f.event,
        stake=f.stake or "",
        hand=f.hand or "",
        wager=f.wager or "",
        expected=f.expected,
        actual=f.actual,
        player_delta=f.player_delta,
        message=f.message,
        params=f.params,
        engine_version=version,
        fingerprint=fp,
    )


def record_verdicts(by_status: dict[str, list[int]], version: str) -> None:
    """The audit status of many rounds at once, in one multi-row INSERT … ON CONFLICT DO UPDATE of
    their RoundAudit rows (a chunk's 500 rounds: one statement, whatever their verdicts): the bulk
    twin of audit.state.round_record_audit."""
    rounds_record_audit(by_status=by_status, engine_version=version)


def record_verdicts_one_by_one(by_status: dict[str, list[int]], version: str) -> None:
    for status, ids in by_status.items():
        for round_id in ids:
            round_record_audit(round_id=round_id, status=status, engine_version=version)


def findings_sync(existing, wanted: dict[tuple, Finding], *, scope: str) -> None:
    """Make the stored findings of some rounds (scope "round_id") or shoes ("shoe_id") exactly `wanted`,
    keyed by (scope id, fingerprint)."""
    current = {(row[scope], row["fingerprint"]): row for row in existing.values("pk", scope, "fingerprint", *_MUTABLE)}
    gone = [row["pk"] for key, row in current.items() if key not in wanted]
    changed = []
    for key, row in current.items():
        new = wanted.get(key)
        if new is not None and any(getattr(new, name) != row[name] for name in _MUTABLE):
            new.pk = row["pk"]
            changed.append(new)
    added = [f for key, f in wanted.items() if key not in current]
    if gone:
        # Reviews of a finding that is no longer reported stay, detached (Review.finding SET_NULL).
        Finding.objects.filter(pk__in=gone).delete()
    if changed:
        Finding.objects.bulk_update(changed, _MUTABLE_FIELDS)
    if added:
        Finding.objects.bulk_create(added)
        _reattach_reviews(added, scope=scope)
        if hooks.listening("findings_added"):
            facts = [(f.pk, f.severity, f.code, f.table_id, f.round_id, f.shoe_id, f.fingerprint) for f in added]
            hooks.announce("findings_added", findings=facts)
    # Each finding added, changed or dropped is a new link of the findings' chain (docs/chain.md).
    dealing_services.records_touched(Finding, gone + [f.pk for f in changed] + [f.pk for f in added])
    written = Counter(row["table_id"] for key, row in current.items() if key not in wanted)
    written.update(f.table_id for f in changed + added)
    written.pop(None, None)
    if written:
        # Bulk writes send no post_save: the live floor hears of the batch once, not of each finding.
        findings_written.send(sender=Finding, tables=dict(written))


_MUTABLE_FIELDS = [name.removesuffix("_id") for name in _MUTABLE]


def _reattach_reviews(added: list[Finding], *, scope: str) -> None:
    """A finding reported again after a re-audit had dropped it takes back its review history."""
    scope_ids = {getattr(f, scope) for f in added}
    detached = Review.objects.filter(finding__isnull=True, **{f"{scope}__in": scope_ids})
    if scope == "shoe_id":
        detached = detached.filter(round__isnull=True)
    detached = list(detached.order_by("at", "pk"))
    if not detached:
        return
    by_key = {(getattr(f, scope), f.fingerprint): f for f in added}
    for review in detached:
        finding = by_key.get((getattr(review, scope), review.fingerprint))
        if finding is None or finding.pk is None:
            continue
        Review.objects.filter(pk=review.pk).update(finding=finding)
        # Reviews come oldest first: the last one applied is the finding's current state.
        Finding.objects.filter(pk=finding.pk).update(
            status=review.status,
            classification=review.classification,
            reviewed_by=review.auditor_id,
            reviewed_at=review.at,
        )


def round_audit(*, round_id: int) -> str | None:
    """Audit one stored round (its own task, queued when it is logged). The round's audit status,
    or None when there is no such round."""
    totals = rounds_audit(round_ids=[round_id], record=record_verdicts_one_by_one)
    return totals.statuses.get(round_id)


def rounds_overdue_requeue(
    *, older_than: timedelta = timedelta(minutes=10), window: timedelta = timedelta(minutes=6), limit: int = 10_000
) -> int:
    """Queue again the audits of rounds in force that were logged between `older_than + window` and
    `older_than` ago and are still not audited: their message never left a web process that was
    killed, or was lost with the broker (audit/dispatch.py). Scheduled every 5 minutes, so such a
    round waits minutes, not until the nightly run; the window (a little longer than the schedule)
    makes one sweep or two look at each round, so workers busy with a backlog are not handed the
    same rounds again every 5 minutes — what a sweep misses, the nightly run audits. A round audited
    twice gets the same verdict. Returns how many were queued."""
    from ..dispatch import send_round_audits

    cutoff = timezone.now() - older_than
    ids = list(
        _pending_in_force()
        .filter(round__logged_at__lt=cutoff, round__logged_at__gte=cutoff - window)
        .order_by("round_id")
        .values_list("round_id", flat=True)[:limit]
    )
    send_round_audits(ids)
    if ids:
        log.warning("queued again the audits of %d rounds logged before %s and not audited yet", len(ids), cutoff)
    return len(ids)


def _pending_in_force():
    """The pending audit rows of rounds in force: read through the partial index of pending rows
    (`round_audit_pending`), a few rows however many rounds are stored — never an anti-join over
    every round."""
    return RoundAudit.objects.filter(in_force_q("round"), status=AuditStatus.PENDING)


# The key of the PostgreSQL advisory lock a sweep holds while it claims and audits a batch: with
# several workers, one sweeps at a time and the others skip their turn. (Any 64-bit number no other
# part of the project uses; this one spells "audit sweep".)
SWEEP_LOCK = 0x61756469_7377_7000
SWEEP_BATCH = 500


def rounds_overdue_audit(*, grace: timedelta, limit: int = 2000) -> int:
    """Audit here and now the rounds in force logged more than `grace` ago and still pending: their
    `audit_rounds` message was lost — with a broker restarted without persistence, a web process
    killed before it sent it — or is still waiting behind a backlog. PostgreSQL, not the broker, is
    what says which rounds need an audit, so nothing a broker loses is lost for good.

    Safe with any number of workers sweeping: a batch is claimed under a transaction-level advisory
    lock (a worker that finds it taken returns at once — another one is sweeping), and its rounds'
    pending audit rows with `FOR UPDATE SKIP LOCKED`, so a round a task is writing right now is left
    to that task. A
    round audited twice (its message arrives after all) gets the same verdict. At most `limit`
    rounds a call, oldest first, in batches of SWEEP_BATCH, one transaction each: a sweep never
    holds a worker for long, and what it leaves the next one takes. How many rounds it audited."""
    cutoff = timezone.now() - grace
    done = 0
    while done < limit:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [SWEEP_LOCK])
                    if not cursor.fetchone()[0]:
                        break
            ids = list(
                _pending_in_force()
                .select_for_update(skip_locked=True, of=("self",))
                .filter(round__logged_at__lt=cutoff)
                .order_by("round_id")
                .values_list("round_id", flat=True)[: min(SWEEP_BATCH, limit - done)]
            )
            if not ids:
                break
            rounds_audit(round_ids=ids)
        done += len(ids)
    if done:
        log.warning("audited %d rounds logged before %s whose audit had not arrived", done, cutoff)
        count_sweep_repairs(done)
    return done
