"""Queuing the audits of the rounds a process logs, a few rounds to a Celery message.

Every round logged is audited by a worker (`audit.tasks.audit_rounds`). Publishing a Celery message
costs a web process about a sixth of the CPU it spends on a round (measured with py-spy inside
gunicorn under `python -m bench.api`: more than the round's INSERT). So the rounds committed
within `AUDIT_QUEUE_LINGER_MS` of each other (default 100 ms) share one message, published by a
thread of the process's own instead of by the dealer's request.

What that changes, and what it does not:
- A round's audit starts at most the linger later than it would have; its findings still appear
  within moments of the round.
- The dealer's request no longer waits for the broker, nor fails when the broker is down after his
  round is stored: the ids wait here and are sent again with backoff (at most `MAX_PENDING` of
  them; older ones are dropped with a warning when that fills).
- A round whose message never leaves (the process killed outright, the broker down for long) is
  no more lost than one whose message is lost in the broker: it stays `pending`, and the workers'
  sweep audits it a minute after it was logged (audit/sweep.py, AUDIT_SWEEP_GRACE_S).
- A process that exits normally (gunicorn restarting a worker, the end of a command) sends what it
  holds first.

With `AUDIT_QUEUE_LINGER_MS=0`, or without a broker (tasks run eagerly, in-process), every round's
audit is queued by itself as soon as its transaction commits, in the request.
"""

import atexit
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable

from celery import current_app
from django.conf import settings

log = logging.getLogger(__name__)

BATCH_MAX = 200  # ids in one message: an audit task of a few hundred rounds takes well under a second
MAX_PENDING = 100_000  # a few MB of ids; a broker down for long loses to the nightly audit, not memory
RETRY_MAX_SECONDS = 30.0


class Dispatcher:
    """Collects ids and hands them to `send` in batches: when `linger` seconds have passed since the
    first of a batch arrived, or when `batch_max` are waiting. A failed `send` is tried again after
    a pause that doubles up to `retry_max` seconds. One thread, started with the first id."""

    def __init__(
        self,
        send: Callable[[list[int]], None],
        *,
        linger: float,
        batch_max: int = BATCH_MAX,
        max_pending: int = MAX_PENDING,
        retry_max: float = RETRY_MAX_SECONDS,
    ):
        self._send, self._linger, self._batch_max = send, linger, batch_max
        self._max_pending, self._retry_max = max_pending, retry_max
        self._pending: list[int] = []
        self._trimmed = 0  # ids dropped from the front of _pending when it filled, ever
        self._first_at = 0.0
        self._wake = threading.Condition()
        self._closing = False
        self._thread: threading.Thread | None = None

    def add(self, ids: Iterable[int]) -> None:
        with self._wake:
            was_empty = not self._pending
            self._pending.extend(ids)
            if was_empty:
                self._first_at = time.monotonic()
            overflow = len(self._pending) - self._max_pending
            if overflow > 0:
                del self._pending[:overflow]
                self._trimmed += overflow
                log.warning("audit queue full: %d rounds' audits left to the nightly audit", overflow)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="audit-dispatch", daemon=True)
                self._thread.start()
            # Only a sleeping thread needs waking: one waiting for its batch to fill wakes by itself.
            if was_empty or len(self._pending) >= self._batch_max:
                self._wake.notify()

    def close(self, timeout: float = 5.0) -> None:
        """Send what is waiting, then stop the thread (waits at most `timeout` seconds)."""
        with self._wake:
            self._closing = True
            self._wake.notify()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
        if thread is None or not thread.is_alive():
            self._send_all()  # what came after the thread stopped, or all of it if it never started

    def _run(self) -> None:
        pause = 0.0
        while True:
            with self._wake:
                while not self._pending and not self._closing:
                    self._wake.wait()
                while not self._closing and len(self._pending) < self._batch_max:
                    left = self._first_at + self._linger - time.monotonic()
                    if left <= 0:
                        break
                    self._wake.wait(left)
                if self._closing:
                    break
                batch = self._pending[: self._batch_max]
                trimmed = self._trimmed
            try:
                self._send(batch)
            except Exception:
                pause = min(self._retry_max, max(0.5, pause * 2))
                log.exception("queuing the audits of %d rounds failed; trying again in %.1f s", len(batch), pause)
                with self._wake:
                    self._wake.wait_for(lambda: self._closing, timeout=pause)
                continue
            pause = 0.0
            with self._wake:
                # Meanwhile ids were only appended, or dropped from the front when it filled.
                del self._pending[: max(0, len(batch) - (self._trimmed - trimmed))]
                if self._pending:
                    self._first_at = time.monotonic()
        self._send_all()

    def _send_all(self) -> None:
        while True:
            with self._wake:
                batch = self._pending[: self._batch_max]
                del self._pending[: len(batch)]
            if not batch:
                return
            try:
                self._send(batch)
            except Exception:
                log.exception(
                    "on exit, the audits of %d rounds could not be queued: the nightly audit takes them",
                    len(batch) + len(self._pending),
                )
                return


def send_round_audits(round_ids: list[int]) -> None:
    """Publish `audit_rounds` messages for these rounds now, at most BATCH_MAX ids to a message."""
    from .tasks import audit_rounds

    for start in range(0, len(round_ids), BATCH_MAX):
        ids = round_ids[start : start + BATCH_MAX]
        # Nobody reads the task's result: the verdicts are stored on the rounds. `ignore_result`
        # keeps the worker from writing one and this process from subscribing to its channel.
        audit_rounds.apply_async(
            (ids,), ignore_result=True, kwargsrepr="{}", argsrepr=f"([{len(ids)} rounds: {ids[0]}…{ids[-1]}],)"
        )


_lock = threading.Lock()
_dispatcher: Dispatcher | None = None
_owner_pid = 0


def process_dispatcher() -> Dispatcher:
    """This process's dispatcher; a forked child makes its own (the parent's thread is not in it)."""
    global _dispatcher, _owner_pid
    pid = os.getpid()
    if _dispatcher is None or _owner_pid != pid:
        with _lock:
            if _dispatcher is None or _owner_pid != pid:
                _dispatcher = Dispatcher(send_round_audits, linger=settings.AUDIT_QUEUE_LINGER_MS / 1000)
                _owner_pid = pid
                atexit.register(_dispatcher.close)
    return _dispatcher


def flush() -> None:
    """Send what this process's dispatcher holds and stop its thread; the next round logged starts
    another. For whoever changes how tasks run (tests switching them in-process): a send made by
    the thread after the change would follow it."""
    global _dispatcher
    with _lock:
        dispatcher, _dispatcher = _dispatcher, None
    if dispatcher is not None:
        dispatcher.close()


def batched() -> bool:
    """Whether round audits go through this process's dispatcher: a broker (tasks not run eagerly,
    as the Celery app is configured now) and a linger above 0."""
    return settings.AUDIT_QUEUE_LINGER_MS > 0 and not current_app.conf.task_always_eager


def queue_round_audits(round_ids: list[int]) -> None:
    """Queue the audits of committed rounds: batched (above), or one message each right now."""
    if not round_ids:
        return
    if batched():
        process_dispatcher().add(round_ids)
        return
    from .tasks import audit_round

    for round_id in round_ids:
        audit_round.apply_async((round_id,), ignore_result=True, argsrepr=f"({round_id},)", kwargsrepr="{}")
