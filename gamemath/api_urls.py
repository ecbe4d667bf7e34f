"""The game math endpoints, mounted under /api/v1/math/ in the "api" namespace (casino/urls.py)."""

from django.urls import path

from . import apis, blackjack_apis, veintiuno_apis

urlpatterns = [
    path("ochko/edge/", apis.OchkoEdgeApi.as_view(), name="math-ochko-edge"),
    path("ochko/strategy/", apis.OchkoStrategyApi.as_view(), name="math-ochko-strategy"),
    path("ochko/ev/", apis.OchkoEvApi.as_view(), name="math-ochko-ev"),
    path("blackjack/edge/", blackjack_apis.BlackjackEdgeApi.as_view(), name="math-blackjack-edge"),
    path("blackjack/strategy/", blackjack_apis.BlackjackStrategyApi.as_view(), name="math-blackjack-strategy"),
    path("blackjack/rule-effects/", blackjack_apis.BlackjackRuleEffectsApi.as_view(),
         name="math-blackjack-rule-effects"),
    path("blackjack/jackpot/", blackjack_apis.BlackjackJackpotApi.as_view(), name="math-blackjack-jackpot"),
    path("blackjack/ev/", blackjack_apis.BlackjackEvApi.as_view(), name="math-blackjack-ev"),
    path("veintiuno/edge/", veintiuno_apis.VeintiunoEdgeApi.as_view(), name="math-veintiuno-edge"),
    path("veintiuno/specials/", veintiuno_apis.VeintiunoSpecialsApi.as_view(), name="math-veintiuno-specials"),
]
