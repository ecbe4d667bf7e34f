"""The live streams under load: `clients` concurrent Server-Sent Events streams held by ONE uvicorn
process while rounds are logged, each stream an auditor's (it receives every event).

The rounds are logged by this process through the service every page and the API use
(dealing.services.round_log, one per `interval` seconds); each commits its row in live's table and
publishes it on Redis; the uvicorn process hears it once and fans it out to its streams. An event's
latency is the time from its row's `created_at` to its arrival at a client (one machine, one clock).
The uvicorn process's resident memory (VmRSS, and the peak VmHWM) is read from /proc.

Needs PostgreSQL and Redis (DATABASE_URL, LIVE_REDIS_URL or a Redis CELERY_BROKER_URL): the bus
between two processes. Writes a bench pit, table and users of its own ("Bench live …").
"""

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.test import Client


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kb(pid: int) -> dict:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1])
    return out


def _user(username: str, role: str, pits):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from casino.models import Staff

    user = get_user_model().objects.create_user(username=username, password=uuid.uuid4().hex)
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    staff = Staff.objects.create(user=user, badge=username[-12:])
    staff.pits.add(*pits)
    return user


def _setup():
    """A pit, a table, a dealer and an auditor of the bench; the auditor's session cookie."""
    from decimal import Decimal

    from casino.models import Pit, Table

    tag = uuid.uuid4().hex[:6]
    pit = Pit.objects.get_or_create(name="Bench live")[0]
    table = Table.objects.create(
        name=f"BL-{tag}",
        pit=pit,
        variant="ochko",
        min_bet=Decimal(1),
        max_bet=Decimal(1_000_000),
        boxes=6,
        chips=["1", "5", "25", "100", "500", "1000", "5000"],
        rules={},
    )
    dealer = _user(f"bl-dealer-{tag}", "dealer", [pit])
    auditor = _user(f"bl-auditor-{tag}", "auditor", [])
    client = Client()
    client.force_login(auditor)
    return table, dealer, client.cookies[settings.SESSION_COOKIE_NAME].value


def _log_rounds(table, dealer, *, rounds: int, interval: float, stop: threading.Event, logged: list):
    from django.db import connections

    from dealing import services
    from dealing.engine.simulators import simulate

    try:
        for sim in simulate("ochko", rounds, seed=5):
            if stop.is_set():
                break
            doc = {
                **sim.doc,
                "id": str(uuid.uuid4()),
                "table": {"name": table.name, "min": 1, "max": 1_000_000},
                "rules": dict(table.rules),
                "dealer": dealer.username,
            }
            doc.pop("played_at", None)
            services.round_log(document=doc, logged_by=dealer, table=table)
            logged.append(time.time())
            time.sleep(interval)
    finally:
        connections.close_all()


async def _client(port: int, cookie: str, after: int, latencies: list, connected: list, kinds: set, table_id: int):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"GET /live/stream?after={after} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: {settings.SESSION_COOKIE_NAME}={cookie}\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream refused: {status!r}")
    connected.append(1)
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"data:") and b'"kind"' in line:
                now = time.time()
                # Chunked transfer encoding: the data line is whole within a chunk.
                message = json.loads(line[5:])
                if message.get("kind") in kinds and message.get("table") == table_id:
                    at = datetime.fromisoformat(message["at"]).timestamp()
                    latencies.append((now - at) * 1000)
    finally:
        writer.close()


def run(*, clients: int = 200, rounds: int = 60, interval: float = 0.5) -> dict:
    from django.db import connection

    redis_url = settings.LIVE_REDIS_URL
    if not redis_url or connection.vendor != "postgresql":
        return {"note": "needs PostgreSQL (DATABASE_URL) and Redis (LIVE_REDIS_URL or CELERY_BROKER_URL)"}
    table, dealer, cookie = _setup()
    with connection.cursor() as c:  # the newest live event: the streams start after it
        c.execute("SELECT COALESCE(MAX(id), 0) FROM live_liveevent")
        cursor = c.fetchone()[0]
    port = _free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "LIVE_REDIS_URL": redis_url,
        "LIVE_CHANNEL": settings.LIVE_CHANNEL or f"casino-live:{connection.settings_dict['NAME']}",
        "LOG_LEVEL": "WARNING",
        # The bench's auditor signs in with force_login, which passes no second factor.
        "OTP_REQUIRED_ROLES": "",
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "casino.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "1",
        ],
        cwd=settings.BASE_DIR,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        idle = _rss_kb(server.pid)
        latencies: list[float] = []
        connected: list[int] = []
        logged: list[float] = []
        stop = threading.Event()

        async def main():
            tasks = []
            for k in range(clients):
                tasks.append(
                    asyncio.create_task(
                        _client(port, cookie, cursor, latencies, connected, {"rounds_logged"}, table.pk)
                    )
                )
                if k % 10 == 9:  # a floor's browsers open over seconds, not in one instant
                    await asyncio.sleep(1.0)
            t0 = time.monotonic()
            while len(connected) < clients and time.monotonic() - t0 < 90:
                await asyncio.sleep(0.1)
            held = _rss_kb(server.pid)
            logger = threading.Thread(
                target=_log_rounds,
                args=(table, dealer),
                kwargs=dict(rounds=rounds, interval=interval, stop=stop, logged=logged),
            )
            logger.start()
            while logger.is_alive():
                await asyncio.sleep(0.2)
            await asyncio.sleep(2)  # the last events' way to every client
            loaded = _rss_kb(server.pid)
            for t in tasks:
                t.cancel()
            failures = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if isinstance(r, Exception)]
            refused = [str(f) for f in failures if not isinstance(f, asyncio.CancelledError)]
            return held, loaded, refused[:3]

        held, loaded, refused = asyncio.run(main())
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    expected = len(logged) * clients
    lat = sorted(latencies)

    def pct(p):
        return round(lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

    return {
        "clients": clients,
        "connected": len(connected),
        "refused": refused,
        "rounds_logged": len(logged),
        "events_expected": expected,
        "events_received": len(lat),
        "latency_ms": {
            "p50": pct(0.50),
            "p95": pct(0.95),
            "p99": pct(0.99),
            "max": round(lat[-1], 1) if lat else None,
            "mean": round(statistics.fmean(lat), 1) if lat else None,
        },
        "rss_mb": {
            "idle": round(idle.get("VmRSS", 0) / 1024, 1),
            "streams_held": round(held.get("VmRSS", 0) / 1024, 1),
            "after_rounds": round(loaded.get("VmRSS", 0) / 1024, 1),
            "peak": round(loaded.get("VmHWM", 0) / 1024, 1),
        },
    }
