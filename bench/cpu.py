"""Server CPU per logged round and per terminal event, measured in-process (no HTTP server).

    from bench.cpu import server_cpu
    server_cpu(rounds=200)   # → {"round_cpu_ms": {...}, "event_cpu_ms": {...}, ...}

    python -m bench.cpu rounds=300 profile=round    # cProfile of the API path, top entries
    python -m bench.cpu rounds=50 profile=event     # cProfile of the terminal's /next

Each request goes through the project's WSGI application (every middleware, the URL resolver, the
view, the database, the answer's bytes) exactly as gunicorn hands it over, but called from this
thread: what is measured is the process's CPU time (`time.process_time`, every thread, so the
audit dispatcher's publishing to the broker counts too) around each call, with no HTTP parsing and
no client sharing the clock. gunicorn's own share (about a tenth, bench/api.py) is not in it.

- a round: `POST /api/v1/rounds/` with a token, the simulated ochko rounds of bench/api.py;
- a terminal event: `POST /tables/<name>/terminal/next` from a signed-in dealer's browser (its
  session cookie, its CSRF token, a terminal id, so each entry is kept in the table's draft), one
  request per event of the same simulated rounds, each carrying the log so far as the page sends
  it; each round then stored with `…/terminal/save`, measured apart.

The audits are queued as in production when a broker is configured (audit/dispatch.py); without
one (eager tasks) they would run inside the request, so the result says which.
"""

import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
import uuid
from contextlib import contextmanager
from importlib import import_module

from django.conf import settings
from django.db import connection
from django.test.utils import override_settings


def _spread(per_pass: list[float]) -> dict:
    return {
        "min": round(min(per_pass), 2),
        "median": round(statistics.median(per_pass), 2),
        "max": round(max(per_pass), 2),
    }


class _Wsgi:
    """Calls the WSGI application with a hand-built environ, as gunicorn would."""

    def __init__(self, headers: dict[str, str]):
        from django.core.wsgi import get_wsgi_application

        self.app = get_wsgi_application()
        self.headers = headers

    def post(self, path: str, body: bytes) -> tuple[int, bytes]:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_HOST": "127.0.0.1",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(body)),
            "wsgi.input": io.BytesIO(body),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "wsgi.version": (1, 0),
            **self.headers,
        }
        status = []
        result = self.app(environ, lambda s, h, exc_info=None: status.append(s))
        try:
            content = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        return int(status[0][:3]), content


def _dealer_browser(fixture) -> dict[str, str]:
    """The headers of a browser where the fixture's dealer is signed in: session and CSRF cookies."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.middleware.csrf import get_token

    from casino.identity import LAST_SEEN

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(fixture.user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = fixture.user.get_session_auth_hash()
    session[LAST_SEEN] = int(time.time())
    session.create()
    secret, token = _csrf(get_token)
    return {
        "HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}={session.session_key}; {settings.CSRF_COOKIE_NAME}={secret}",
        "HTTP_X_CSRFTOKEN": token,
    }


def _csrf(get_token) -> tuple[str, str]:
    """The CSRF cookie's secret and the token a page hands its script for it."""
    from django.http import HttpRequest

    request = HttpRequest()
    token = get_token(request)
    return request.META["CSRF_COOKIE"], token


def _rounds(fixture, n: int, seed: int) -> list[dict]:
    import random

    from dealing.chain import json_safe
    from dealing.engine.ochko import simulator as ochko

    rng = random.Random(seed)
    table = fixture.tables[0]
    docs = []
    for k in range(n):
        doc = json_safe(ochko.simulate_round(rng, number=k, dealer=fixture.user.username, table_name=table.name).doc)
        doc["id"] = str(uuid.uuid4())
        docs.append(doc)
    return docs


def _measure(calls, profile: cProfile.Profile | None) -> list[float]:
    """CPU seconds of each call (statuses checked by the caller)."""
    cpu = time.process_time
    spent = []
    for call in calls:
        t0 = cpu()
        if profile is not None:
            profile.enable()
        call()
        if profile is not None:
            profile.disable()
        spent.append(cpu() - t0)
    return spent


def round_cpu(fixture, rounds: int, seed: int, profile=None) -> list[float]:
    client = _Wsgi({"HTTP_AUTHORIZATION": f"Token {fixture.token}"})
    bodies = [json.dumps(doc).encode() for doc in _rounds(fixture, rounds, seed)]
    statuses: dict[int, int] = {}

    def call(body):
        def run():
            status, _ = client.post("/api/v1/rounds/", body)
            statuses[status] = statuses.get(status, 0) + 1

        return run

    spent = _measure([call(b) for b in bodies], profile)
    if set(statuses) != {201}:
        raise RuntimeError(f"rounds not all stored: {statuses}")
    return spent


