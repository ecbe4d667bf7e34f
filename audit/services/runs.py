"""Audit runs: a selection of rounds planned into chunks of ids, one Celery task per chunk.

A chunk's rounds' results, its own "done" mark and its totals added to the run commit in one
transaction, so a chunk delivered twice is counted once.
"""

import json
from datetime import date, datetime, time, timedelta
from time import monotonic

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, F, JSONField, Q, Value, When
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import AUDITOR, has_role
from dealing import engine
from dealing.choices import AuditStatus
from dealing.models import Round, RoundAudit, in_force_q

from .. import hooks
from ..choices import ChunkStatus, RunStatus, RunTrigger
from ..models import AuditRun, AuditRunChunk
from ..signals import run_progressed
from .rounds import rounds_audit

DEFAULT_CHUNK_SIZE = 500
MAX_CHUNK_SIZE = 5000
# Chunks planned per slice of ids (one transaction each), and how long one planner task plans
# slices before it re-queues itself.
CHUNKS_PER_PLAN_SLICE = 50
PLAN_SECONDS = 2.0


def audit_run_start(
    *,
    started_by=None,
    tables=(),
    dealers=(),
    date_from: date | None = None,
    date_to: date | None = None,
    only_unaudited: bool = True,
    trigger: str = RunTrigger.PAGE,
    chunk_size: int | None = None,
    queue: str = "",
) -> AuditRun:
    """Start an audit run over a selection of rounds in force: planned and audited by Celery tasks.

    Only auditors (and superusers) start runs; `started_by=None` is the system (nightly schedule,
    command line). The run covers the rounds logged up to now; later ones have their own audit.
    """
    if started_by is not None and not has_role(started_by, AUDITOR):
        raise ServiceError(_("Only auditors start audit runs."), extra={"code": "forbidden"}, status=403)
    if date_from and date_to and date_to < date_from:
        raise ServiceError(
            _("The run would cover no day: the end date is before the start date."),
            extra={"fields": {"date_to": [_("Give a date on or after the start date.")]}},
        )
    chunk_size = chunk_size or DEFAULT_CHUNK_SIZE
    if not 1 <= chunk_size <= MAX_CHUNK_SIZE:
        raise ServiceError(
            _("A chunk holds from 1 to %(max)d rounds.") % {"max": MAX_CHUNK_SIZE},
            extra={"fields": {"chunk_size": [_("Out of range.")]}},
        )
    with transaction.atomic():
        last = Round.objects.order_by("-pk").values_list("pk", flat=True).first()
        run = AuditRun.objects.create(
            started_by=started_by,
            trigger=trigger,
            date_from=date_from,
            date_to=date_to,
            only_unaudited=only_unaudited,
            chunk_size=chunk_size,
            queue=queue or "",
            max_round_id=last or 0,
            engine_version=engine.ENGINE_VERSION,
        )
        if tables:
            run.tables.set(tables)
        if dealers:
            run.dealers.set(dealers)
        run.rounds_expected = run_selection(run).count()
        run.save(update_fields=["rounds_expected"])
        queue_plan(run)
    return run


def run_selection(run: AuditRun):
    """The rounds a run covers (a queryset; the planner walks it by id, a slice at a time)."""
    rounds = Round.objects.filter(in_force_q(), pk__lte=run.max_round_id or 0)
    table_ids = list(run.tables.values_list("pk", flat=True))
    if table_ids:
        rounds = rounds.filter(table_id__in=table_ids)
    dealer_ids = list(run.dealers.values_list("pk", flat=True))
    if dealer_ids:
        rounds = rounds.filter(dealer_id__in=dealer_ids)
    if run.date_from:
        rounds = rounds.filter(played_at__gte=day_start(run.date_from))
    if run.date_to:
        rounds = rounds.filter(played_at__lt=day_start(run.date_to + timedelta(days=1)))
    if run.only_unaudited:
        # Through the partial index of pending audit rows (a semi-join over those few rows), not an
        # anti-join over every round; every round record gets its pending row when it is written.
        rounds = rounds.filter(pk__in=RoundAudit.objects.filter(status=AuditStatus.PENDING).values("round_id"))
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
            queue_plan(run)
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
        ids = list(
            run_selection(run)
            .filter(pk__gt=run.plan_cursor)
            .order_by("pk")
            .values_list("pk", flat=True)[: size * CHUNKS_PER_PLAN_SLICE]
        )
        number = run.chunks.count()
        chunks = [
            AuditRunChunk(run=run, number=number + k, round_ids=ids[start : start + size])
            for k, start in enumerate(range(0, len(ids), size))
        ]
        AuditRunChunk.objects.bulk_create(chunks)
        run.rounds_total += len(ids)
        if ids:
            run.plan_cursor = ids[-1]
        more = len(ids) == size * CHUNKS_PER_PLAN_SLICE
        if not more:
            run.planned = True
            _finish_if_complete(run)
        # Only the planner's own fields: the totals are the chunks' (`_run_add`), and a chunk adding
        # to them waits for this row's lock, so its increment lands on what is saved here.
        run.save(update_fields=["status", "started_at", "finished_at", "rounds_total", "plan_cursor", "planned"])
        queue_chunks(run, list(run.chunks.filter(number__gte=number).order_by("number").values_list("pk", flat=True)))
    return run if more else None


