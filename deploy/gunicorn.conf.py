"""gunicorn's configuration for the web processes: `gunicorn -c deploy/gunicorn.conf.py casino.wsgi`.

Every value comes from the environment, with the defaults the API benchmark measured
(docs/benchmarks.md): gthread workers, cores + 1 of them, 3 threads each. .ci/run starts the
production-mode server with this very file. docs/operations.md explains the sizing.

    GUNICORN_BIND           127.0.0.1:8000 (behind the TLS-terminating proxy)
    GUNICORN_WORKERS        cores + 1
    GUNICORN_THREADS        3
    GUNICORN_TIMEOUT        60   seconds a request may take before its worker is restarted
    GUNICORN_GRACEFUL_TIMEOUT 30 seconds a stopping worker gets to finish its requests
    GUNICORN_KEEPALIVE      60   seconds an idle keep-alive connection is held (the proxy's upstream)
    GUNICORN_ACCESS_LOG     -    where the access log goes ("-": stdout; "" turns it off)
    GUNICORN_CONTROL_SOCKET      gunicornc's socket (default: the unit's runtime directory)
    PROMETHEUS_MULTIPROC_DIR     a directory for the workers' metrics files, merged at /metrics
"""

import glob
import json
import multiprocessing
import os
from datetime import UTC, datetime

from gunicorn import glogging

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 3))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 60))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", 30))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 60))
# The game math is solved once in the master before the workers fork (GAMEMATH_WARM=1), and the
# application's import cost is paid once.
preload_app = True
# No request-line limit of gunicorn's own (an HTML 414): the application answers every URL itself.
limit_request_line = 0
# A worker restarted now and then (jittered, so not all at once) returns memory a long life holds.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 20000))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
errorlog = "-"
# The application's own logging (casino/settings.py LOGGING) goes to stderr too.
capture_output = False
# gunicornc's control socket: GUNICORN_CONTROL_SOCKET, else the unit's runtime directory (systemd's
# RuntimeDirectory=), else gunicorn's default ($XDG_RUNTIME_DIR or ~/.gunicorn, which a hardened
# unit cannot write).
if os.environ.get("GUNICORN_CONTROL_SOCKET") or os.environ.get("RUNTIME_DIRECTORY"):
    control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or os.path.join(
        os.environ["RUNTIME_DIRECTORY"], "gunicorn.ctl"
    )
# X-Forwarded-* trusted from the local proxy only.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")


class JsonAccessLogger(glogging.Logger):
    """The access log as one JSON object per request, with the request id the application echoed
    (X-Request-ID), so the access line and the application's lines of one request can be joined.
    json.dumps escapes what a client sent (a path, a user agent): no line can be forged."""

    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        headers = dict((name.lower(), value) for name, value in (resp.headers or ()))
        entry = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "logger": "gunicorn.access",
            "remote": environ.get("REMOTE_ADDR"),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            "query": environ.get("QUERY_STRING") or None,
            "status": int(str(resp.status).split(None, 1)[0]),
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(request_time.total_seconds() * 1000, 1),
            "request_id": headers.get("x-request-id"),
            "user_agent": environ.get("HTTP_USER_AGENT"),
        }
        try:
            self.access_log.info("%s", json.dumps(entry, ensure_ascii=False))
        except Exception:  # a log line never fails a request
            self.exception("could not write the access log line")


logger_class = JsonAccessLogger


def _fresh_metrics_directory() -> None:
    """prometheus_client's multiprocess mode: the directory exists before the application is loaded
    (preload_app: the master creates its metrics then), emptied of a previous run's metrics files
    (only those: the variable might name a directory that holds something else too)."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        os.makedirs(directory, exist_ok=True)
        for stale in glob.glob(os.path.join(directory, "*.db")):
            os.remove(stale)


_fresh_metrics_directory()


def child_exit(server, worker):
    """A worker gone: its live gauges leave the merged metrics (its counters stay counted)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
