"""Every write of audit: audits of rounds and shoes, reviews of findings, audit runs.

Plain functions with keyword-only arguments. Each one is one transaction: an audit writes a
round's findings and its audit status together, a chunk of a run writes its rounds' results
together with its own "done" mark and the run's totals.

Re-auditing never duplicates: the findings of a round (or a shoe) are brought to exactly what
the engine reports now, matched by fingerprint — a recurring finding keeps its row and its
reviews, a finding no longer reported is deleted (its reviews stay, detached), a new one is added
(and picks up detached reviews with its fingerprint, if it had been reported before).
"""

import hashlib
import logging
from time import monotonic
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import AUDITOR, has_role
from dealing import engine
from dealing.choices import AuditStatus, RoundStatus
from dealing.models import Round, Shoe

from .choices import (
    CLASSIFICATIONS_FOR,
    ChunkStatus,
    Classification,
    FindingStatus,
    RunStatus,
    RunTrigger,
    ShoeAuditStatus,
)
from .models import AuditRun, AuditRunChunk, Finding, Review, ShoeAudit
from .state import round_record_audit

log = logging.getLogger(__name__)

DEFAULT_CHUNK_SIZE = 500
MAX_CHUNK_SIZE = 5000
# Chunks planned per slice of ids (one transaction each), and how long one planner task plans
# slices before it re-queues itself.
CHUNKS_PER_PLAN_SLICE = 50
PLAN_SECONDS = 2.0
MAX_ERROR_SAMPLES = 5
MAX_BULK_REVIEW = 1000

# Fields of a finding that a re-audit may change without it becoming another finding.
_MUTABLE = ("severity", "message", "expected", "actual", "player_delta", "engine_version", "table_id",
            "dealer_id", "played_at", "shoe_id")


# --- fingerprints ---------------------------------------------------------------------------------

def fingerprints(findings) -> list[str]:
    """A stable identity for each engine finding of one round or shoe, in order.

    The same code at the same event, stake, hand and wager is the same finding; should one round
    report it twice, the occurrences are numbered.
    """
    seen: Counter = Counter()
    out = []
    for f in findings:
        key = "|".join("" if part is None else str(part)
                       for part in (f.code, f.event, f.stake, f.hand, f.wager))
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


def _replay(document):
    """(engine findings, None) or (None, the reason the engine could not read the round)."""
    try:
        return engine.replay(document).findings, None
    except engine.RoundError as exc:
        return None, exc.message
    except Exception as exc:  # an engine bug must not stop a run of a million rounds: record it
        log.exception("the engine failed on a stored round")
        return None, f"{type(exc).__name__}: {exc}"


def rounds_audit(*, round_ids, record=None) -> AuditTotals:
    """Replay stored rounds with the engine; write their findings and audit status. One transaction.

    The documents are read and replayed first (a stored round never changes); then the audit
    status is written — `record(status_to_ids, version)`, by default one UPDATE per status — which
    locks the rounds, and only then are their findings read and replaced. So two audits of the same
    round (its own task and a run) never interleave, without a separate locking read.
    """
    totals = AuditTotals()
    version = engine.ENGINE_VERSION
    rows = list(Round.objects.filter(pk__in=list(round_ids)).order_by("pk")
                .values_list("pk", "document", "table_id", "dealer_id", "shoe_id", "logged_at"))
    wanted: dict[tuple, Finding] = {}
    by_status: dict[str, list[int]] = {}
    for pk, document, table_id, dealer_id, shoe_id, logged_at in rows:
        found, error = _replay(document)
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
                wanted[(pk, fp)] = _finding_row(f, fp, version, round_id=pk, shoe_id=shoe_id,
                                                table_id=table_id, dealer_id=dealer_id, played_at=logged_at)
        else:
            status = AuditStatus.CLEAN
            totals.clean += 1
        by_status.setdefault(status, []).append(pk)
        totals.statuses[pk] = status
    with transaction.atomic():
        (record or _record_audit)(by_status, version)
        # A round the engine cannot read keeps no findings: they would describe a log it no longer reads.
        _sync(Finding.objects.filter(round_id__in=[row[0] for row in rows]), wanted, scope="round_id")
    return totals


def _finding_row(f, fp: str, version: str, *, round_id, shoe_id, table_id, dealer_id, played_at) -> Finding:
    return Finding(
        round_id=round_id, shoe_id=shoe_id, table_id=table_id, dealer_id=dealer_id, played_at=played_at,
        code=f.code, severity=f.severity, event=f.event, stake=f.stake or "", hand=f.hand or "",
        wager=f.wager or "", expected=f.expected, actual=f.actual, player_delta=f.player_delta,
        message=f.message, engine_version=version, fingerprint=fp,
    )


