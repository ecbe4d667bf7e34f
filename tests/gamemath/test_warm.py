"""GAMEMATH_WARM: the figures the pages and endpoints start from are in the caches afterwards."""

from gamemath import blackjack_selectors, veintiuno_selectors, warm


def test_warming_fills_the_caches_the_slow_endpoints_read():
    warm.warm()
    assert blackjack_selectors._rule_effects.cache_info().currsize >= 2  # both presets
    assert veintiuno_selectors._edge.cache_info().currsize >= 1
    assert veintiuno_selectors._thresholds.cache_info().currsize >= 1
