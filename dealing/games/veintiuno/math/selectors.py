"""The engine's veintiuno math, cached per process: the chances of the special hands, the bank's
edge between the documented strategies, and the player's EV for each drawing threshold against
the documented bank. Only `suited_twelve_pays` can be chosen on the page (one to ten), so the
caches stay small; the first solve of a rule set takes seconds, every later answer milliseconds."""

from dealing.engine.veintiuno import math as veintiuno
from dealing.games.figures import kept

QuestionError = veintiuno.QuestionError
THRESHOLDS = tuple(range(12, 21))


@kept(maxsize=4)
def specials() -> dict:
    return veintiuno.specials_document()


@kept(maxsize=16)
def _edge(suited_twelve_pays: int) -> dict:
    return veintiuno.edge({"suited_twelve_pays": suited_twelve_pays})


@kept(maxsize=16)
def _thresholds(suited_twelve_pays: int) -> tuple:
    # One threshold at a time, the player's draws let go after each: they are kept per threshold,
    # and all nine together held most of the memory of solving them.
    rows = []
    for threshold in THRESHOLDS:
        rows += veintiuno.grid(
            {"suited_twelve_pays": suited_twelve_pays}, thresholds=(threshold,), banks=(veintiuno.BANK_STANDS,)
        )
        veintiuno.forget_solves(players_only=True)
    return tuple(rows)


def edge(*, suited_twelve_pays: int = 2) -> dict:
    """`edge/1` between the documented strategies (cached; do not mutate the answer)."""
    return _edge(suited_twelve_pays)


def thresholds(*, suited_twelve_pays: int = 2) -> list[dict]:
    """The bank's edge for each drawing threshold of the player against the documented bank."""
    return list(_thresholds(suited_twelve_pays))


def cached() -> dict[str, int]:
    """How many figures each cache holds (what warming at start-up filled)."""
    return {"edge": _edge.cache_info().currsize, "thresholds": _thresholds.cache_info().currsize}


def forget_solves() -> None:
    """What solving needed and the cached figures do not (veintiuno.forget_solves)."""
    veintiuno.forget_solves()
