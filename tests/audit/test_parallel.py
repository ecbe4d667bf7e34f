"""Two workers on one run never wait for each other (PostgreSQL): a chunk is claimed with
`FOR UPDATE SKIP LOCKED` on the chunk row alone, and the run's totals are added by one UPDATE at
the end of a chunk. Two transactions in two threads, each with its own connection, stand for two
workers; the real workers are in test_worker.py."""

import threading

import pytest
from django.db import connection, connections, transaction

from audit import services
from audit.models import AuditRun, AuditRunChunk
from bench.audit import load_rounds
from dealing.choices import AuditStatus
from dealing.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and SKIP LOCKED need PostgreSQL (DATABASE_URL)")


@pytest.fixture
def planned_run(postgresql, people, floor, monkeypatch):
    """A run of 300 stored rounds planned into 3 chunks of 100, none audited yet: no task is queued,
    the test plays the workers."""
    monkeypatch.setattr(services.runs, "queue_plan", lambda run: None)
    monkeypatch.setattr(services.runs, "queue_chunks", lambda run, chunk_ids: None)
    for _batch in load_rounds(table=floor.table_a, dealer=people.dealer, n=300, seed=5, mistake_rate=0.3, pool=300):
        pass
    with transaction.atomic():
        run = services.audit_run_start(only_unaudited=True, chunk_size=100)
    assert services.audit_run_plan(run_id=run.pk) is False  # planned in one go
    return AuditRun.objects.get(pk=run.pk)


def test_a_chunk_in_hand_is_skipped_not_waited_for_and_leaves_the_run_row_unlocked(planned_run, monkeypatch):
    first, second, third = planned_run.chunks.order_by("number").values_list("pk", flat=True)
    inside, release = threading.Event(), threading.Event()
    real_audit = services.runs.rounds_audit

    def held_audit(**kwargs):
        if threading.current_thread().name == "worker-1":
            inside.set()  # the chunk is claimed; hold its transaction open mid-chunk
            assert release.wait(30)
        return real_audit(**kwargs)

    monkeypatch.setattr(services.runs, "rounds_audit", held_audit)
    outcome = {}

    def worker_1():
        try:
            outcome["first"] = services.audit_run_chunk_process(chunk_id=first)
        finally:
            connections.close_all()

    thread = threading.Thread(target=worker_1, name="worker-1")
    thread.start()
    try:
        assert inside.wait(30)
        with connection.cursor() as cursor:
            # Had anything waited on a lock, it would fail after a second instead of hanging.
            cursor.execute("SET lock_timeout = '1s'")
        # The run row is free while a chunk is being audited: a locking read of it does not wait...
        with transaction.atomic():
            AuditRun.objects.select_for_update(nowait=True).get(pk=planned_run.pk)
        # ...the chunk in hand is skipped at once (its task tries again later), not waited for...
        with pytest.raises(services.ChunkBusy):
            services.audit_run_chunk_process(chunk_id=first)
        # ...and the second worker audits another chunk of the same run meanwhile, to its end.
        assert services.audit_run_chunk_process(chunk_id=second) is True
        assert AuditRun.objects.get(pk=planned_run.pk).rounds_done == 100
    finally:
        release.set()
        thread.join(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert outcome == {"first": True}
    assert services.audit_run_chunk_process(chunk_id=first) is False  # done: counted once
    assert services.audit_run_chunk_process(chunk_id=third) is True
    run = AuditRun.objects.get(pk=planned_run.pk)
    assert run.status == "done" and run.finished_at is not None
    assert (run.rounds_done, run.clean + run.with_findings + run.errors) == (300, 300)
    chunks = list(AuditRunChunk.objects.filter(run=run))
    assert run.findings_total == sum(sum(c.findings_by_code.values()) for c in chunks) > 0
    by_code = {}
    for chunk in chunks:
        for code, n in chunk.findings_by_code.items():
            by_code[code] = by_code.get(code, 0) + n
    assert run.findings_by_code == by_code
    assert not Round.objects.filter(audit_status=AuditStatus.PENDING).exists()


def test_a_live_worker_past_its_lease_keeps_its_chunk_and_a_dead_ones_is_queued_again(
    planned_run, monkeypatch, settings
):
    """The row lock is the heartbeat: a worker still at a chunk longer than its lease holds the row,
    so the periodic look skips it; once that worker's connection is gone the chunk is free, its lease
    run out, and it is queued again."""
    first, second, _third = planned_run.chunks.order_by("number").values_list("pk", flat=True)
    settings.AUDIT_CHUNK_LEASE_S = 0  # every lease has run out by the time anyone looks
    queued = []
    monkeypatch.setattr(services.runs, "queue_chunks", lambda run, chunk_ids: queued.extend(chunk_ids))
    inside, release = threading.Event(), threading.Event()
    real_audit = services.runs.rounds_audit

    def held_audit(**kwargs):
        if threading.current_thread().name == "slow-worker":
            inside.set()
            assert release.wait(30)
            raise SystemExit  # then it dies: its transaction rolls back, its connection closes
        return real_audit(**kwargs)

    monkeypatch.setattr(services.runs, "rounds_audit", held_audit)

    def slow_worker():
        try:
            services.audit_run_chunk_process(chunk_id=first)
        except SystemExit:
            pass
        finally:
            connections.close_all()

    thread = threading.Thread(target=slow_worker, name="slow-worker")
    thread.start()
    try:
        assert inside.wait(30)
        assert AuditRunChunk.objects.get(pk=first).leased_until is not None
        assert services.audit_chunks_requeue_expired() == [] and queued == []  # alive: left alone
    finally:
        release.set()
        thread.join(30)
    assert services.audit_chunks_requeue_expired() == [first] and queued == [first]
    assert services.audit_chunks_requeue_expired() == []  # queued once, not at every look
    assert AuditRunChunk.objects.get(pk=first).requeued == 1
    assert AuditRunChunk.objects.get(pk=second).requeued == 0  # never taken: still in the queue
    assert services.audit_run_chunk_process(chunk_id=first) is True