def _record_audit(by_status: dict[str, list[int]], version: str) -> None:
    """The audit status of many rounds at once: the bulk twin of dealing.services.round_record_audit."""
    now = timezone.now()
    for status, ids in by_status.items():
        if status not in AuditStatus.values:
            raise ValueError(status)
        Round.objects.filter(pk__in=ids).update(audit_status=status, engine_version=version, audited_at=now)


def _record_one(by_status: dict[str, list[int]], version: str) -> None:
    for status, ids in by_status.items():
        for round_id in ids:
            round_record_audit(round_id=round_id, status=status, engine_version=version)


def _sync(existing, wanted: dict[tuple, Finding], *, scope: str) -> None:
    """Make the stored findings of some rounds (scope "round_id") or shoes ("shoe_id") exactly `wanted`,
    keyed by (scope id, fingerprint)."""
    current = {(row[scope], row["fingerprint"]): row
               for row in existing.values("pk", scope, "fingerprint", *_MUTABLE)}
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
            status=review.status, classification=review.classification, reviewed_by=review.auditor_id,
            reviewed_at=review.at)


def round_audit(*, round_id: int) -> str | None:
    """Audit one stored round (its own task, queued when it is logged). The round's audit status,
    or None when there is no such round."""
    totals = rounds_audit(round_ids=[round_id], record=_record_one)
    return totals.statuses.get(round_id)


def rounds_overdue_requeue(*, older_than: timedelta = timedelta(minutes=10), window: timedelta = timedelta(minutes=6),
                           limit: int = 10_000) -> int:
    """Queue again the audits of rounds in force that were logged between `older_than + window` and
    `older_than` ago and are still not audited: their message never left a web process that was
    killed, or was lost with the broker (audit/dispatch.py). Scheduled every 5 minutes, so such a
    round waits minutes, not until the nightly run; the window (a little longer than the schedule)
    makes one sweep or two look at each round, so workers busy with a backlog are not handed the
    same rounds again every 5 minutes — what a sweep misses, the nightly run audits. A round audited
    twice gets the same verdict. Returns how many were queued."""
    from .dispatch import send_round_audits

    cutoff = timezone.now() - older_than
    ids = list(Round.objects.filter(audit_status=AuditStatus.PENDING, status=RoundStatus.RECORDED,
                                    logged_at__lt=cutoff, logged_at__gte=cutoff - window)
               .order_by("pk").values_list("pk", flat=True)[:limit])
    send_round_audits(ids)
    if ids:
        log.warning("queued again the audits of %d rounds logged before %s and not audited yet", len(ids), cutoff)
    return len(ids)


# --- reviews --------------------------------------------------------------------------------------

