"""veintiuno's game math pages and API (dealing.games.math)."""

from dealing.games.math import GameMath

MATH = GameMath(home="veintiuno", urls="dealing.games.veintiuno.math.urls")
