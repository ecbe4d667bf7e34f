"""A toy game that lives in the tests only, registered on both sides of the seam: its engine module
(`rules.py`, with its simulator `simulator.py`) and its Django side — its round form (`forms.py`,
the template under `templates/`), its drill set-ups (`drills.py`), its part of the strategy
trainer (`strategy.py`), its house edge for the books (`theory.py`) and its math page and endpoint
(`math/`). If a round of it goes through the pages, the API, the audit and the replay, and the
drills, the theory report and the math pages reach it, the seam is real.

`register(monkeypatch, settings)` installs it for one test; `unregister()` takes both sides away
again (monkeypatch undoes the template setting). `reload_urls()` mounts (or, after `unregister`,
takes away) its math page and endpoint: the URLconfs read the registry when they are imported.
"""

import importlib
from pathlib import Path

from django.urls import clear_url_caches

from dealing import games
from dealing.engine import games as engine_games
from dealing.games import Game

from . import rules as toy_engine
from . import simulator as toy_simulator

TEMPLATES = Path(__file__).resolve().parent / "templates"
GAME = Game(
    variant="toy",
    form="tests.games.toy.forms.ToyRoundForm",
    drills="tests.games.toy.drills.DRILLS",
    strategy="tests.games.toy.strategy.STRATEGY",
    theory="tests.games.toy.theory.edge",
    math="tests.games.toy.math.MATH",
)


def register_engine() -> None:
    """The engine side: the toy's rules module and simulator in the engine's registry (`unregister()`
    takes it out)."""
    engine_games.register(engine_games.Game(name=toy_engine.NAME, module=toy_engine, simulator=toy_simulator))


def reload_urls() -> None:
    """The project's URLconfs built again from the registry as it is now (gamemath's first)."""
    import casino.urls
    import gamemath.api_urls
    import gamemath.urls

    for module in (gamemath.urls, gamemath.api_urls, casino.urls):
        importlib.reload(module)
    clear_url_caches()


def register(monkeypatch, settings) -> Game:
    register_engine()
    # The Django side: the toy's entry in dealing.games, and where its form's template is found.
    games.register(GAME)
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}]
    return GAME


def unregister() -> None:
    games.unregister(GAME.variant)
    engine_games.unregister(toy_engine.NAME)
