"""API ingestion benchmark: `POST /api/v1/rounds/` against a production-style server.

    from dealing.bench import api_ingestion
    api_ingestion(clients=8, rounds=3000)   # → {"rounds_per_s": …, "p50_ms": …, "p99_ms": …, …}

Starts gunicorn (gthread workers, keep-alive, persistent database connections) on a free port
against the configured PostgreSQL, creates a throwaway pit, table, dealer and API token, posts
simulated ochko rounds (correct ones, dealt in advance, each with its own id) from `clients`
threads over keep-alive connections, and measures throughput and latency per request. Every
round goes the whole way: the engine reads the raw body, the table's row lock orders the chain,
stakes are written, the audit is queued on commit — to the broker when CELERY_BROKER_URL is set,
otherwise run in the web process before the response (the result says which). Afterwards the
chain of the table is verified and the throwaway rows are removed.

Needs PostgreSQL (DATABASE_URL); on another database it returns a note saying so.
"""

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

WARMUP_PER_CLIENT = 10


def api_ingestion(*, clients: int = 8, rounds: int = 3000, workers: int | None = None, threads: int = 4,
                  seed: int = 2026) -> dict:
    if connection.vendor != "postgresql":
        return {"note": f"not measured: needs PostgreSQL (DATABASE_URL), not {connection.vendor}"}
    workers = workers or max(2, os.cpu_count() or 2)
    fixture = _Fixture.create()
    try:
        bodies = _bodies(fixture, clients * WARMUP_PER_CLIENT + rounds, seed)
        warmup, measured = bodies[:clients * WARMUP_PER_CLIENT], bodies[clients * WARMUP_PER_CLIENT:]
        with _Server(workers=workers, threads=threads) as server:
            _post_all(server.port, fixture.token, warmup, clients)
            started = time.perf_counter()
            latencies, statuses = _post_all(server.port, fixture.token, measured, clients)
            elapsed = time.perf_counter() - started
        stored, chain_ok = fixture.check()
    finally:
        cleanup = fixture.remove()
    ms = sorted(x * 1000 for x in latencies)
    ok = statuses.get(201, 0)
    return {
        "rounds": len(measured),
        "clients": clients,
        "rounds_per_s": round(ok / elapsed),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
        "max_ms": round(ms[-1], 1),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "stored": stored,
        "chain": "intact" if chain_ok else "BROKEN",
        "server": f"gunicorn, {workers} gthread workers × {threads} threads, keep-alive, CONN_MAX_AGE=60",
        "audit": ("run in the web process on commit, before the response (no broker)"
                  if settings.CELERY_TASK_ALWAYS_EAGER else
                  "queued to the broker on commit (no worker runs it during the measurement)"),
        "cleanup": cleanup,
    }


# --- the throwaway floor ----------------------------------------------------------------------------

class _Fixture:
    def __init__(self, pit, table, user, token, shoe):
        self.pit, self.table, self.user, self.token, self.shoe = pit, table, user, token, shoe

    @classmethod
    def create(cls):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from rest_framework.authtoken.models import Token

        from casino.models import Pit, Staff, Table
        from casino.roles import DEALER
        from dealing import services

        tag = uuid.uuid4().hex[:8]
        with transaction.atomic():
            pit = Pit.objects.create(name=f"bench-{tag}")
            table = Table.objects.create(name=f"B-{tag}", pit=pit, variant="ochko", min_bet=Decimal(100),
                                         max_bet=Decimal(5000), boxes=6, chips=["100", "500", "1000", "5000"])
            user = get_user_model().objects.create_user(username=f"bench-dealer-{tag}", password=uuid.uuid4().hex)
            user.groups.add(Group.objects.get(name=DEALER))
            Staff.objects.create(user=user).pits.add(pit)
            token = Token.objects.create(user=user).key
        shoe = services.shoe_start(table=table, shuffled_by=user)
        return cls(pit, table, user, token, shoe)

    def check(self) -> tuple[int, bool]:
        from dealing import chain
        from dealing.models import Round

        rounds = Round.objects.filter(table=self.table).order_by("chain_index").select_related("supersedes")
        return rounds.count(), chain.verify_table(self.table, rounds.iterator()) is None

    def remove(self) -> str:
        from dealing.models import Round, Shoe, ShoeEvent, Stake

        try:
            with transaction.atomic():
                Stake.objects.filter(round__table=self.table).delete()
                Round.objects.filter(table=self.table).delete()
                ShoeEvent.objects.filter(shoe__table=self.table).delete()
                Shoe.objects.filter(table=self.table).delete()
                self.table.delete()
                self.pit.delete()
                self.user.delete()
        except Exception as exc:  # noqa: BLE001 - report, never fail the benchmark over its cleanup
            return f"left table {self.table.name} in the database ({exc.__class__.__name__}: {exc})"
        return "throwaway table, dealer and rounds removed"


def _bodies(fixture: "_Fixture", n: int, seed: int) -> list[bytes]:
    from dealing.chain import json_safe
    from dealing.engine.simulators import ochko

    rng = random.Random(seed)
    bodies = []
    for k in range(n):
        doc = ochko.simulate_round(rng, number=k, dealer=fixture.user.username, table_name=fixture.table.name).doc
        doc["id"] = str(uuid.uuid4())  # the same rounds every run, each time new ones to the server
        bodies.append(json.dumps(json_safe(doc)).encode())
    return bodies


# --- the server and the clients ------------------------------------------------------------------------

class _Server:
    def __init__(self, *, workers: int, threads: int):
        self.workers, self.threads = workers, threads
        self.port = _free_port()
        self.process = None

    def __enter__(self):
        env = dict(os.environ, DEBUG="0", ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0", CONN_MAX_AGE="60",
                   LOG_LEVEL="WARNING", DJANGO_SETTINGS_MODULE="casino.settings",
                   DATABASE_URL=os.environ.get("DATABASE_URL", ""))
        env.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "casino.wsgi", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "--worker-class", "gthread", "--threads", str(self.threads),
             "--keep-alive", "60", "--log-level", "warning"],
            cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.process.stderr.read().decode()[-2000:]}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                conn.getresponse().read()
                conn.close()
                return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError("gunicorn did not answer within 60 s")

    def __exit__(self, *exc):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post_all(port: int, token: str, bodies: list[bytes], clients: int) -> tuple[list[float], dict]:
    """Post every body from `clients` threads, each on its own keep-alive connection."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    start = threading.Barrier(clients)
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Connection": "keep-alive"}

    def client(share: list[bytes]):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine, codes = [], {}
        start.wait()
        for body in share:
            t0 = time.perf_counter()
            conn.request("POST", "/api/v1/rounds/", body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            mine.append(time.perf_counter() - t0)
            codes[response.status] = codes.get(response.status, 0) + 1
        conn.close()
        with lock:
            latencies.extend(mine)
            for code, count in codes.items():
                statuses[code] = statuses.get(code, 0) + count

    workers = [threading.Thread(target=client, args=(bodies[i::clients],)) for i in range(clients)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, statuses


if __name__ == "__main__":  # pragma: no cover - `python -m dealing.bench [rounds]` for quick runs
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
    django.setup()
    print(json.dumps(api_ingestion(rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 3000), indent=2))