def event_cpu(fixture, rounds: int, seed: int, profile=None) -> tuple[list[float], list[float]]:
    """CPU of each `/next` (one per event of each round) and of each round's `/save`."""
    from django.urls import reverse

    client = _Wsgi(_dealer_browser(fixture))
    table = fixture.tables[0]
    nxt = reverse("dealing:terminal_next", kwargs={"name": table.name})
    save = reverse("dealing:terminal_save", kwargs={"name": table.name})
    terminal = "bench-" + uuid.uuid4().hex[:8]
    events, saves = [], []
    for doc in _rounds(fixture, rounds, seed):
        bodies = [
            json.dumps(
                {"id": doc["id"], "terminal": terminal, "stakes": doc["stakes"], "events": doc["events"][: n + 1]}
            ).encode()
            for n in range(len(doc["events"]))
        ]
        whole = json.dumps(
            {"id": doc["id"], "terminal": terminal, "stakes": doc["stakes"], "events": doc["events"]}
        ).encode()
        for body in bodies:
            events += _measure([lambda body=body: _expect(client.post(nxt, body), 200)], profile)
        saves += _measure([lambda whole=whole: _expect(client.post(save, whole), 201)], None)
    return events, saves


def _expect(answer: tuple[int, bytes], status: int) -> None:
    if answer[0] != status:
        raise RuntimeError(f"expected {status}, got {answer[0]}: {answer[1][:300]!r}")


@contextmanager
def as_served():
    """The settings a production server answers with, whatever this process was started with
    (`DEBUG=1` for a management command would log every query; the requests come over plain HTTP
    from 127.0.0.1), and its connection kept across requests as deploy/casino.env.example keeps it
    (CONN_MAX_AGE=60: with the default 0, `make bench`'s throwaway database, each request connected
    anew and a round measured 7.9 ms instead of 3.8). Entered before the WSGI application is made:
    its middleware read them then."""
    db = connection.settings_dict
    kept = db["CONN_MAX_AGE"]
    db["CONN_MAX_AGE"] = 60
    try:
        with override_settings(DEBUG=False, ALLOWED_HOSTS=["127.0.0.1"], SECURE_SSL_REDIRECT=False):
            yield
    finally:
        db["CONN_MAX_AGE"] = kept


def server_cpu(*, rounds: int = 200, events_rounds: int = 40, passes: int = 5, seed: int = 2026) -> dict:
    """Per pass, the mean CPU of a round and of a terminal event; min/median/max over the passes."""
    if connection.vendor != "postgresql":
        return {"note": f"not measured: needs PostgreSQL (DATABASE_URL), not {connection.vendor}"}
    with as_served():
        return _server_cpu(rounds, events_rounds, passes, seed)


def _server_cpu(rounds: int, events_rounds: int, passes: int, seed: int) -> dict:
    from bench.api import Fixture

    fixture = Fixture.create(1)
    try:
        round_cpu(fixture, 20, seed)  # warm-up: imports, caches, the connection
        event_cpu(fixture, 3, seed)
        per_round, per_event, per_save = [], [], []
        for k in range(passes):
            spent = round_cpu(fixture, rounds, seed + 1 + k)
            per_round.append(1000 * sum(spent) / len(spent))
            events, saves = event_cpu(fixture, events_rounds, seed + 100 + k)
            per_event.append(1000 * sum(events) / len(events))
            per_save.append(1000 * sum(saves) / len(saves))
    finally:
        cleanup = fixture.remove()
    return {
        "round_cpu_ms": _spread(per_round),
        "terminal_event_cpu_ms": _spread(per_event),
        "terminal_save_cpu_ms": _spread(per_save),
        "passes": passes,
        "rounds_per_pass": rounds,
        "terminal_rounds_per_pass": events_rounds,
        "how": "in-process WSGI calls, the connection kept (CONN_MAX_AGE=60), CPU of this process (bench/cpu.py); "
        "min/median/max of the passes' means",
        "audit": "run in the request (eager tasks)"
        if settings.CELERY_TASK_ALWAYS_EAGER
        else "queued to the broker (audit/dispatch.py)",
        "cleanup": cleanup,
    }


def profiled(what: str, rounds: int, seed: int = 2026, top: int = 25, dump: str = "") -> str:
    from bench.api import Fixture

    fixture = Fixture.create(1)
    try:
        with as_served():
            round_cpu(fixture, 20, seed)
            event_cpu(fixture, 3, seed)
            profile = cProfile.Profile(time.thread_time)  # CPU, not the waits on the database
            if what == "round":
                spent = round_cpu(fixture, rounds, seed + 1, profile)
            else:
                spent, _ = event_cpu(fixture, rounds, seed + 1, profile)
    finally:
        fixture.remove()
    if dump:
        profile.dump_stats(dump)
    out = io.StringIO()
    out.write(f"{len(spent)} requests, {1000 * sum(spent) / len(spent):.2f} ms CPU each (profiled)\n")
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


if __name__ == "__main__":  # pragma: no cover - `python -m bench.cpu rounds=300 profile=round`
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    django.setup()
    args = dict(arg.split("=") for arg in sys.argv[1:])
    if "profile" in args:
        print(
            profiled(
                args["profile"], int(args.get("rounds", 200)), top=int(args.get("top", 25)), dump=args.get("dump", "")
            )
        )
    else:
        print(json.dumps(server_cpu(**{k: int(v) for k, v in args.items()}), indent=2))
