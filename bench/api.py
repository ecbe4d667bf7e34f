"""API ingestion benchmark: `POST /api/v1/rounds/` against a production-style server.

    from bench.api import api_ingestion
    api_ingestion(clients=8, rounds=3000)   # → {"rounds_per_s": …, "p50_ms": …, "p99_ms": …, …}

Starts gunicorn (gthread workers, keep-alive, persistent database connections) on a free port
against the configured PostgreSQL, creates a throwaway pit with its tables (each with an open
shoe), a dealer and an API token, posts simulated ochko rounds (correct ones, dealt in advance,
each with its own id) from `clients` threads over keep-alive connections, and measures throughput
and latency per request. By default each client logs at a table of its own, as a table's terminal
does; `tables=1` puts them all on one table. Every round goes the whole way: the engine reads the
raw body, the table's row lock orders its chain, stakes are written, the audit is queued on commit
— to the broker when CELERY_BROKER_URL is set, otherwise run in the web process before the
response (the result says which). Afterwards every chain is verified and the throwaway rows are
removed.

The clients stand in for the tables' terminals, which run on machines of their own: here they
share the CPU with the server, so they are as light as an HTTP/1.1 client can be (each request's
bytes built before the clock starts, one `sendall`, the answer read by its Content-Length; see
`_post_all`), and the CPU they spend is reported too (`client_cpu_ms_per_round`).

One table's rounds are linked one after another: each waits for the previous one's commit (its
fsync), so a single table takes at most about 1 / (commit time + the few statements under the
lock) rounds a second, however many clients post to it.

Clients, server and database share the machine, so throughput is bounded by the CPU all of them
spend per round: the result gives the server's (`server_cpu_ms_per_round`, gunicorn's processes)
and the database's (`database_cpu_ms_per_round`, the server's PostgreSQL backends, when
PostgreSQL runs on this machine). Where the server's goes (py-spy `--gil` on the running
workers, 2026-11-30, ~3.8 ms a round): the round's statements and their Python round trips
(about a third: the token with its roles and pits — also the kept connection's health check —,
BEGIN, the table's row under its lock, the last link with the shoe's place, the record with its
stakes, the commit: six round trips; the table's row by name comes from the process's cache,
checked under the lock), DRF with the token's check and the response (~15%), gunicorn (~10%),
reading and replaying the round (~9%), the middleware (~5%), the chain's hash (~4%), and the
audits' Celery messages (~2%: a few rounds to a message, audit/dispatch.py — one message per
round cost 16%).

Needs PostgreSQL (DATABASE_URL); on another database it returns a note saying so.
"""

import base64
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

from django.conf import settings
from django.db import connection, transaction

WARMUP_PER_CLIENT = 10


