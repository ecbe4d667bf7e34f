"""Blackjack's game math (dealing.games.math): its pages under /math/ (namespace "gamemath"), its
endpoints under /api/v1/math/ (namespace "api"), and what warming solves of it."""

from django.urls import path

from . import apis, selectors, views

pages = [
    path("blackjack/", views.blackjack, name="blackjack"),
    path("blackjack/edge/", views.blackjack_edge, name="blackjack_edge"),
    path("blackjack/ask/", views.blackjack_ask, name="blackjack_ask"),
]

api = [
    path("blackjack/edge/", apis.BlackjackEdgeApi.as_view(), name="math-blackjack-edge"),
    path("blackjack/strategy/", apis.BlackjackStrategyApi.as_view(), name="math-blackjack-strategy"),
    path("blackjack/rule-effects/", apis.BlackjackRuleEffectsApi.as_view(), name="math-blackjack-rule-effects"),
    path("blackjack/jackpot/", apis.BlackjackJackpotApi.as_view(), name="math-blackjack-jackpot"),
    path("blackjack/ev/", apis.BlackjackEvApi.as_view(), name="math-blackjack-ev"),
]

PRESETS = ("salon", "online")


def warm() -> None:
    """Both presets' chart, edges, rule effects, insurance and cut card; the jackpot (the rule
    effects take tens of seconds cold)."""
    for preset in PRESETS:
        selectors.strategy(preset=preset)
        selectors.edge(preset=preset)
        selectors.edge(preset=preset, strategy="basic")
        selectors.rule_effects(preset=preset)
        selectors.insurance(preset=preset)
        selectors.cut_card(preset=preset)
    selectors.jackpot()
