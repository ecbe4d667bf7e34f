"""Solving the game math every page and endpoint starts from, once, into the per-process caches
(`GAMEMATH_WARM=1` with gunicorn `--preload` runs it in the master before the workers fork, so no
user waits for a cold solve): what each game's math says it starts from (`warm()` of
dealing/games/<variant>/math/urls.py: its default rule sets, e.g. the blackjack rule effects).
About a minute of CPU."""

import logging
import time

from dealing import games

log = logging.getLogger(__name__)


def warm() -> float:
    """Fill the caches; the seconds it took."""
    start = time.perf_counter()
    for _game, math in games.filled("math"):
        math.load().warm()
    took = time.perf_counter() - start
    log.info("game math warmed in %.1f s", took)
    return took
