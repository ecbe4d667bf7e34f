"""The games on the Django side: the one seam through which pages, the API, audit, drills and the
CLI find what is particular to a game.

A game is its engine module (with its simulator and odds, pure Python, `dealing.engine`) plus one
package here, `dealing/games/<variant>/`, which declares a `GAME`: where its round form (and the
builder behind it) lives, the table layout that draws a stored round, its drill set-ups, the
dealer of its demo rounds, its part of the strategy trainer, its house edge for the books, what
the table terminal asks of it and its game math pages and API.
Slots hold dotted paths and are imported on first use, so declaring a game costs nothing at start
and a slot a game does not fill is simply `None` ("this game has no round form yet").

Code outside this package asks `games.get(variant)` / `games.form_for(variant)` /
`games.layout_for(variant)` / `games.slot_of(variant, slot)`, or `games.filled(slot)` for every game
that fills a slot; it never branches on a variant's name (tests/games/test_no_game_switch.py). Tests register a toy game
with `register()` and take it away with `unregister()`.
"""

from dataclasses import dataclass
from importlib import import_module

# The games this project ships; a new game adds its package here (docs/games.md, "Adding a game").
BUILT_IN = ("dealing.games.ochko", "dealing.games.blackjack", "dealing.games.veintiuno")


@dataclass(frozen=True)
class Game:
    variant: str  # the engine's name for it (round/1 "variant")
    form: str = ""  # the round form class (dealing.forms.RoundForm), "package.module.Name"
    layout: str = ""  # the function drawing a stored round as a table (round page, audit replay, drills)
    drills: str = ""  # its drill set-ups (dealing.games.drills.GameDrills)
    demo: str = ""  # the function dealing a demo table's rounds (dealing.games.demo, `manage.py demo_floor`)
    strategy: str = ""  # its part of the strategy trainer (dealing.games.strategy.GameStrategy)
    theory: str = ""  # its house edge and sd for the books' theoretical win (dealing.games.theory)
    terminal: str = ""  # what the table terminal asks of a stake (dealing.games.terminal.TerminalGame)
    math: str = ""  # its game math pages and API (dealing.games.math.GameMath)
    nights: str = ""  # the app that keeps its game nights, where the bank rotates among the players (ledger)
    words: str = ""  # its own words where shared pages say something else (a mapping; see `word`)

    def slot(self, name: str):
        """What a slot names, imported; None when the game leaves it empty."""
        path = getattr(self, name)
        if not path:
            return None
        module, _, attr = path.rpartition(".")
        return getattr(import_module(module), attr) if module else import_module(path)


_games: dict[str, Game] = {}
_loaded = False


def _load_built_in() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for path in BUILT_IN:
            register(import_module(path).GAME)


def register(game: Game) -> Game:
    _games[game.variant] = game
    return game


def unregister(variant: str) -> None:
    _games.pop(variant, None)


def get(variant: str) -> Game | None:
    _load_built_in()
    return _games.get(variant)


def all_games() -> list[Game]:
    _load_built_in()
    return list(_games.values())


def _slot_of(variant: str, name: str):
    game = get(variant)
    return game.slot(name) if game is not None else None


def form_for(variant: str):
    """The round form of a game, or None when it has none."""
    return _slot_of(variant, "form")


def layout_for(variant: str):
    """The table layout of a game, or None."""
    return _slot_of(variant, "layout")


def slot_of(variant: str, name: str):
    """What a game's slot `name` holds, imported; None for an unknown game or an empty slot."""
    return _slot_of(variant, name)


def word(variant: str, name: str):
    """A shared page's word or sentence as this game says it (its `words` mapping), else the shared
    one (`dealing.games.words.SHARED`): e.g. the table's limits are ochko's Ante, everyone else's bet."""
    from .words import SHARED

    own = _slot_of(variant, "words") or {}
    return own.get(name, SHARED[name])


def filled(name: str) -> list[tuple[Game, object]]:
    """(game, what its slot `name` holds) of every game that fills it, in the registry's order."""
    return [(g, s) for g, s in ((g, g.slot(name)) for g in all_games()) if s is not None]
