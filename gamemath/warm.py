"""Solving the game math every page and endpoint starts from, once, into the per-process caches
(`GAMEMATH_WARM=1` with gunicorn `--preload` runs it in the master before the workers fork, so no
user waits for a cold solve): each game's default rule sets, the blackjack rule effects and the
veintiuno figures. About a minute of CPU."""

import logging
import time

from . import blackjack_selectors, selectors, veintiuno_selectors

log = logging.getLogger(__name__)

PRESETS = ("salon", "online")


def warm() -> float:
    """Fill the caches; the seconds it took."""
    start = time.perf_counter()
    selectors.rule_effects()
    for bet in selectors.CHART_BETS:
        selectors.strategy(bet=bet)
    for preset in PRESETS:
        blackjack_selectors.strategy(preset=preset)
        blackjack_selectors.edge(preset=preset)
        blackjack_selectors.edge(preset=preset, strategy="basic")
        blackjack_selectors.rule_effects(preset=preset)
        blackjack_selectors.insurance(preset=preset)
        blackjack_selectors.cut_card(preset=preset)
    blackjack_selectors.jackpot()
    veintiuno_selectors.specials()
    veintiuno_selectors.edge()
    veintiuno_selectors.thresholds()
    took = time.perf_counter() - start
    log.info("game math warmed in %.1f s", took)
    return took
