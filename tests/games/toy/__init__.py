"""A toy game that lives in the tests only, registered on both sides of the seam: its engine module
(`rules.py`) and its Django side (`forms.py`, the template under `templates/`). If a round of it
goes through the pages, the API, the audit and the replay, the seam is real.

`register(monkeypatch, settings)` installs it for one test; `unregister()` takes both sides away
again (monkeypatch undoes the template setting).
"""

from pathlib import Path

from dealing import games
from dealing.engine import games as engine_games
from dealing.games import Game

from . import rules as toy_engine

TEMPLATES = Path(__file__).resolve().parent / "templates"
GAME = Game(variant="toy", form="tests.games.toy.forms.ToyRoundForm")


def register_engine() -> None:
    """The engine side: the toy's rules module in the engine's registry (`unregister()` takes it out)."""
    engine_games.register(engine_games.Game(name=toy_engine.NAME, module=toy_engine))


def register(monkeypatch, settings) -> Game:
    register_engine()
    # The Django side: the toy's entry in dealing.games, and where its form's template is found.
    games.register(GAME)
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}]
    return GAME


def unregister() -> None:
    games.unregister(GAME.variant)
    engine_games.unregister(toy_engine.NAME)