def api_ingestion(
    *,
    clients: int = 8,
    rounds: int = 3000,
    tables: int | None = None,
    workers: int | None = None,
    threads: int = 3,
    seed: int = 2026,
) -> dict:
    """`tables`: how many tables the clients log at — by default one each (a client is a table's
    terminal: its dealer logs one round after another); `tables=1` puts every client on one table,
    whose writers queue for its chain's lock one commit at a time.

    `workers` defaults to one more than the cores, each with `threads` 3: on 2 cores, 3 × 3 served
    8 clients at 320–355 rounds/s in five passes where 2 × 4 gave 235–310, 4 × 2 247–286, 4 × 3
    255–274 and 8 × 1 305–316 (2026-11-30, interleaved). A process's threads share one GIL, so two
    processes leave a core idle whenever both wait on it; a third fills that gap, and more only
    add switching."""
    if connection.vendor != "postgresql":
        return {"note": f"not measured: needs PostgreSQL (DATABASE_URL), not {connection.vendor}"}
    workers = workers or (os.cpu_count() or 2) + 1
    tables = tables or clients
    fixture = Fixture.create(tables)
    try:
        warmup = round_bodies(fixture, clients, WARMUP_PER_CLIENT, seed)
        measured = round_bodies(fixture, clients, -(-rounds // clients), seed + 1)
        queue = _AuditQueue()
        with Server(workers=workers, threads=threads) as server:
            _post_all(server.port, fixture.token, warmup)
            backends = _Backends()  # the server's connections, open since the warm-up (CONN_MAX_AGE)
            cpu_before, db_before = server.cpu_seconds(), backends.cpu_seconds()
            started, client_before = time.perf_counter(), time.process_time()
            latencies, statuses = _post_all(server.port, fixture.token, measured)
            elapsed, client_cpu = time.perf_counter() - started, time.process_time() - client_before
            cpu_after, db_after = server.cpu_seconds(), backends.cpu_seconds()
        stored, chain_ok = fixture.check()
        audits = queue.take(fixture.round_ids())
    finally:
        cleanup = fixture.remove()
    ms = sorted(x * 1000 for x in latencies)
    ok = statuses.get(201, 0)
    return {
        "rounds": len(latencies),
        "clients": clients,
        "tables": tables,
        "rounds_per_s": round(ok / elapsed),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
        "max_ms": round(ms[-1], 1),
        "server_cpu_ms_per_round": (
            round((cpu_after - cpu_before) * 1000 / len(latencies), 1) if None not in (cpu_before, cpu_after) else None
        ),
        "database_cpu_ms_per_round": (
            round((db_after - db_before) * 1000 / len(latencies), 1) if None not in (db_before, db_after) else None
        ),
        "client_cpu_ms_per_round": round(client_cpu * 1000 / len(latencies), 2),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "stored": stored,
        "chain": "intact" if chain_ok else "BROKEN",
        "server": (
            f"gunicorn, {workers} gthread workers × {threads} threads, keep-alive, CONN_MAX_AGE=60"
            + (
                ", prepared statements"
                if settings.DATABASES["default"].get("OPTIONS", {}).get("prepare_threshold") is not None
                else ""
            )
        ),
        "audit": (
            "run in the web process on commit, before the response (no broker)"
            if settings.CELERY_TASK_ALWAYS_EAGER
            else "queued to the broker on commit, the rounds of each 100 ms in one message (audit/dispatch.py); "
            "no worker runs them during the measurement"
        ),
        "audits_queued": audits,
        "cleanup": cleanup,
    }


class _AuditQueue:
    """How the audits of the rounds stored reached the broker, read off its queue once the server
    has stopped (so after each worker sent what it held when it exited). Only the messages pushed
    since this was made are read — Redis lists grow at the head, and an earlier run may have left
    messages about rounds of another database with the same ids — and those are then taken off the
    queue, so no worker later audits rounds the cleanup removes."""

    def __init__(self):
        broker = settings.CELERY_BROKER_URL
        self.client = None
        if not settings.CELERY_TASK_ALWAYS_EAGER and broker.startswith("redis"):
            import redis

            self.client = redis.Redis.from_url(broker)
            self.queue = getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")
            self.before = self.client.llen(self.queue)

    def take(self, round_ids: set[int]) -> str:
        if self.client is None:
            return "not read (no Redis broker)"
        queued: list[int] = []
        messages = 0
        for raw in self.client.lrange(self.queue, 0, self.client.llen(self.queue) - self.before - 1):
            try:
                message = json.loads(raw)
                if message["headers"]["task"] not in ("audit.tasks.audit_rounds", "audit.tasks.audit_round"):
                    continue
                args = json.loads(base64.b64decode(message["body"]))[0]
            except (ValueError, KeyError, TypeError, IndexError):
                continue
            ids = args[0] if isinstance(args[0], list) else [args[0]]
            if ids and set(ids) <= round_ids:
                queued += ids
                messages += 1
                self.client.lrem(self.queue, 1, raw)
        twice = len(queued) - len(set(queued))
        return (
            f"{len(set(queued))} of {len(round_ids)} rounds in {messages} messages"
            + (f", {twice} ids twice" if twice else "")
            + " (taken off the queue afterwards)"
        )


# --- the throwaway floor ----------------------------------------------------------------------------


class Fixture:
    def __init__(self, pit, tables, user, token):
        self.pit, self.tables, self.user, self.token = pit, tables, user, token

    @classmethod
    def create(cls, tables: int = 1):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.models import Group
        from knox.models import AuthToken

        from casino.models import Pit, Staff, Table
        from casino.roles import DEALER
        from dealing import services

        tag = uuid.uuid4().hex[:8]
        with transaction.atomic():
            pit = Pit.objects.create(name=f"bench-{tag}")
            made = [
                Table.objects.create(
                    name=f"B-{tag}-{k + 1}",
                    pit=pit,
                    variant="ochko",
                    min_bet=Decimal(100),
                    max_bet=Decimal(5000),
                    boxes=6,
                    chips=["100", "500", "1000", "5000"],
                )
                for k in range(tables)
            ]
            user = get_user_model().objects.create_user(username=f"bench-dealer-{tag}", password=uuid.uuid4().hex)
            user.groups.add(Group.objects.get(name=DEALER))
            Staff.objects.create(user=user).pits.add(pit)
            _token, token = AuthToken.objects.create(user=user)
        for table in made:  # each table deals from an open shoe, as on the floor
            services.shoe_start(table=table, shuffled_by=user)
        return cls(pit, made, user, token)

    def check(self) -> tuple[int, bool]:
        from dealing.services import chain_verify

        stored, intact = 0, True
        for table in self.tables:
            report = chain_verify(table=table)
            stored += report.records
            intact = intact and report.ok
        return stored, intact

    def round_ids(self) -> set[int]:
        from dealing.models import Round

        return set(Round.objects.filter(table__pit=self.pit).values_list("pk", flat=True))

    def remove(self) -> str:
        from dealing.models import Round, Shoe, ShoeEvent, Stake

        try:
            with transaction.atomic():
                Stake.objects.filter(round__table__pit=self.pit).delete()
                Round.objects.filter(table__pit=self.pit).delete()
                ShoeEvent.objects.filter(shoe__table__pit=self.pit).delete()
                Shoe.objects.filter(table__pit=self.pit).delete()
                for table in self.tables:
                    table.delete()
                self.pit.delete()
                self.user.delete()
        except Exception as exc:  # noqa: BLE001 - report, never fail the benchmark over its cleanup
            return f"left pit {self.pit.name} in the database ({exc.__class__.__name__}: {exc})"
        return "throwaway tables, dealer and rounds removed"


def round_bodies(fixture: "Fixture", clients: int, per_client: int, seed: int) -> list[list[bytes]]:
    """Each client's rounds, at its table (client k at table k modulo the tables)."""
    from dealing.chain import json_safe
    from dealing.engine.ochko import simulator as ochko

    rng = random.Random(seed)
    shares = []
    for k in range(clients):
        table = fixture.tables[k % len(fixture.tables)]
        share = []
        for n in range(per_client):
            doc = ochko.simulate_round(rng, number=n, dealer=fixture.user.username, table_name=table.name).doc
            doc["id"] = str(uuid.uuid4())  # the same rounds every run, each time new ones to the server
            share.append(json.dumps(json_safe(doc)).encode())
        shares.append(share)
    return shares


# --- the server and the clients ------------------------------------------------------------------------


class Server:
    def __init__(self, *, workers: int, threads: int):
        self.workers, self.threads = workers, threads
        self.port = _free_port()
        self.process = None

    def __enter__(self):
        env = dict(
            os.environ,
            DEBUG="0",
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0",
            CONN_MAX_AGE="60",
            LOG_LEVEL="WARNING",
            DJANGO_SETTINGS_MODULE="casino.settings",
            DATABASE_URL=os.environ.get("DATABASE_URL", ""),
        )
        env.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
        # The server links the rounds under the key this process verifies them with.
        env.update(
            CHAIN_KEY=settings.CHAIN_KEY,
            CHAIN_KEY_ID=settings.CHAIN_KEY_ID,
            CHECKPOINT_DIR=str(settings.CHECKPOINT_DIR),
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "casino.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(self.threads),
                "--keep-alive",
                "60",
                "--log-level",
                "warning",
            ],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
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

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) used so far by the server's processes (Linux /proc; else None)."""
        if not os.path.isdir("/proc"):
            return None
        total = 0
        for entry in os.listdir("/proc"):
            fields = _stat(entry) if entry.isdigit() else None  # None too for a process that ended meanwhile
            if fields is not None and self.process.pid in (int(entry), int(fields[1])):  # the master, its workers
                total += _cpu_ticks(fields)
        return total / os.sysconf("SC_CLK_TCK")

    def __exit__(self, *exc):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class _Backends:
    """The PostgreSQL backends serving the benchmark's database (but this process's own), when
    PostgreSQL runs on this machine: their CPU time is the database's share of each round."""

    def __init__(self):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            )
            self.pids = [pid for (pid,) in cursor.fetchall()]

    def cpu_seconds(self) -> float | None:
        if not self.pids or not os.path.isdir("/proc"):
            return None
        total = 0
        for pid in self.pids:
            fields = _stat(pid)
            if fields is None:  # not on this machine, or gone
                return None
            total += _cpu_ticks(fields)
        return total / os.sysconf("SC_CLK_TCK")


