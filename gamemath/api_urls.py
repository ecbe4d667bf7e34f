"""The game math endpoints, mounted under /api/v1/math/ in the "api" namespace (casino/urls.py)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("ochko/edge/", apis.OchkoEdgeApi.as_view(), name="math-ochko-edge"),
    path("ochko/strategy/", apis.OchkoStrategyApi.as_view(), name="math-ochko-strategy"),
    path("ochko/ev/", apis.OchkoEvApi.as_view(), name="math-ochko-ev"),
]
