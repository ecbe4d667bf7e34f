"""The sweep of rounds whose audit never arrived, run by every Celery worker — no beat needed.

The audits of logged rounds travel as broker messages (audit/dispatch.py), and a broker kept without
persistence loses what it holds when it restarts. Which rounds still need an audit is known from
PostgreSQL, though: a round is `pending` until audited. So each worker process runs a thread that
every `AUDIT_SWEEP_INTERVAL_S` (default 30 s; the first time as the worker starts) audits the rounds
pending for more than `AUDIT_SWEEP_GRACE_S` (default 60 s) — `services.rounds_overdue_audit`, which
lets one worker sweep at a time (an advisory lock) and skips rounds a task is writing (SKIP LOCKED).
A round logged just before the broker lost its message is audited at most grace + interval (90 s)
after it was logged, or after a worker is back if none was running.

Started by the `worker_ready` signal (audit/apps.py connects it), so it runs in `celery worker`
processes only — not in web processes, not in tests that run tasks eagerly — and stopped by
`worker_shutdown`. With a prefork pool it runs in the worker's main process, beside the pool.
"""

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)


class Sweeper:
    """A daemon thread calling `sweep()` now and then every `interval` seconds until stopped."""

    def __init__(self, sweep, *, interval: float):
        self._sweep, self._interval = sweep, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="audit-sweep", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._sweep()
            except Exception:  # the database away for a moment, say: the next pass tries again
                log.exception("the sweep of rounds not audited failed; trying again in %g s", self._interval)
            finally:
                # The thread's own connection; between passes it would only sit idle on the server.
                connections.close_all()
            self._stop.wait(self._interval)


def sweep_once() -> int:
    from .services import rounds_overdue_audit

    return rounds_overdue_audit(grace=timedelta(seconds=settings.AUDIT_SWEEP_GRACE_S), limit=settings.AUDIT_SWEEP_LIMIT)


_sweeper: Sweeper | None = None


def on_worker_ready(sender=None, **kwargs) -> None:
    global _sweeper
    if settings.AUDIT_SWEEP_INTERVAL_S <= 0 or _sweeper is not None:
        return
    _sweeper = Sweeper(sweep_once, interval=settings.AUDIT_SWEEP_INTERVAL_S)
    _sweeper.start()


def sweeper_running() -> bool:
    """Whether this process runs its sweeper (started by on_worker_ready)."""
    return _sweeper is not None


def on_worker_shutdown(sender=None, **kwargs) -> None:
    global _sweeper
    sweeper, _sweeper = _sweeper, None
    if sweeper is not None:
        sweeper.stop()
