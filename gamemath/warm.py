"""Solving the game math every page, endpoint and the strategy trainer start from, once, into the
per-process caches, so that no user waits for a cold solve: what each game's math says it starts
from (`warm()` of dealing/games/<variant>/math/urls.py: its default rule sets, e.g. the blackjack
rule effects) and each game's strategy-trainer charts (`warm()` of its dealing/games/<variant>/
strategy.py). About a minute of CPU.

`GAMEMATH_WARM` says when (read once, at start-up, by `start_from_env`):
- `1`: now, before the process serves (gunicorn `--preload` runs it in the master before the
  workers fork, so every worker shares the solved figures);
- `background` (`make run`): in a thread, while a person logs in; never in the development
  server's reloader parent, which serves nothing (warming there doubled the CPU and the memory of
  a first `make run`).
Each step is logged with its place in the whole, so a first run says what it is doing."""

import ctypes
import gc
import logging
import os
import sys
import threading
import time

from django.utils import autoreload

from dealing import games

log = logging.getLogger(__name__)


def steps() -> list[tuple[str, object]]:
    """(what, how) of every warming step, in order: each game's math, then each game's charts. The
    math whose warm-up keeps only its figures (`WARM_LETS_GO` in its urls module: its solves' memos
    are let go after) comes first, so its peak is not added to the solvers another game keeps."""
    maths = [(game, math.load()) for game, math in games.filled("math")]
    maths.sort(key=lambda pair: not getattr(pair[1], "WARM_LETS_GO", False))  # stable: else the registry's order
    found = [(f"{game.variant} math", module.warm) for game, module in maths]
    found += [(f"{game.variant} strategy charts", strategy.warm) for game, strategy in games.filled("strategy")]
    return found


class Started:
    """Whether this process has started its warm-up (it warms once, however often it is asked)."""

    already = False


def warm() -> float:
    """Fill the caches; the seconds it took. Each step is logged as it starts and as it ends."""
    start = time.perf_counter()
    todo = steps()
    for i, (what, step) in enumerate(todo, 1):
        log.info("game math warm-up %d/%d: %s …", i, len(todo), what)
        began = time.perf_counter()
        step()
        _give_back()  # what the step's solves freed, before the next one solves
        log.info("game math warm-up %d/%d: %s in %.1f s%s", i, len(todo), what, time.perf_counter() - began, _memory())
    took = time.perf_counter() - start
    log.info("game math warmed in %.1f s%s", took, _memory())
    return took


def _memory() -> str:
    """The process's resident memory now and at its peak, where the system tells (Linux)."""
    try:
        with open("/proc/self/status") as status:
            kb = {line.split(":")[0]: int(line.split()[1]) for line in status if line.startswith(("VmRSS", "VmHWM"))}
    except (OSError, ValueError, IndexError):
        return ""
    return f" (process memory {kb.get('VmRSS', 0) // 1024} MB, peak {kb.get('VmHWM', 0) // 1024} MB)"


def _give_back() -> None:
    """Hand the memory the solves freed back to the system (glibc keeps it otherwise), so that the
    serving process holds the figures and the presets' solvers, not the peak of the warm-up."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def reloader_parent(argv=None, environ=None) -> bool:
    """True in `runserver`'s watching process, which only restarts the one that serves."""
    argv = sys.argv if argv is None else argv
    environ = os.environ if environ is None else environ
    return (
        "runserver" in argv[1:2]
        and "--noreload" not in argv
        and environ.get(autoreload.DJANGO_AUTORELOAD_ENV) != "true"
    )


def start_from_env(environ=None) -> str:
    """Warm as `GAMEMATH_WARM` says; what was done ("now", "background" or "no")."""
    environ = os.environ if environ is None else environ
    mode = environ.get("GAMEMATH_WARM", "").lower()
    if Started.already or mode not in ("1", "true", "yes", "background"):
        return "no"
    if mode != "background":
        Started.already = True
        warm()
        return "now"
    if not reloader_parent(environ=environ):
        Started.already = True
        log.info("game math warm-up started in the background (%d steps)", len(steps()))
        threading.Thread(target=warm, name="gamemath-warm", daemon=True).start()
        return "background"
    return "no"
