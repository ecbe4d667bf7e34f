"""blackjack's game math pages and API (dealing.games.math)."""

from dealing.games.math import GameMath

MATH = GameMath(home="blackjack", urls="dealing.games.blackjack.math.urls")
