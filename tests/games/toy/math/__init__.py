"""The toy game's math page and endpoint (dealing.games.math, tests only)."""

from dealing.games.math import GameMath

MATH = GameMath(home="toy", urls="tests.games.toy.math.urls")