class ChunkBusy(Exception):
    """The chunk is being audited by another worker right now (its row is locked): a second delivery
    of its message. The task tries again later, when the chunk is done — or free again, if that
    worker died before committing it."""


def audit_run_chunk_process(*, chunk_id: int) -> bool:
    """Audit one chunk of a run and add its totals to the run. Idempotent: the chunk row is locked,
    and its results commit together with its "done" mark, so a chunk delivered twice (a worker
    killed before acknowledging it) is audited again at most, never counted twice.
    True when this call did the work; False when the chunk is done already (or gone); ChunkBusy
    when another transaction holds it.

    Workers never wait for each other here. The chunk is claimed with `FOR UPDATE SKIP LOCKED OF`
    the chunk alone — no ordering, so no join to the run: `FOR UPDATE` over a join locks the run
    row too, and then the run's workers audited one chunk at a time, each waiting for the other's
    commit. The run's totals are added at the end by one UPDATE of increments (`_run_add`), whose
    row lock lasts only from that statement to the commit.
    """
    _lease(chunk_id)
    with transaction.atomic():
        claimed = list(
            AuditRunChunk.objects.select_for_update(skip_locked=True, of=("self",))
            .order_by()
            .filter(pk=chunk_id)
            .values_list("run_id", "status", "round_ids")
        )
        if not claimed:
            if AuditRunChunk.objects.filter(pk=chunk_id).exists():
                raise ChunkBusy(chunk_id)
            return False
        [(run_id, status, round_ids)] = claimed
        if status == ChunkStatus.DONE:
            return False
        totals = rounds_audit(round_ids=round_ids)
        AuditRunChunk.objects.filter(pk=chunk_id).update(
            status=ChunkStatus.DONE,
            rounds=totals.rounds,
            clean=totals.clean,
            with_findings=totals.with_findings,
            errors=totals.errors,
            findings_by_code=dict(totals.findings_by_code),
            error_samples=totals.error_samples,
            done_at=timezone.now(),
            leased_until=None,
        )
        # Planned rounds that no longer exist still count as done, or the run would never finish.
        _run_add(run_id, rounds_done=len(round_ids), totals=totals)
        run_progressed.send(sender=AuditRun, run_id=run_id)
    return True


def chunk_lease() -> timedelta:
    return timedelta(seconds=settings.AUDIT_CHUNK_LEASE_S)


def _lease(chunk_id: int) -> None:
    """Mark a pending chunk taken until now + AUDIT_CHUNK_LEASE_S, in a transaction of its own, so the
    mark outlives this worker: if it dies before the chunk commits, the lease runs out with nobody
    holding the row, which is how `audit_chunks_requeue_expired` tells a dead worker from a live
    one (a live one holds the chunk's row lock for as long as it works, however long that is: no
    renewal needed). A chunk in another worker's hands is skipped, not waited for."""
    with transaction.atomic():
        free = list(
            AuditRunChunk.objects.select_for_update(skip_locked=True, of=("self",))
            .order_by()
            .filter(pk=chunk_id, status=ChunkStatus.PENDING)
            .values_list("pk", flat=True)
        )
        if free:
            AuditRunChunk.objects.filter(pk=chunk_id).update(leased_until=timezone.now() + chunk_lease())


def audit_chunks_requeue_expired(*, limit: int = 1000) -> list[int]:
    """Queue again the chunks whose worker died mid-chunk: pending, their lease run out, and their row
    free (SKIP LOCKED: a worker still at it holds it). The dead worker's transaction was rolled back,
    so nothing of the chunk was stored; its own message, when the broker hands it back, finds the
    chunk done and adds nothing. The lease is cleared (the next worker sets its own): a chunk
    queued again and not taken yet is not queued over and over. The chunk ids, in order."""
    with transaction.atomic():
        expired = list(
            AuditRunChunk.objects.select_for_update(skip_locked=True, of=("self",))
            .order_by()
            .filter(
                status=ChunkStatus.PENDING,
                leased_until__lt=timezone.now(),
                run__status__in=[RunStatus.QUEUED, RunStatus.RUNNING],
            )
            .values_list("pk", "run_id")[:limit]
        )
        if not expired:
            return []
        AuditRunChunk.objects.filter(pk__in=[pk for pk, _ in expired]).update(
            leased_until=None, requeued=F("requeued") + 1
        )
        by_run: dict[int, list[int]] = {}
        for pk, run_id in sorted(expired):
            by_run.setdefault(run_id, []).append(pk)
        for run in AuditRun.objects.filter(pk__in=by_run):
            queue_chunks(run, by_run[run.pk])
    return sorted(pk for pk, _ in expired)


