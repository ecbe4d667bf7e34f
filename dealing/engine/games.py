"""The games this engine knows, in one place: each game's rules module, simulator, odds and math.

    from dealing.engine import games
    games.names()                       # ("ochko", "blackjack", "veintiuno")
    games.get("ochko").simulator        # "dealing.engine.ochko.simulator"
    games.math("ochko")                 # its game-math module (ev, edge, strategy)
    games.register(Game(name="toy", module=toy_rules))   # a game added at run time (tests)
    games.unregister("toy")

A game's rules module is what `engine.variant(name)` returns; it offers `Replay` (a
loop.Round), `house_rules(rules)`, `shoe_findings(shoe)`, `OPTIONS`, `WAGERS` and `PACK`. A
simulator module offers `simulate_round(rng, *, mistake, number, **options)` and `MISTAKES`; an
odds module `dealer_odds(preset=None)`; a math module `cli(args, rules)` (the answer to a
`python -m dealing.engine ev|edge|strategy|specials` command line, math/cli.py), `CLI_EXTRAS`
(which of the command line's game-specific parts it takes: "specials", "counts") and, if it has
reports, `reports()` (name -> a function printing a Markdown report, math/report.py). Each is
named by its import path and imported on first use (or given as the module itself), so listing a
game costs nothing until it is played.
This module is plain data: no engine module is imported by it.
"""

import importlib
from dataclasses import dataclass
from types import ModuleType

_PACKAGE = __name__.rpartition(".")[0]


@dataclass(frozen=True)
class Game:
    """One game: its name (a round's "variant") and the modules that play it."""

    name: str
    module: str | ModuleType
    simulator: str | ModuleType | None = None
    odds: str | ModuleType | None = None
    math: str | ModuleType | None = None
    # How the game uses a table, for the side that stores its rounds: whether each bank announces its
    # own limits within the table's (veintiuno) instead of the table's binding every round, and whether
    # a shoe's cards are counted out (not so where the pack is dealt to the end and gathered again).
    limits_by_bank: bool = False
    shoe_counted: bool = True
    # The game's count (protection.py): the ranks its shoe holds, the tags of its count, the effects
    # of removal of each rank on the player's edge and the cards a round takes out of the shoe.
    count: str | ModuleType | None = None
    # How a player's decisions are judged (dealing/engine/evaluation.py): the module offering
    # `decisions(document, stakes, state, round_id)` and `wager(document, stake)`; None where none is written.
    evaluation: str | ModuleType | None = None


_GAMES: dict[str, Game] = {}
# name -> the imported rules module: engine.variant() reads this on every round. Registering and
# unregistering change it in place, so a reader holding it never sees a stale game.
_loaded: dict[str, ModuleType] = {}


def register(game: Game) -> Game:
    """Add a game. A name already registered is refused: unregister it first."""
    if game.name in _GAMES:
        raise ValueError(f"the game {game.name!r} is already registered")
    _GAMES[game.name] = game
    _loaded.pop(game.name, None)
    return game


def unregister(name: str) -> None:
    """Remove a game (a test's toy game, once the test is over)."""
    del _GAMES[name]
    _loaded.pop(name, None)


def names() -> tuple[str, ...]:
    """The registered games, in the order they were registered."""
    return tuple(_GAMES)


def get(name) -> Game | None:
    """The game of that name, or None. A str subclass (a Django TextChoices member) is read as its
    text: an enum member does not hash as its value."""
    return _GAMES.get(str.__str__(name)) if isinstance(name, str) else None


def rules(name: str) -> ModuleType:
    """The rules module of a registered game (KeyError when there is none)."""
    module = _loaded.get(name)
    if module is None:
        game = get(name)
        if game is None:
            raise KeyError(name)
        module = _loaded[game.name] = _import(game.module)
    return module


def _slot(name: str, slot: str, missing: str) -> ModuleType:
    """The module a game registers in `slot` (ValueError "<missing> <name>" when it registers none)."""
    game = get(name)
    path = None if game is None else getattr(game, slot)
    if path is None:
        raise ValueError(f"{missing} {name!r}")
    return _import(path)


def simulator(name: str) -> ModuleType:
    """The simulator module of a game (ValueError when the game has none)."""
    return _slot(name, "simulator", "no simulator for")


def odds(name: str) -> ModuleType:
    """The dealer-odds module of a game (ValueError when the game has none)."""
    return _slot(name, "odds", "no dealer odds for")


def math(name: str) -> ModuleType:
    """The game-math module of a game (ValueError when the game has none)."""
    return _slot(name, "math", "no game math for")


def count(name: str) -> ModuleType:
    """The count module of a game (ValueError when its shoe is not counted)."""
    return _slot(name, "count", "no count for")


def evaluation(name: str) -> ModuleType:
    """The module judging a player's decisions in a game (ValueError when the game has none)."""
    return _slot(name, "evaluation", "no player evaluation for")


def evaluated() -> tuple[str, ...]:
    """The games whose players can be evaluated."""
    return tuple(name for name, game in _GAMES.items() if game.evaluation is not None)


def _import(module: str | ModuleType) -> ModuleType:
    return module if isinstance(module, ModuleType) else importlib.import_module(module)


# The games of this engine. A new one adds its line here (and its modules).
register(
    Game(
        "ochko",
        f"{_PACKAGE}.ochko",
        f"{_PACKAGE}.ochko.simulator",
        f"{_PACKAGE}.ochko.odds",
        f"{_PACKAGE}.ochko.math",
        count=f"{_PACKAGE}.ochko.count",
        evaluation=f"{_PACKAGE}.ochko.evaluation",
    )
)
register(
    Game(
        "blackjack",
        f"{_PACKAGE}.blackjack",
        f"{_PACKAGE}.blackjack.simulator",
        f"{_PACKAGE}.blackjack.odds",
        f"{_PACKAGE}.blackjack.math",
        count=f"{_PACKAGE}.blackjack.count",
        evaluation=f"{_PACKAGE}.blackjack.evaluation",
    )
)
register(
    Game(
        "veintiuno",
        f"{_PACKAGE}.veintiuno",
        f"{_PACKAGE}.veintiuno.simulator",
        math=f"{_PACKAGE}.veintiuno.math",
        limits_by_bank=True,
        shoe_counted=False,
    )
)
