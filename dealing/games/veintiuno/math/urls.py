"""Veintiuno's game math (dealing.games.math): its page under /math/ (namespace "gamemath"), its
endpoints under /api/v1/math/ (namespace "api"), and what warming solves of it."""

from django.urls import path

from . import apis, selectors, views

pages = [
    path("veintiuno/", views.veintiuno, name="veintiuno"),
]

api = [
    path("veintiuno/edge/", apis.VeintiunoEdgeApi.as_view(), name="math-veintiuno-edge"),
    path("veintiuno/specials/", apis.VeintiunoSpecialsApi.as_view(), name="math-veintiuno-specials"),
]


# Its warm-up keeps only the figures (the solves' memos are let go): warmed before the games whose
# solvers stay, so that its peak (about 0.5 GB) is not added to theirs (gamemath/warm.py).
WARM_LETS_GO = True


def warm() -> None:
    """The special hands' chances, the edge and the thresholds, under the default rule; the solves'
    memos are let go after each (the figures stay cached), so the process holds the figures only."""
    selectors.specials()
    selectors.forget_solves()
    selectors.edge()
    selectors.forget_solves()
    selectors.thresholds()
    selectors.forget_solves()
