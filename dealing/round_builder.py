"""Moved: ochko's builder is `dealing.games.ochko.builder`, what builders share `dealing.games.building`.

This name stays only while branches started before the move still import it; nothing in this
branch does. Remove it once they are merged."""

from dealing.games.ochko.builder import *  # noqa: F401,F403
from dealing.games.ochko.builder import __all__  # noqa: F401
