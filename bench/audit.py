"""Audit throughput: simulated rounds loaded into PostgreSQL, then an audit run with real Celery
worker processes, end to end (`make bench` calls `audit_throughput`).

    from bench.audit import audit_throughput
    audit_throughput(rounds=20_000, workers=2)   # needs PostgreSQL (DATABASE_URL) and Redis (CELERY_BROKER_URL)

Loading. `load_rounds` writes Round rows directly with `bulk_create`, each a valid link of its
table's keyed chain (the same `dealing.chain.seal_round` as `round_log`, so `verify_chain` accepts
them), with the document completed exactly as `round_log` stores it. It skips what a benchmark of
the audit does not need — the per-round engine check at logging, stake rows (unless `with_stakes`:
the chain's benchmark needs them), the per-round audit task — which would make loading a hundred
thousand rounds take minutes instead of seconds.
A pool of simulated rounds (with injected mistakes) is dealt once and repeated under fresh ids.

Measuring. The run covers exactly the loaded rounds (a table of their own), on a queue of its own
served by `workers` solo worker processes started here. Rounds per second is rounds / (run
finished − run started), so planning and every chunk's database work are included; the load is
timed apart. Each worker's peak RSS is read from /proc (VmHWM) when the run is done: chunks hold
at most `chunk_size` rounds, so the peak does not grow with the number of rounds — the figure at a
smaller size is measured too, to show it (`compare_rounds`).
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from casino.models import Pit, Staff, Table
from dealing import chain, engine, hooks
from dealing.engine.base import rules_jsonable
from dealing.engine.simulators import simulate
from dealing.models import Round, Stake
from dealing.services import complete_document

ROOT = Path(settings.BASE_DIR)
User = get_user_model()


def load_rounds(
    *,
    table: Table,
    dealer,
    n: int,
    seed: int = 2026,
    mistake_rate: float = 0.1,
    pool: int = 500,
    batch: int = 1000,
    options: dict | None = None,
    with_stakes: bool = False,
):
    """Append `n` simulated rounds to `table`'s chain, logged by `dealer`. Yields (round id, the
    finding code the simulator injected or None) batch by batch, so a caller may check them.

    `with_stakes`: each round of the pool is checked and settled by the engine as `round_log` does
    (`services.rounds.round_prepare`) and stored with its stake rows and floats, as a verifier reads them."""
    options = dict(options or {})
    options.setdefault("table_min", table.min_bet)
    options.setdefault("table_max", table.max_bet)
    sims = list(simulate(table.variant, min(n, pool), seed=seed, mistake_rate=mistake_rate, **options))
    house_rules = chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules)))
    dealt = [_dealt(sim, table=table, dealer=dealer, with_stakes=with_stakes) for sim in sims]
    done = 0
    while done < n:
        size = min(batch, n - done)
        with transaction.atomic():
            Table.objects.select_for_update().filter(pk=table.pk).first()
            last = Round.objects.filter(table=table).order_by("-chain_index").only("chain_index", "sha256").first()
            index = 0 if last is None else last.chain_index + 1
            prev = "" if last is None else last.sha256
            number = (Round.objects.filter(table=table).aggregate(n=Max("table_round"))["n"] or 0) + 1
            rows, picked = [], []
            now = timezone.now()
            for k in range(size):
                one = dealt[(done + k) % len(dealt)]
                document = dict(one.document, id=str(uuid.uuid4()))
                record = Round(
                    uid=document["id"],
                    table=table,
                    dealer=dealer,
                    variant=table.variant,
                    house_rules=house_rules,
                    table_min=table.min_bet,
                    table_max=table.max_bet,
                    document=document,
                    chain_index=index,
                    table_round=number + k,
                    prev_sha256=prev,
                    logged_by=dealer,
                    logged_at=now,
                    played_at=now,
                    float_owed=one.float_owed,
                    float_logged=one.float_logged,
                )
                chain.seal_round(record, one.stakes)
                prev, index = record.sha256, index + 1
                rows.append(record)
                picked.append(one)
            first = rows[0].chain_index
            _insert(rows)
            ids = list(
                Round.objects.filter(table=table, chain_index__gte=first)
                .order_by("chain_index")
                .values_list("pk", flat=True)
            )
            hooks.rounds_written(ids)  # their pending audit rows, as round_log writes them (audit/state.py)
            if with_stakes:
                Stake.objects.bulk_create(
                    [
                        Stake(round_id=pk, **{name: getattr(s, name) for name in chain.STAKE_FIELDS})
                        for pk, one in zip(ids, picked)
                        for s in one.stakes
                    ],
                    batch_size=5000,
                )
        yield [(pk, one.code) for pk, one in zip(ids, picked)]
        done += size


@dataclass
class _Dealt:
    """One simulated round of the pool, as it is stored (its document, stake rows and floats)."""

    document: dict
    code: str | None
    stakes: list = field(default_factory=list)
    float_owed: Decimal | None = None
    float_logged: Decimal | None = None


def _dealt(sim, *, table: Table, dealer, with_stakes: bool) -> _Dealt:
    doc = dict(sim.doc)
    doc["table"] = {"name": table.name, "min": doc["table"]["min"], "max": doc["table"]["max"]}
    doc["dealer"] = dealer.get_username()  # as round_log stores it where a log names none (a bank game's)
    if not with_stakes:
        return _Dealt(chain.json_safe(complete_document(doc, table=table, logged_by=dealer)), sim.code)
    from dealing.services.rounds import logged_float, round_prepare

    prepared = round_prepare(doc, table=table, logged_by=dealer)
    return _Dealt(
        prepared.document,
        sim.code,
        prepared.stakes,
        chain.money_column(prepared.outcome.float),
        chain.money_column(logged_float(prepared.outcome)),
    )


def _insert(rows: list[Round]) -> None:
    """Insert round records: COPY on PostgreSQL (Django's bulk INSERT quotes every value in Python
    first, which takes longer than the database's work), bulk_create elsewhere."""
    if connection.vendor != "postgresql":
        Round.objects.bulk_create(rows, batch_size=500)
        return
    fields = [f for f in Round._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {Round._meta.db_table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row([_copy_value(f, row) for f in fields])


def _copy_value(field, row):
    value = getattr(row, field.attname)
    if value is None:
        return None
    if field.get_internal_type() == "JSONField":
        return json.dumps(value, cls=field.encoder)
    return field.get_db_prep_save(value, connection)


def bench_floor(tag: str):
    """A pit, an ochko table and a dealer of their own, so a benchmark touches nothing else."""
    from django.contrib.auth.models import Group

    from casino.roles import DEALER

    pit = Pit.objects.create(name=f"bench-{tag}")
    table = Table.objects.create(
        name=f"bench-{tag}",
        pit=pit,
        variant="ochko",
        min_bet=Decimal(100),
        max_bet=Decimal(5000),
        boxes=6,
        chips=["100", "500", "1000", "5000"],
    )
    dealer = User.objects.create(username=f"bench-{tag}")
    dealer.groups.add(Group.objects.get_or_create(name=DEALER)[0])
    Staff.objects.create(user=dealer).pits.add(pit)
    return pit, table, dealer


def bench_floor_remove(pit, table, dealer) -> None:
    from audit.models import AuditRun, Finding

    runs = AuditRun.objects.filter(tables=table)
    with transaction.atomic():
        Finding.objects.filter(table=table).delete()
        for run in runs:
            run.delete()
        # In slices: deleting 100,000 rounds at once makes Django's collector send one statement with
        # more parameters than PostgreSQL takes (65,535).
        ids = list(Round.objects.filter(table=table).order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(ids), 10_000):
            Round.objects.filter(pk__in=ids[start : start + 10_000]).delete()
        Staff.objects.filter(user=dealer).delete()
        table.delete()
        pit.delete()
        dealer.delete()


@contextmanager
def workers_running(count: int, queue: str, *, env: dict | None = None, pool: str = "solo", ready: bool = True):
    """`count` Celery worker processes serving `queue`, ready when the block starts (unless `ready` is
    False: a solo worker that finds work queued may block in a task before it answers the ping, and
    the caller then watches the work instead); stopped after it."""
    from casino.celery import app

    env = {**os.environ, **(env or {})}
    names = [f"{queue}-{k}@{os.uname().nodename}" for k in range(count)]
    logs = [tempfile.TemporaryFile(mode="w+") for _name in names]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "casino",
                "worker",
                f"--pool={pool}",
                "--loglevel=warning",
                "--without-gossip",
                "--without-mingle",
                "-Q",
                queue,
                "-n",
                name,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, log in zip(names, logs)
    ]
    for proc, log in zip(procs, logs):
        proc.log = log
    try:
        if ready:
            wait_for_workers(app, names, timeout=60, procs=procs)
        yield procs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in logs:
            log.close()


def worker_output(proc) -> str:
    """What a worker started by `workers_running` wrote so far."""
    proc.log.flush()
    proc.log.seek(0)
    return proc.log.read()


def wait_for_workers(app, names: list[str], *, timeout: float, procs=()) -> None:
    deadline = time.monotonic() + timeout
    missing = set(names)
    while missing:
        for proc in procs:
            if proc.poll() is not None:
                raise RuntimeError(f"a worker exited at start-up: {worker_output(proc)[-2000:]}")
        replies = app.control.ping(destination=list(missing), timeout=1.0) or []
        for reply in replies:
            missing -= set(reply)
        if missing and time.monotonic() > deadline:
            raise RuntimeError(f"workers did not start within {timeout:g} s: {sorted(missing)}")


def peak_rss_mb(pid: int) -> float:
    """The peak resident set size of a process (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_cpu_seconds() -> float | None:
    """CPU time of PostgreSQL's server processes for the other connections to this database — the
    workers', kept from chunk to chunk — or None when the server is not on this machine."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        pids = [pid for (pid,) in cursor.fetchall()]
    if not pids or not all(os.path.exists(f"/proc/{pid}/stat") for pid in pids):
        return None
    return sum(cpu_seconds(pid) for pid in pids)


def wait_for_run(run_id: int, *, timeout: float):
    from audit.models import AuditRun

    deadline = time.monotonic() + timeout
    while True:
        run = AuditRun.objects.get(pk=run_id)
        if run.is_finished:
            return run
        if time.monotonic() > deadline:
            raise RuntimeError(
                f"audit run #{run_id} did not finish within {timeout:g} s ({run.rounds_done}/{run.rounds_total} rounds)"
            )
        time.sleep(0.05)


def measure(*, rounds: int, workers: int, chunk_size: int, mistake_rate: float, tag: str) -> dict:
    """Load `rounds` rounds, audit them with `workers` fresh worker processes; the figures."""
    from audit import services

    pit, table, dealer = bench_floor(tag)
    try:
        started = time.perf_counter()
        for _batch in load_rounds(table=table, dealer=dealer, n=rounds, mistake_rate=mistake_rate):
            pass
        load_s = time.perf_counter() - started
        queue = f"bench-{tag}"
        # No sweep (audit/sweep.py): the run is what is measured, and its rounds are all pending.
        with workers_running(workers, queue, env={"CONN_MAX_AGE": "600", "AUDIT_SWEEP_INTERVAL_S": "0"}) as procs:
            started_cpu = sum(cpu_seconds(proc.pid) for proc in procs)  # their start-up is not the audit's
            with transaction.atomic():
                run = services.audit_run_start(tables=[table], only_unaudited=True, chunk_size=chunk_size, queue=queue)
            t0 = time.perf_counter()
            run = wait_for_run(run.pk, timeout=max(120, rounds / 200))
            wall = time.perf_counter() - t0
            rss = [peak_rss_mb(proc.pid) for proc in procs]
            worker_cpu = sum(cpu_seconds(proc.pid) for proc in procs) - started_cpu
            database_cpu = database_cpu_seconds()
        took = (run.finished_at - run.created_at).total_seconds()
        assert run.status == "done" and run.rounds_done == rounds, (run.status, run.rounds_done, run.error)
        figures = {
            "rounds": rounds,
            "load_s": round(load_s, 2),
            "audit_s": round(took, 2),
            "wall_s": round(wall, 2),
            "rounds_per_s": round(rounds / took),
            "findings": run.findings_total,
            "with_findings": run.with_findings,
            "worker_peak_rss_mb": rss,
            "worker_cpu_us_per_round": round(worker_cpu / rounds * 1e6),
        }
        if database_cpu is not None:
            figures["database_cpu_us_per_round"] = round(database_cpu / rounds * 1e6)
        return figures
    finally:
        bench_floor_remove(pit, table, dealer)


def audit_throughput(
    *,
    rounds: int = 20_000,
    workers: int = 2,
    chunk_size: int = 500,
    mistake_rate: float = 0.1,
    compare_rounds: int | None = None,
) -> dict:
    """Rounds per second of an audit run with `workers` worker processes over `rounds` stored
    rounds, and the workers' peak RSS at this size and at `compare_rounds` (default rounds / 5)."""
    if connection.vendor != "postgresql":
        return {"note": f"not measured: needs PostgreSQL (DATABASE_URL), not {connection.vendor}"}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"note": "not measured: needs a broker (CELERY_BROKER_URL) for real worker processes"}
    tag = uuid.uuid4().hex[:8]
    compare_rounds = compare_rounds or max(1000, rounds // 5)
    small = measure(
        rounds=compare_rounds, workers=workers, chunk_size=chunk_size, mistake_rate=mistake_rate, tag=f"{tag}s"
    )
    big = measure(rounds=rounds, workers=workers, chunk_size=chunk_size, mistake_rate=mistake_rate, tag=tag)
    # The scale-out figure: the same run with one worker (issue 17's target: 2 workers ≥ 1.8× one).
    one = measure(rounds=rounds, workers=1, chunk_size=chunk_size, mistake_rate=mistake_rate, tag=f"{tag}1")
    return {
        "rounds": rounds,
        "workers": workers,
        "chunk_size": chunk_size,
        "rounds_per_s": big["rounds_per_s"],
        "rounds_per_s_one_worker": one["rounds_per_s"],
        f"{workers}_workers_over_one": round(big["rounds_per_s"] / one["rounds_per_s"], 2)
        if one["rounds_per_s"]
        else None,
        "audit_seconds": big["audit_s"],
        "load_seconds": big["load_s"],
        "load_rounds_per_s": round(rounds / big["load_s"]) if big["load_s"] else None,
        "findings": big["findings"],
        f"worker_peak_rss_mb_at_{rounds}_rounds": big["worker_peak_rss_mb"],
        f"worker_peak_rss_mb_at_{compare_rounds}_rounds": small["worker_peak_rss_mb"],
        f"rounds_per_s_at_{compare_rounds}_rounds": small["rounds_per_s"],
        "worker_cpu_us_per_round": big["worker_cpu_us_per_round"],
        "database_cpu_us_per_round": big.get("database_cpu_us_per_round"),
        "memory": (
            f"each chunk holds at most {chunk_size} rounds and the planner reads ids a slice at a time "
            f"(keyset pagination), so a worker's peak RSS does not grow with the number of rounds: "
            f"1,000,000 rounds are {-(-1_000_000 // chunk_size):,} chunks of the same size"
        ),
    }
