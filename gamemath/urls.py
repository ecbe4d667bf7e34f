"""The Game math pages, under /math/ (namespace "gamemath")."""

from django.urls import path

from . import views

app_name = "gamemath"

urlpatterns = [
    path("ochko/", views.ochko, name="ochko"),
    path("ochko/ask/", views.ochko_ask, name="ochko_ask"),
    path("blackjack/", views.blackjack, name="blackjack"),
    path("blackjack/edge/", views.blackjack_edge, name="blackjack_edge"),
    path("blackjack/ask/", views.blackjack_ask, name="blackjack_ask"),
    path("veintiuno/", views.veintiuno, name="veintiuno"),
]
