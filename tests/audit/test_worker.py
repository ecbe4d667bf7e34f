"""The audit with real Celery workers on Redis and PostgreSQL (what `.ci/run` runs).

Each test starts its worker processes (`celery -A casino worker --pool=solo`) on the test database
and, where it can, on a queue of its own; the rounds are committed (transactional tests) so the
workers see them. Skipped, with the reason, in the embedded mode (no CELERY_BROKER_URL).
"""

import json
import os
import re
import signal
import time
import uuid
from collections import Counter, defaultdict

import pytest
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from rest_framework.test import APIClient

from audit import services
from audit.models import AuditRun, Finding
from bench.audit import load_rounds, wait_for_run, worker_output, workers_running
from dealing.choices import AuditStatus
from dealing.engine.simulators import simulate
from dealing.models import Round, RoundAudit
from tests.audit.conftest import expected_codes, sim_doc
from tests.conftest import current_database_url

pytestmark = [
    pytest.mark.worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER,
        reason="needs CELERY_BROKER_URL (Redis) and PostgreSQL for real worker processes; `bash .ci/run` provides both",
    ),
]

# A task of a killed worker comes back after this many seconds (production: an hour, see settings).
VISIBILITY_TIMEOUT = 3


@pytest.fixture
def worker_env():
    """What a worker process needs to work on this test's database."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker tests need PostgreSQL (DATABASE_URL): SQLite cannot be shared with a worker")
    return {
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": current_database_url(),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "CONN_MAX_AGE": "60",
        # The sweep of rounds whose audit never arrived (audit/sweep.py) has tests of its own; here it
        # would only audit the runs' rounds a second time.
        "AUDIT_SWEEP_INTERVAL_S": "0",
    }


def queue_name() -> str:
    return f"test-audit-{uuid.uuid4().hex[:8]}"


def wait_until(condition, *, timeout: float, what: str, procs=()):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            logs = "\n".join(worker_output(p)[-3000:] for p in procs)
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}\n{logs}")
        time.sleep(0.1)


def codes_by_round(ids) -> dict[int, set[str]]:
    found = defaultdict(set)
    for round_id, code in Finding.objects.filter(round_id__in=ids).values_list("round_id", "code"):
        found[round_id].add(code)
    return found


def test_rounds_logged_through_the_api_are_audited_by_the_worker(worker_env, people, floor):
    client = APIClient()
    client.force_authenticate(people.dealer)
    sims = list(simulate("ochko", 24, seed=91, mistake_rate=0.5, table_min=100, table_max=5000, approver="boss-a"))
    # The per-round task goes to the "audit" queue (CELERY_TASK_ROUTES), so this worker serves it.
    with workers_running(1, "audit", env=worker_env) as procs:
        ids = []
        for sim in sims:
            document = sim_doc(sim, table=floor.table_a, dealer=people.dealer)
            response = client.post(
                "/api/v1/rounds/", json.dumps(document, cls=DjangoJSONEncoder), content_type="application/json"
            )
            assert response.status_code == 201, response.content
            ids.append(response.json()["id"])
        wait_until(
            lambda: not Round.objects.filter(pk__in=ids, audit_status=AuditStatus.PENDING).exists(),
            timeout=60,
            what="the worker to audit the logged rounds",
            procs=procs,
        )
    found = codes_by_round(ids)
    for round_id, sim in zip(ids, sims):
        record = Round.objects.get(pk=round_id)
        assert found.get(round_id, set()) == expected_codes(sim)
        assert record.audit_status == (AuditStatus.FINDINGS if sim.code else AuditStatus.CLEAN)
    assert any(sim.code for sim in sims)


@pytest.fixture
def thousand(people, floor):
    """1,000 simulated rounds with injected mistakes, stored with valid chain links (not audited)."""
    expected = {}
    for batch in load_rounds(
        table=floor.table_a,
        dealer=people.dealer,
        n=1000,
        seed=92,
        mistake_rate=0.25,
        pool=1000,
        options={"approver": "boss-a"},
    ):
        expected.update(batch)
    return expected


def start_run(queue: str, *, chunk_size: int = 50) -> AuditRun:
    with transaction.atomic():
        return services.audit_run_start(only_unaudited=False, chunk_size=chunk_size, queue=queue)


def test_a_run_over_1000_rounds_finds_exactly_the_injected_mistakes(worker_env, thousand):
    queue = queue_name()
    with workers_running(2, queue, env=worker_env):
        run = wait_for_run(start_run(queue).pk, timeout=120)
    assert run.status == "done", run.error
    assert (run.rounds_total, run.rounds_done) == (1000, 1000)
    found = codes_by_round(list(thousand))
    for round_id, code in thousand.items():
        assert found.get(round_id, set()) == ({code} if code else set()), round_id
    injected = sum(1 for code in thousand.values() if code)
    assert injected > 150
    assert (run.with_findings, run.clean, run.errors) == (injected, 1000 - injected, 0)
    assert run.findings_by_code == dict(Counter(Finding.objects.values_list("code", flat=True)))
    assert run.findings_total == Finding.objects.count()


def test_a_worker_killed_mid_run_and_another_started_completes_with_identical_counts(worker_env, thousand):
    queue = queue_name()
    with workers_running(1, queue, env=worker_env):
        reference = wait_for_run(start_run(queue).pk, timeout=120)
    assert reference.status == "done"
    reference_findings = sorted(Finding.objects.values_list("round_id", "fingerprint"))

    ids = sorted(thousand)
    queue = queue_name()
    run = start_run(queue)
    with transaction.atomic():
        # Hold the first round of chunk 5 (its audit row, which the verdict is written to): the worker
        # audits chunks 0–4 and then waits on it.
        RoundAudit.objects.select_for_update().filter(round_id=ids[250]).get()
        # Not waited for by ping: with chunks queued, the solo worker may take them before it answers,
        # and then it sits in chunk 5 on the lock; the rounds it audits show that it runs.
        with workers_running(1, queue, env=worker_env, ready=False) as (first,):
            wait_until(
                lambda: AuditRun.objects.get(pk=run.pk).rounds_done == 250,
                timeout=60,
                what="five chunks to be audited",
                procs=[first],
            )
            time.sleep(0.5)
            partial = AuditRun.objects.get(pk=run.pk)
            assert partial.rounds_done == 250 and partial.status == "running"
            os.kill(first.pid, signal.SIGKILL)  # mid-chunk: its transaction never commits, its task is not acked
            first.wait(timeout=10)
    # The lock is released; a new worker takes the queued chunks, and the killed worker's chunk
    # comes back once its visibility timeout has passed.
    with workers_running(1, queue, env=worker_env) as procs:
        run = wait_for_run(run.pk, timeout=120)
        assert "Traceback" not in worker_output(procs[0])
    assert run.status == "done", run.error
    assert run.summary() == reference.summary()
    assert (run.rounds_total, run.rounds_done) == (1000, 1000)
    assert run.chunks.filter(status="done").count() == 20
    # Nothing lost, nothing counted or stored twice.
    assert sorted(Finding.objects.values_list("round_id", "fingerprint")) == reference_findings
    assert run.findings_total == Finding.objects.count() == sum(run.findings_by_code.values())


@pytest.fixture
def audits_counted():
    """Every write of a round's audit status, counted by a trigger: (round id → how many times)."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE test_audit_write (round_id bigint NOT NULL, backend int NOT NULL)")
        cursor.execute("""CREATE FUNCTION test_audit_written() RETURNS trigger LANGUAGE plpgsql AS $$
                          BEGIN INSERT INTO test_audit_write VALUES (NEW.round_id, pg_backend_pid()); RETURN NEW; END $$""")
        # The verdict is an upsert of the round's audit row (its pending row was written with the round).
        cursor.execute(
            "CREATE TRIGGER test_audit_written AFTER INSERT OR UPDATE OF status ON dealing_roundaudit "
            "FOR EACH ROW WHEN (NEW.status <> 'pending') EXECUTE FUNCTION test_audit_written()"
        )

    def counts() -> Counter:
        with connection.cursor() as cursor:
            cursor.execute("SELECT round_id FROM test_audit_write")
            return Counter(round_id for (round_id,) in cursor.fetchall())

    def backends() -> set[int]:
        """The database connections (server processes) that wrote them."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT DISTINCT backend FROM test_audit_write")
            return {pid for (pid,) in cursor.fetchall()}

    counts.backends = backends
    yield counts
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER test_audit_written ON dealing_roundaudit")
        cursor.execute("DROP FUNCTION test_audit_written()")
        cursor.execute("DROP TABLE test_audit_write")


def test_two_workers_audit_every_round_of_a_run_exactly_once(worker_env, thousand, audits_counted):
    queue = queue_name()
    with workers_running(2, queue, env=worker_env) as procs:
        run = wait_for_run(start_run(queue, chunk_size=25).pk, timeout=120)
        logs = [worker_output(proc) for proc in procs]
    assert run.status == "done", run.error
    assert audits_counted() == Counter({round_id: 1 for round_id in thousand})
    assert run.chunks.filter(status="done").count() == 40
    assert (run.rounds_done, run.clean + run.with_findings + run.errors) == (1000, 1000)
    assert run.findings_total == Finding.objects.count() == sum(run.findings_by_code.values())
    assert all("Traceback" not in text for text in logs), logs
    # Each worker kept its connection from chunk to chunk (CONN_MAX_AGE; casino/celery.py), rather
    # than a new server process for each of the 40 chunks.
    assert len(audits_counted.backends()) <= 2
    # That they do not wait for each other is tested in test_parallel.py (two transactions).


def test_rounds_whose_messages_the_broker_lost_are_audited_by_the_workers_sweep(worker_env, people, floor):
    """Rounds logged through the API while no worker runs; their audit messages are purged from
    Redis (a broker restarted without persistence); workers started afterwards find the rounds
    pending in PostgreSQL and audit each one once — the two workers' sweeps never take the same round."""
    from audit import dispatch
    from casino.celery import app

    client = APIClient()
    client.force_authenticate(people.dealer)
    sims = list(simulate("ochko", 30, seed=93, mistake_rate=0.4, table_min=100, table_max=5000, approver="boss-a"))
    ids = []
    for sim in sims:
        response = client.post(
            "/api/v1/rounds/",
            json.dumps(sim_doc(sim, table=floor.table_a, dealer=people.dealer), cls=DjangoJSONEncoder),
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    dispatch.flush()  # the messages reach Redis...
    assert app.control.purge() > 0  # ...and are lost there
    assert Round.objects.filter(pk__in=ids, audit_status=AuditStatus.PENDING).count() == 30

    env = dict(worker_env, AUDIT_SWEEP_GRACE_S="2", AUDIT_SWEEP_INTERVAL_S="1")
    started = time.monotonic()
    with workers_running(2, queue_name(), env=env) as procs:
        wait_until(
            lambda: not Round.objects.filter(pk__in=ids, audit_status=AuditStatus.PENDING).exists(),
            timeout=60,
            what="the workers' sweep to audit the rounds",
            procs=procs,
        )
        took = time.monotonic() - started
        time.sleep(2)  # a pass or two more: nothing left to sweep
        logs = [worker_output(proc) for proc in procs]
    assert took < 60
    swept = sum(int(n) for text in logs for n in re.findall(r"audited (\d+) rounds logged before", text))
    assert swept == 30, logs  # each round audited by one sweep, once
    found = codes_by_round(ids)
    for round_id, sim in zip(ids, sims):
        assert found.get(round_id, set()) == expected_codes(sim)
        assert Round.objects.get(pk=round_id).audit_status == (AuditStatus.FINDINGS if sim.code else AuditStatus.CLEAN)


def test_a_run_whose_worker_died_mid_chunk_resumes_by_itself_long_before_the_broker_redelivers(
    worker_env, people, floor, audits_counted
):
    """Issue #36 item 6: no one presses Resume, the broker keeps the dead worker's message for an hour;
    the periodic look for expired leases (beat's audit_chunks_expired, called here as beat would)
    queues the chunk again and a live worker finishes the run, every round audited once."""
    for _batch in load_rounds(table=floor.table_a, dealer=people.dealer, n=200, seed=93, mistake_rate=0.25, pool=200):
        pass
    ids = sorted(Round.objects.values_list("pk", flat=True))
    env = {**worker_env, "CELERY_VISIBILITY_TIMEOUT": "3600", "AUDIT_CHUNK_LEASE_S": "2"}
    queue = queue_name()
    run = start_run(queue, chunk_size=50)
    with transaction.atomic():
        RoundAudit.objects.select_for_update().filter(round_id=ids[100]).get()  # the third chunk's first round
        with workers_running(1, queue, env=env, ready=False) as (first,):
            wait_until(
                lambda: AuditRun.objects.get(pk=run.pk).rounds_done == 100,
                timeout=60,
                what="two chunks to be audited",
                procs=[first],
            )
            time.sleep(0.5)
            os.kill(first.pid, signal.SIGKILL)  # mid-chunk: its message stays unacknowledged for an hour
            first.wait(timeout=10)
    started = time.monotonic()
    with workers_running(1, queue, env=env) as procs:

        def resumed():
            services.audit_chunks_requeue_expired()
            return AuditRun.objects.get(pk=run.pk).status == "done"

        wait_until(resumed, timeout=60, what="the run to resume by itself", procs=procs)
        assert "Traceback" not in worker_output(procs[0])
    assert time.monotonic() - started < 60
    run = AuditRun.objects.get(pk=run.pk)
    assert (run.rounds_total, run.rounds_done) == (200, 200)
    assert list(run.chunks.order_by("number").values_list("requeued", flat=True)) == [0, 0, 1, 0]
    assert audits_counted() == Counter({round_id: 1 for round_id in ids})
    assert run.findings_total == Finding.objects.count() == sum(run.findings_by_code.values())