def _run_add(run_id: int, *, rounds_done: int, totals) -> None:
    """Add a chunk's totals to its run in one statement, and mark the run done if this was the last
    of its rounds (the condition reads the row as it stands once the statement holds its lock, so
    of two chunks committing together the later one finishes the run)."""
    now = timezone.now()
    finished = Q(status__in=[RunStatus.DONE, RunStatus.FAILED])
    complete = Q(planned=True, rounds_done__gte=F("rounds_total") - rounds_done)
    changes = {
        "rounds_done": F("rounds_done") + rounds_done,
        "clean": F("clean") + totals.clean,
        "with_findings": F("with_findings") + totals.with_findings,
        "errors": F("errors") + totals.errors,
        "findings_total": F("findings_total") + totals.findings,
        "status": Case(
            When(finished, then=F("status")),
            When(complete, then=Value(RunStatus.DONE)),
            default=Value(RunStatus.RUNNING),
        ),
        "started_at": Coalesce(F("started_at"), Value(now)),
        "finished_at": Case(
            When(finished, then=F("finished_at")), When(complete, then=Value(now)), default=F("finished_at")
        ),
    }
    if totals.findings_by_code:
        changes["findings_by_code"] = _counts_added(AuditRun, "findings_by_code", totals.findings_by_code)
    AuditRun.objects.filter(pk=run_id).update(**changes)
    # This statement finished the run when it wrote its `now` as the run's end: announced once.
    if hooks.listening("run_finished") and AuditRun.objects.filter(pk=run_id, finished_at=now).exists():
        hooks.announce("run_finished", run_id=run_id, status=RunStatus.DONE.value)


def _counts_added(model, name: str, counts: dict[str, int]) -> RawSQL:
    """SQL for a JSON object column of counts plus `counts`, key by key: the run's findings by code
    grow in the same UPDATE as its other totals, with no read of the row first."""
    table = connection.ops.quote_name(model._meta.db_table)
    column = f"{table}.{connection.ops.quote_name(model._meta.get_field(name).column)}"
    if connection.vendor == "postgresql":
        sql = (
            f"(SELECT COALESCE(jsonb_object_agg(key, total), '{{}}'::jsonb) FROM ("
            f"SELECT key, SUM(value::bigint) AS total FROM ("
            f"SELECT key, value FROM jsonb_each_text({column}) UNION ALL "
            f"SELECT key, value FROM jsonb_each_text(%s::jsonb)) AS counts GROUP BY key) AS sums)"
        )
    else:  # SQLite's JSON1 functions
        sql = (
            f"(SELECT COALESCE(json_group_object(key, total), '{{}}') FROM ("
            f"SELECT key, SUM(value) AS total FROM ("
            f"SELECT key, value FROM json_each({column}) UNION ALL "
            f"SELECT key, value FROM json_each(%s)) GROUP BY key))"
        )
    return RawSQL(sql, [json.dumps(counts, sort_keys=True)], output_field=JSONField())


def _finish_if_complete(run: AuditRun) -> None:
    """Mark the run done once it is planned and every planned round is done (under the run's lock;
    the planner's check — a chunk's is in `_run_add`)."""
    if run.planned and run.rounds_done >= run.rounds_total and not run.is_finished:
        run.status = RunStatus.DONE
        run.finished_at = timezone.now()
        if run.started_at is None:
            run.started_at = run.finished_at
        hooks.announce("run_finished", run_id=run.pk, status=RunStatus.DONE.value)


def audit_run_fail(*, run_id: int, error: str) -> None:
    failed = (
        AuditRun.objects.filter(pk=run_id)
        .exclude(status=RunStatus.DONE)
        .update(status=RunStatus.FAILED, error=error[:2000], finished_at=timezone.now())
    )
    if failed:  # (a run failed twice is told of once: notifications keep one row per run)
        hooks.announce("run_finished", run_id=run_id, status=RunStatus.FAILED.value)


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
            queue_plan(run)
            queued += 1
        pending = list(run.chunks.filter(status=ChunkStatus.PENDING).order_by("number").values_list("pk", flat=True))
        queue_chunks(run, pending)
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
        started_by=started_by,
        tables=list(run.tables.all()),
        dealers=list(run.dealers.all()),
        date_from=run.date_from,
        date_to=run.date_to,
        only_unaudited=run.only_unaudited,
        trigger=trigger,
        chunk_size=run.chunk_size,
        queue=run.queue,
    )


def nightly_audit() -> AuditRun:
    """The scheduled run: every round in force not audited yet."""
    return audit_run_start(started_by=None, only_unaudited=True, trigger=RunTrigger.NIGHTLY)


def queue_plan(run: AuditRun) -> None:
    from ..tasks import audit_run_plan as task

    run_id, queue = run.pk, run.queue or None
    transaction.on_commit(lambda: task.apply_async((run_id,), queue=queue))


def queue_chunks(run: AuditRun, chunk_ids: list[int]) -> None:
    from ..tasks import audit_run_chunk as task

    queue = run.queue or None

    def send():
        for chunk_id in chunk_ids:
            task.apply_async((chunk_id,), queue=queue)

    if chunk_ids:
        transaction.on_commit(send)
