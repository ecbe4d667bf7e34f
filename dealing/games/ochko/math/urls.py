"""Ochko's game math (dealing.games.math): its pages under /math/ (namespace "gamemath"), its
endpoints under /api/v1/math/ (namespace "api"), and what warming solves of it."""

from django.urls import path

from . import apis, selectors, views

pages = [
    path("ochko/", views.ochko, name="ochko"),
    path("ochko/ask/", views.ochko_ask, name="ochko_ask"),
]

api = [
    path("ochko/edge/", apis.OchkoEdgeApi.as_view(), name="math-ochko-edge"),
    path("ochko/strategy/", apis.OchkoStrategyApi.as_view(), name="math-ochko-strategy"),
    path("ochko/ev/", apis.OchkoEvApi.as_view(), name="math-ochko-ev"),
]


def warm() -> None:
    """The rule effects and the charts of the pages, under the default rules."""
    selectors.rule_effects()
    for bet in selectors.CHART_BETS:
        selectors.strategy(bet=bet)
