"""Celery tasks of audit. Like an API, a task takes ids, calls a service and keeps retries to itself.

- `audit_rounds(round_ids)` — the rounds a web process logged within a few milliseconds of each
  other, queued together once they are committed (audit/dispatch.py).
- `audit_round(round_id)` — one round: queued on commit when a round is logged with batching off.
- `audit_shoe(shoe_id)` — the shoe checks, after a shoe ends or on demand.
- `audit_run_plan(run_id)` — plans a slice of a run into chunks, queues them, and re-queues
  itself until the selection is planned (Saleor's batch pattern: memory stays flat).
- `audit_run_chunk(chunk_id)` — audits one chunk; idempotent, so a redelivery counts once.
- `audit_nightly()`, `audit_resume_stalled()`, `audit_overdue_rounds()`, `audit_chunks_expired()` —
  scheduled by Celery beat (CELERY_BEAT_SCHEDULE). Rounds whose audit message was lost need no beat: every worker sweeps
  for them itself (audit/sweep.py).

Every task acknowledges late: a worker killed mid-task leaves its message unacknowledged and the
broker delivers it again (Redis: after the visibility timeout, an hour), to this worker or another.
A run does not wait that long: a chunk is leased as it is taken, and `audit_chunks_expired` (every
AUDIT_CHUNK_CHECK_S) queues again the chunks whose lease ran out with no worker holding them.
Database hiccups are retried with backoff.
"""

import logging
from collections import Counter

from celery import shared_task
from django.db import DatabaseError, InterfaceError, OperationalError

from . import services

log = logging.getLogger(__name__)

TRANSIENT = (OperationalError, InterfaceError)
RETRY = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 2,
    "retry_backoff_max": 120,
    "retry_jitter": True,
    "max_retries": 8,
}


@shared_task(name="audit.tasks.audit_round", acks_late=True, reject_on_worker_lost=True, **RETRY)
def audit_round(round_id: int) -> str | None:
    """Replay a stored round with the engine; record its findings and audit status."""
    status = services.round_audit(round_id=round_id)
    if status is None:
        log.warning("audit_round: there is no round %s", round_id)
    return status


@shared_task(name="audit.tasks.audit_rounds", acks_late=True, reject_on_worker_lost=True, **RETRY)
def audit_rounds(round_ids: list[int]) -> dict[str, int]:
    """Replay stored rounds with the engine; record each one's findings and audit status. Idempotent:
    a redelivered message audits its rounds again to the same verdicts. Returns how many rounds had
    each status."""
    totals = services.rounds_audit(round_ids=round_ids)
    asked = len(set(round_ids))
    if totals.rounds < asked:
        log.warning("audit_rounds: %d of %d rounds do not exist", asked - totals.rounds, asked)
    return dict(Counter(totals.statuses.values()))


@shared_task(name="audit.tasks.audit_shoe", acks_late=True, reject_on_worker_lost=True, **RETRY)
def audit_shoe(shoe_id: int) -> str | None:
    audit = services.shoe_audit(shoe_id=shoe_id)
    return None if audit is None else audit.status


@shared_task(bind=True, name="audit.tasks.audit_run_plan", acks_late=True, reject_on_worker_lost=True, max_retries=8)
def audit_run_plan(self, run_id: int) -> bool:
    """Plan one slice of a run; the service queues the chunks and the next slice on commit."""
    try:
        return services.audit_run_plan(run_id=run_id)
    except TRANSIENT as exc:
        raise self.retry(exc=exc, countdown=min(120, 2**self.request.retries)) from exc
    except DatabaseError as exc:
        services.audit_run_fail(run_id=run_id, error=f"planning failed: {exc}")
        raise


@shared_task(bind=True, name="audit.tasks.audit_run_chunk", acks_late=True, reject_on_worker_lost=True, max_retries=8)
def audit_run_chunk(self, chunk_id: int) -> bool:
    try:
        return services.audit_run_chunk_process(chunk_id=chunk_id)
    except services.ChunkBusy as exc:
        # A second delivery while a worker has the chunk in hand: look again once that worker is done
        # with it — or dead, its transaction rolled back and the chunk free to audit.
        raise self.retry(exc=exc, countdown=min(60, 5 * 2 ** min(self.request.retries, 4)), max_retries=50) from exc
    except TRANSIENT as exc:
        raise self.retry(exc=exc, countdown=min(120, 2**self.request.retries)) from exc
    except Exception as exc:
        from .models import AuditRunChunk

        run_id = AuditRunChunk.objects.filter(pk=chunk_id).values_list("run_id", flat=True).first()
        if run_id is not None:
            services.audit_run_fail(run_id=run_id, error=f"chunk {chunk_id}: {type(exc).__name__}: {exc}")
        raise


@shared_task(name="audit.tasks.audit_nightly", acks_late=True, **RETRY)
def audit_nightly() -> dict:
    """Every round not audited yet, and every ended shoe not checked since it ended."""
    run = services.nightly_audit()
    shoes = list(services.shoes_to_audit().values_list("pk", flat=True))
    for shoe_id in shoes:
        audit_shoe.delay(shoe_id)
    return {"run": run.pk, "shoes": len(shoes)}


@shared_task(name="audit.tasks.audit_overdue_rounds", acks_late=True, **RETRY)
def audit_overdue_rounds() -> int:
    """The rounds whose audit never arrived (see services.rounds_overdue_requeue), queued again."""
    return services.rounds_overdue_requeue()


@shared_task(name="audit.tasks.audit_resume_stalled", acks_late=True, **RETRY)
def audit_resume_stalled() -> list[int]:
    return services.audit_runs_resume_stalled()


@shared_task(name="audit.tasks.audit_chunks_expired", acks_late=True, **RETRY)
def audit_chunks_expired() -> list[int]:
    """The chunks whose worker died mid-chunk, queued again (services.audit_chunks_requeue_expired)."""
    requeued = services.audit_chunks_requeue_expired()
    if requeued:
        log.warning("audit_chunks_expired: %d chunks lost their worker and were queued again", len(requeued))
    return requeued
