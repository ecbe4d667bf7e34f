"""A toy game that lives in the tests only, registered on both sides of the seam: its engine module
(`rules.py`) and its Django side (`forms.py`, the template under `templates/`). If a round of it
goes through the pages, the API, the audit and the replay, the seam is real.

`register(monkeypatch, settings)` installs it for one test; `games.unregister("toy")` takes the
Django side away (monkeypatch undoes the rest).
"""

from pathlib import Path

from dealing import engine, games
from dealing.games import Game

from . import rules as toy_engine

TEMPLATES = Path(__file__).resolve().parent / "templates"
GAME = Game(variant="toy", form="tests.games.toy.forms.ToyRoundForm")


def register_engine(monkeypatch) -> None:
    """The engine side. Until the engine has a registry of its own (`dealing.engine.games.register`,
    being built on another branch), the toy module is put where `engine.variant()` finds a loaded
    variant module, and its name among the variants the engine knows. With the registry this
    function becomes one call: `engine.games.register("toy", toy_engine)` (and its undo)."""
    monkeypatch.setitem(engine._modules, toy_engine.NAME, toy_engine)
    monkeypatch.setattr(engine, "VARIANTS", (*engine.VARIANTS, toy_engine.NAME))


def register(monkeypatch, settings) -> Game:
    register_engine(monkeypatch)
    # The Django side: the toy's entry in dealing.games, and where its form's template is found.
    games.register(GAME)
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], TEMPLATES]}]
    return GAME
