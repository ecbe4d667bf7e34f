"""GAMEMATH_WARM: the figures the pages and endpoints start from are in the caches afterwards."""

from dealing.games.blackjack.math import selectors as blackjack_selectors
from dealing.games.veintiuno.math import selectors as veintiuno_selectors
from gamemath import warm


def test_warming_fills_the_caches_the_slow_endpoints_read():
    warm.warm()
    assert blackjack_selectors.cached()["rule_effects"] >= 2  # both presets
    assert veintiuno_selectors.cached()["edge"] >= 1
    assert veintiuno_selectors.cached()["thresholds"] >= 1
