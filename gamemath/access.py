"""Who may read the game math: every role (dealing.games.math.READERS). The pages and answers hold
no floor data (no pit, table, dealer or round), only the engine's figures, so trainees read them too."""

from dealing.games.math import READERS

__all__ = ["READERS"]
