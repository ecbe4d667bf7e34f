"""GAMEMATH_WARM: the figures the pages and endpoints start from are in the caches afterwards."""

from dealing.games.blackjack.math import selectors as blackjack_selectors
from dealing.games.veintiuno.math import selectors as veintiuno_selectors
from gamemath import warm


def test_warming_fills_the_caches_the_slow_endpoints_read():
    warm.warm()
    assert blackjack_selectors._rule_effects.cache_info().currsize >= 2  # both presets
    assert veintiuno_selectors._edge.cache_info().currsize >= 1
    assert veintiuno_selectors._thresholds.cache_info().currsize >= 1
