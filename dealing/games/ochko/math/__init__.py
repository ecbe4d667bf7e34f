"""ochko's game math pages and API (dealing.games.math)."""

from dealing.games.math import GameMath

MATH = GameMath(home="ochko", urls="dealing.games.ochko.math.urls")