def _stat(pid) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (ppid first), or None: no such process."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _cpu_ticks(fields: list[str]) -> int:
    return int(fields[11]) + int(fields[12])  # utime + stime


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post_all(port: int, token: str, shares: list[list[bytes]]) -> tuple[list[float], dict]:
    """Post each share of bodies from its own thread, each on its own keep-alive connection.

    The clients stand in for the tables' terminals, which run on other machines: here they share
    the CPU with the server and the database, so they are kept as light as a correct HTTP/1.1
    client can be. Each request is built as raw bytes before the clock starts (request line,
    headers, body), sent with one `sendall`, and its answer read with a few `recv` calls: the
    status from the status line, the body by its Content-Length (or its chunks). `http.client`
    spent about four times as much CPU a request (0.37 ms against 0.10 ms, most of it parsing
    headers through `email`), CPU the server then did not have."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    start = threading.Barrier(len(shares))
    head = (
        f"POST /api/v1/rounds/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Token {token}\r\n"
        "Content-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: "
    ).encode()
    requests = [[head + str(len(body)).encode() + b"\r\n\r\n" + body for body in share] for share in shares]

    def client(share: list[bytes]):
        conn = RawConnection(port)
        mine, codes = [], {}
        clock = time.perf_counter
        start.wait()
        for request in share:
            t0 = clock()
            status = conn.exchange(request)
            mine.append(clock() - t0)
            codes[status] = codes.get(status, 0) + 1
        conn.close()
        with lock:
            latencies.extend(mine)
            for code, count in codes.items():
                statuses[code] = statuses.get(code, 0) + count

    workers = [threading.Thread(target=client, args=(share,)) for share in requests]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, statuses


class RawConnection:
    """One keep-alive HTTP/1.1 connection that sends prepared requests and reads whole answers.
    Reconnects when the server closes the connection (`Connection: close`, or an idle timeout)."""

    def __init__(self, port: int):
        self.port = port
        self.sock = None

    def _connect(self):
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def exchange(self, request: bytes) -> int:
        """Send one request, read its whole answer; the status code."""
        fresh = self.sock is None
        if fresh:
            self._connect()
        try:
            self.sock.sendall(request)
            buf = self.sock.recv(65536)
        except OSError:
            buf = b""
        if not buf:  # the server closed the kept-alive connection meanwhile: once more on a new one
            if fresh:
                raise ConnectionError("the server closed the connection without answering")
            self.close()
            return self.exchange(request)
        end = buf.find(b"\r\n\r\n")
        while end < 0:
            buf += self._more()
            end = buf.find(b"\r\n\r\n")
        status = int(buf[9:12])
        headers = buf[:end].lower()
        body_start = end + 4
        at = headers.find(b"\r\ncontent-length:")
        if at >= 0:
            stop = headers.find(b"\r\n", at + 2)
            length = int(headers[at + 17 : stop if stop >= 0 else None])
            have = len(buf) - body_start
            while have < length:
                have += len(self._more())
        elif b"\r\ntransfer-encoding: chunked" in headers:
            self._read_chunks(buf[body_start:])
        else:  # no length: the body runs to the end of the connection
            while self.sock.recv(65536):
                pass
            self.close()
            return status
        if b"\r\nconnection: close" in headers:
            self.close()
        return status

    def _more(self) -> bytes:
        more = self.sock.recv(65536)
        if not more:
            raise ConnectionError("the server closed the connection in the middle of an answer")
        return more

    def _read_chunks(self, data: bytes) -> None:
        while True:
            line_end = data.find(b"\r\n")
            while line_end < 0:
                data += self._more()
                line_end = data.find(b"\r\n")
            size = int(data[:line_end].split(b";")[0], 16)
            need = line_end + 2 + size + 2
            while len(data) < need:
                data += self._more()
            if size == 0:
                return
            data = data[need:]


if __name__ == "__main__":  # pragma: no cover - `python -m bench.api rounds=1000 tables=1` for quick runs
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + uuid.uuid4().hex)
    django.setup()
    args = dict(arg.split("=") for arg in sys.argv[1:])  # e.g. rounds=2000 tables=1 workers=4 threads=2
    print(json.dumps(api_ingestion(**{k: int(v) for k, v in args.items()}), indent=2))
