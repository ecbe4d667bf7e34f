import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings

from tests.conftest import CHROMIUM, current_database_url
from tests.factories import PASSWORD


@pytest.fixture(params=["memory", "redis"])
def bus_kind(request, settings):
    """Each test on the in-memory bus and on Redis (skipped when CELERY_BROKER_URL names no Redis)."""
    if request.param == "memory":
        settings.LIVE_REDIS_URL = ""
    elif not settings.LIVE_REDIS_URL:
        pytest.skip("no Redis configured (CELERY_BROKER_URL or LIVE_REDIS_URL)")
    return request.param


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_bus() -> str:
    """The server's LIVE_REDIS_URL: the in-memory bus of its one process, unless a test names a Redis."""
    return ""


@pytest.fixture
def asgi_server(floor, asgi_bus):
    """uvicorn serving casino.asgi on the test database; its URL."""
    port = _free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": current_database_url(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_BROKER_URL": "",
        "LIVE_REDIS_URL": asgi_bus,
    }
    proc = subprocess.Popen(
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
        ],
        cwd=Path(settings.BASE_DIR),
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def browser(asgi_server, monkeypatch):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    playwright_sync = pytest.importorskip("playwright.sync_api")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])

        def context(username, width=1366):
            ctx = chromium.new_context(base_url=asgi_server, viewport={"width": width, "height": 900})
            page = ctx.new_page()
            page.set_default_timeout(15_000)
            page.goto("/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_load_state()
            return page

        yield context
        chromium.close()
    from django.db import connections

    connections.close_all()


class PrivateRedis:
    """A throw-away redis-server: no snapshot, no append-only file, so a restart starts empty, as a
    broker that crashed would (publish/subscribe keeps nothing anyway)."""

    def __init__(self, tmp_path):
        self.port = _free_port()
        self.pidfile = tmp_path / "redis.pid"
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        subprocess.run(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            + ["--daemonize", "yes", "--pidfile", str(self.pidfile), "--dir", str(self.pidfile.parent)],
            check=True,
            capture_output=True,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        try:
            redis.Redis.from_url(self.url, socket_connect_timeout=0.2).shutdown(nosave=True)
        except redis.ConnectionError:
            pass  # the shutdown closes the connection that asked for it
        deadline = time.monotonic() + 10
        while self.pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.05)


@pytest.fixture
def private_redis(tmp_path, settings):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = PrivateRedis(tmp_path)
    server.start()
    settings.LIVE_REDIS_URL = server.url
    settings.LIVE_BUS_TIMEOUT_S = 1
    yield server
    server.stop()
