"""The Markdown reports of the games' math pages (docs/ochko-math.md, docs/blackjack-math.md …),
from the engine's own figures: each game's math module offers its own (`reports()`, games.py).

    python -m dealing.engine.math.report ochko          # the tables of docs/ochko-math.md
    python -m dealing.engine.math.report ochko-speed    # its timings
    python -m dealing.engine.math.report blackjack      # docs/blackjack-math.md (blackjack-speed: its timings)

The pages paste this output under the command, so re-running it checks the page.
"""

import sys

from .. import games


def reports() -> dict:
    """Report name -> the function writing it, for every registered game with reports."""
    out: dict = {}
    for name in games.names():
        game = games.get(name)
        if game is not None and game.math is not None:
            out.update(getattr(games.math(name), "reports", dict)())
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    known = reports()
    if len(argv) != 1 or argv[0] not in known:
        sys.stderr.write(f"usage: python -m dealing.engine.math.report {'|'.join(known)}\n")
        return 2
    sys.stdout.write(known[argv[0]]())
    return 0


if __name__ == "__main__":
    sys.exit(main())
