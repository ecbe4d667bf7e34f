"""GAMEMATH_WARM: the figures the pages and endpoints start from are in the caches afterwards."""

import pytest

from dealing.games.blackjack.math import selectors as blackjack_selectors
from dealing.games.veintiuno.math import selectors as veintiuno_selectors
from gamemath import warm


@pytest.mark.slow
@pytest.mark.timeout(900)  # every game's math and every trainer chart, cold: minutes on a busy machine
def test_warming_fills_the_caches_the_slow_endpoints_read():
    warm.warm()
    assert blackjack_selectors.cached()["rule_effects"] >= 2  # both presets
    assert veintiuno_selectors.cached()["edge"] >= 1
    assert veintiuno_selectors.cached()["thresholds"] >= 1


def test_warming_solves_the_strategy_trainer_charts_of_every_game_too():
    from dealing import games

    names = [what for what, _step in warm.steps()]
    for game, _strategy in games.filled("strategy"):
        assert f"{game.variant} strategy charts" in names
    assert len(names) == len(set(names))  # each solved once


def test_the_development_servers_reloader_parent_does_not_warm():
    """runserver's watching process serves nothing: warming there too doubled a first run's CPU
    and memory. The serving child (RUN_MAIN=true) and --noreload warm."""
    assert warm.reloader_parent(["manage.py", "runserver", "127.0.0.1:8000"], {})
    assert not warm.reloader_parent(["manage.py", "runserver"], {"RUN_MAIN": "true"})
    assert not warm.reloader_parent(["manage.py", "runserver", "--noreload"], {})
    assert not warm.reloader_parent(["gunicorn", "casino.wsgi"], {})
    assert warm.start_from_env({"GAMEMATH_WARM": "background"}) in ("background", "no")
    assert warm.start_from_env({}) == "no"