def finding_review(*, finding_ids, auditor, status: str, classification: str = "", comment: str = "") -> list[Finding]:
    """Record an auditor's decision on one or more findings; the history of earlier decisions stays.

    `status` is confirmed, dismissed, or open (reopen). A confirmed finding is a dealer error or a
    player dispute; a dismissed one is no error or a player dispute; dismissing needs a comment.
    Nobody reviews a finding about a round he dealt himself.
    """
    if not has_role(auditor, AUDITOR):
        raise ServiceError(_("Only auditors review findings."), extra={"code": "forbidden"}, status=403)
    classification = classification or ""
    comment = (comment or "").strip()
    fields = {}
    if status not in FindingStatus.values:
        fields["status"] = [_("Choose confirmed, dismissed or open.")]
    elif classification not in CLASSIFICATIONS_FOR[status]:
        if status == FindingStatus.OPEN:
            fields["classification"] = [_("A reopened finding has no classification.")]
        else:
            allowed = sorted(CLASSIFICATIONS_FOR[status])
            fields["classification"] = [
                _("A %(status)s finding is classified as %(allowed)s.")
                % {"status": FindingStatus(status).label,
                   "allowed": _(" or ").join(str(Classification(c).label) for c in allowed)}]
    if status == FindingStatus.DISMISSED and not comment:
        fields["comment"] = [_("Say why the finding is dismissed.")]
    ids = _ids(finding_ids)
    if not ids:
        fields["ids"] = [_("Select at least one finding.")]
    elif len(ids) > MAX_BULK_REVIEW:
        fields["ids"] = [_("Review at most %(n)d findings at once.") % {"n": MAX_BULK_REVIEW}]
    if fields:
        raise ServiceError(_("The review was not recorded."), extra={"fields": fields})

    with transaction.atomic():
        findings = list(Finding.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
        missing = sorted(set(ids) - {f.pk for f in findings})
        if missing:
            raise ServiceError(_("No finding with the id(s) %(ids)s.") % {"ids": ", ".join(map(str, missing))},
                               extra={"code": "not_found", "ids": missing}, status=404)
        own = [f.pk for f in findings if f.dealer_id == auditor.pk]
        if own:
            raise ServiceError(_("You may not review findings about rounds you dealt yourself."),
                               extra={"code": "own_round", "ids": own}, status=403)
        now = timezone.now()
        Review.objects.bulk_create([
            Review(finding=f, round_id=f.round_id, shoe_id=f.shoe_id if f.round_id is None else None,
                   fingerprint=f.fingerprint, code=f.code, auditor=auditor, status=status,
                   classification=classification, comment=comment, at=now)
            for f in findings])
        Finding.objects.filter(pk__in=ids).update(status=status, classification=classification,
                                                  reviewed_by=auditor, reviewed_at=now)
    return list(Finding.objects.filter(pk__in=ids).order_by("pk"))


def _ids(values) -> list[int]:
    out = []
    for value in values or []:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ServiceError(_("%(value)r is not a finding id.") % {"value": value},
                               extra={"fields": {"ids": [_("Finding ids are whole numbers.")]}}) from None
        if number not in out:
            out.append(number)
    return out


# --- audit runs -----------------------------------------------------------------------------------

def audit_run_start(*, started_by=None, tables=(), dealers=(), date_from: date | None = None,
                    date_to: date | None = None, only_unaudited: bool = True, trigger: str = RunTrigger.PAGE,
                    chunk_size: int | None = None, queue: str = "") -> AuditRun:
    """Start an audit run over a selection of rounds in force: planned and audited by Celery tasks.

    Only auditors (and superusers) start runs; `started_by=None` is the system (nightly schedule,
    command line). The run covers the rounds logged up to now; later ones have their own audit.
    """
    if started_by is not None and not has_role(started_by, AUDITOR):
        raise ServiceError(_("Only auditors start audit runs."), extra={"code": "forbidden"}, status=403)
    if date_from and date_to and date_to < date_from:
        raise ServiceError(_("The run would cover no day: the end date is before the start date."),
                           extra={"fields": {"date_to": [_("Give a date on or after the start date.")]}})
    chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
    if not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise ServiceError(_("A chunk holds from 1 to %(max)d rounds.") % {"max": MAX_CHUNK_SIZE},
                           extra={"fields": {"chunk_size": [_("Out of range.")]}})
    with transaction.atomic():
        last = Round.objects.order_by("-pk").values_list("pk", flat=True).first()
        run = AuditRun.objects.create(
            started_by=started_by, trigger=trigger, date_from=date_from, date_to=date_to,
            only_unaudited=only_unaudited, chunk_size=chunk_size, queue=queue or "", max_round_id=last or 0,
            engine_version=engine.ENGINE_VERSION)
        if tables:
            run.tables.set(tables)
        if dealers:
            run.dealers.set(dealers)
        run.rounds_expected = run_selection(run).count()
        run.save(update_fields=["rounds_expected"])
        _queue_plan(run)
    return run


def run_selection(run: AuditRun):
    """The rounds a run covers (a queryset; the planner walks it by id, a slice at a time)."""
    rounds = Round.objects.filter(status=RoundStatus.RECORDED, pk__lte=run.max_round_id or 0)
    table_ids = list(run.tables.values_list("pk", flat=True))
    if table_ids:
        rounds = rounds.filter(table_id__in=table_ids)
    dealer_ids = list(run.dealers.values_list("pk", flat=True))
    if dealer_ids:
        rounds = rounds.filter(dealer_id__in=dealer_ids)
    if run.date_from:
        rounds = rounds.filter(logged_at__gte=day_start(run.date_from))
    if run.date_to:
        rounds = rounds.filter(logged_at__lt=day_start(run.date_to + timedelta(days=1)))
    if run.only_unaudited:
        rounds = rounds.filter(audit_status=AuditStatus.PENDING)
    return rounds


def day_start(day: date) -> datetime:
    """Midnight at the start of a day, in the floor's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min))


def audit_run_plan(*, run_id: int) -> bool:
    """Plan a run: slices of up to CHUNKS_PER_PLAN_SLICE chunks of round ids, each slice committed
    with its chunks queued as tasks, for up to PLAN_SECONDS; then, if more is left, the planner is
    queued again (the task's re-queue) and True returned.

    Keyset pagination over ids: each slice reads only its own ids, so planning a million rounds
    takes as little memory as planning a thousand.
    """
    deadline = monotonic() + PLAN_SECONDS
    while True:
        run = _plan_slice(run_id)
        if run is None:
            return False
        if monotonic() >= deadline:
            _queue_plan(run)
            return True


def _plan_slice(run_id: int) -> AuditRun | None:
    """One slice of planning; the run when more is left to plan, None when planning is over."""
    with transaction.atomic():
        run = AuditRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.planned or run.is_finished:
            return None
        if run.status == RunStatus.QUEUED:
            run.status = RunStatus.RUNNING
            run.started_at = timezone.now()
        size = run.chunk_size
        ids = list(run_selection(run).filter(pk__gt=run.plan_cursor).order_by("pk")
                   .values_list("pk", flat=True)[:size * CHUNKS_PER_PLAN_SLICE])
        number = run.chunks.count()
        chunks = [AuditRunChunk(run=run, number=number + k, round_ids=ids[start:start + size])
                  for k, start in enumerate(range(0, len(ids), size))]
        AuditRunChunk.objects.bulk_create(chunks)
        run.rounds_total += len(ids)
        if ids:
            run.plan_cursor = ids[-1]
        more = len(ids) == size * CHUNKS_PER_PLAN_SLICE
        if not more:
            run.planned = True
            _finish_if_complete(run)
        run.save()
        _queue_chunks(run, list(run.chunks.filter(number__gte=number).order_by("number")
                                .values_list("pk", flat=True)))
    return run if more else None


def audit_run_chunk_process(*, chunk_id: int) -> bool:
    """Audit one chunk of a run and add its totals to the run. Idempotent: the chunk row is locked,
    and its results commit together with its "done" mark, so a chunk delivered twice (a worker
    killed before acknowledging it) is audited again at most, never counted twice.
    True when this call did the work."""
    with transaction.atomic():
        chunk = AuditRunChunk.objects.select_for_update().filter(pk=chunk_id).first()
        if chunk is None or chunk.status == ChunkStatus.DONE:
            return False
        totals = rounds_audit(round_ids=chunk.round_ids)
        chunk.status = ChunkStatus.DONE
        chunk.rounds = totals.rounds
        chunk.clean = totals.clean
        chunk.with_findings = totals.with_findings
        chunk.errors = totals.errors
        chunk.findings_by_code = dict(totals.findings_by_code)
        chunk.error_samples = totals.error_samples
        chunk.done_at = timezone.now()
        chunk.save()
        run = AuditRun.objects.select_for_update().get(pk=chunk.run_id)
        # Planned rounds that no longer exist still count as done, or the run would never finish.
        run.rounds_done += len(chunk.round_ids)
        run.clean += totals.clean
        run.with_findings += totals.with_findings
        run.errors += totals.errors
        run.findings_total += totals.findings
        by_code = Counter(run.findings_by_code)
        by_code.update(totals.findings_by_code)
        run.findings_by_code = dict(sorted(by_code.items()))
        if run.status == RunStatus.QUEUED:
            run.status, run.started_at = RunStatus.RUNNING, timezone.now()
        _finish_if_complete(run)
        run.save()
    return True


def _finish_if_complete(run: AuditRun) -> None:
    """Mark the run done once it is planned and every planned round is done (under the run's lock)."""
    if run.planned and run.rounds_done >= run.rounds_total and not run.is_finished:
        run.status = RunStatus.DONE
        run.finished_at = timezone.now()
        if run.started_at is None:
            run.started_at = run.finished_at


def audit_run_fail(*, run_id: int, error: str) -> None:
    AuditRun.objects.filter(pk=run_id).exclude(status=RunStatus.DONE).update(
        status=RunStatus.FAILED, error=error[:2000], finished_at=timezone.now())


def audit_run_resume(*, run_id: int) -> int:
    """Queue again whatever of an unfinished run is not done: the planner if planning stopped, and
    every pending chunk. Harmless when they are still queued (a chunk is done once). How many
    tasks were queued."""
    with transaction.atomic():
        run = AuditRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None or run.is_finished:
            return 0
        queued = 0
        if not run.planned:
            _queue_plan(run)
            queued += 1
        pending = list(run.chunks.filter(status=ChunkStatus.PENDING).order_by("number")
                       .values_list("pk", flat=True))
        _queue_chunks(run, pending)
    return queued + len(pending)


def audit_runs_resume_stalled(*, idle: timedelta = timedelta(minutes=15)) -> list[int]:
    """Resume the runs that have made no progress for `idle` (their tasks lost with a broker that
    was flushed, say). Worker crashes need nothing of this: unacknowledged tasks come back."""
    cutoff = timezone.now() - idle
    stalled = []
    for run in AuditRun.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING], created_at__lt=cutoff):
        last = run.chunks.filter(status=ChunkStatus.DONE).order_by("-done_at").values_list("done_at", flat=True).first()
        if (last or run.started_at or run.created_at) < cutoff:
            audit_run_resume(run_id=run.pk)
            stalled.append(run.pk)
    return stalled


def audit_run_rerun(*, run: AuditRun, started_by, trigger: str = RunTrigger.PAGE) -> AuditRun:
    """A new run over the same selection (with the rounds logged since)."""
    return audit_run_start(
        started_by=started_by, tables=list(run.tables.all()), dealers=list(run.dealers.all()),
        date_from=run.date_from, date_to=run.date_to, only_unaudited=run.only_unaudited, trigger=trigger,
        chunk_size=run.chunk_size, queue=run.queue)


def nightly_audit() -> AuditRun:
    """The scheduled run: every round in force not audited yet."""
    return audit_run_start(started_by=None, only_unaudited=True, trigger=RunTrigger.NIGHTLY)


def _queue_plan(run: AuditRun) -> None:
    from .tasks import audit_run_plan as task

    run_id, queue = run.pk, run.queue or None
    transaction.on_commit(lambda: task.apply_async((run_id,), queue=queue))


def _queue_chunks(run: AuditRun, chunk_ids: list[int]) -> None:
    from .tasks import audit_run_chunk as task

    queue = run.queue or None

    def send():
        for chunk_id in chunk_ids:
            task.apply_async((chunk_id,), queue=queue)

    if chunk_ids:
        transaction.on_commit(send)


# --- shoes ----------------------------------------------------------------------------------------

def shoe_audit(*, shoe_id: int) -> ShoeAudit | None:
    """Run the engine's shoe checks (burns, fees, card counts, reshuffle point) over a shoe's events
    and rounds in order, and replace the shoe's findings with what they report."""
    from .shoes import shoe_items

    version = engine.ENGINE_VERSION
    with transaction.atomic():
        shoe = Shoe.objects.select_for_update().select_related("table").filter(pk=shoe_id).first()
        if shoe is None:
            return None
        document, items = shoe_items(shoe)
        wanted: dict[tuple, Finding] = {}
        try:
            found = engine.check_shoe(document)
        except engine.RoundError as exc:
            found, status, message = [], ShoeAuditStatus.ERROR, exc.message
        else:
            status = ShoeAuditStatus.FINDINGS if found else ShoeAuditStatus.CLEAN
            message = ""
        for f, fp in zip(found, fingerprints(found)):
            item = items[f.event] if f.event is not None and 0 <= f.event < len(items) else None
            wanted[(shoe.pk, fp)] = _finding_row(
                f, fp, version, round_id=None, shoe_id=shoe.pk, table_id=shoe.table_id,
                dealer_id=item.dealer_id if item else shoe.shuffled_by_id,
                played_at=item.at if item else shoe.loaded_at)
        _sync(Finding.objects.filter(shoe_id=shoe.pk, round__isnull=True), wanted, scope="shoe_id")
        audit, _created = ShoeAudit.objects.update_or_create(shoe=shoe, defaults={
            "status": status, "findings": len(found), "message": message, "engine_version": version,
            "rounds": sum(1 for item in items if item.round_id), "audited_at": timezone.now()})
    return audit


def shoe_audit_request(*, shoe_id: int, requested_by=None) -> None:
    """Queue a shoe check (an auditor's request on the shoe page; the nightly task for ended shoes)."""
    if requested_by is not None and not has_role(requested_by, AUDITOR):
        raise ServiceError(_("Only auditors start shoe checks."), extra={"code": "forbidden"}, status=403)
    from .tasks import audit_shoe

    transaction.on_commit(lambda: audit_shoe.delay(shoe_id))


def shoes_to_audit():
    """Ended shoes with no shoe audit since they ended."""
    return (Shoe.objects.filter(ended_at__isnull=False)
            .filter(Q(audit__isnull=True) | Q(audit__audited_at__lt=F("ended_at"))))
