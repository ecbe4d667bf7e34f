"""Dealing's API routes, mounted under /api/v1/ in the "api" namespace (casino/urls.py).

Kept apart from dealing/urls.py (the pages) so the two can change independently.
"""

from django.urls import path

from . import apis

urlpatterns = [
    path("auth/token/", apis.TokenCreateApi.as_view(), name="token"),
    path("auth/token/all/", apis.TokenRevokeAllApi.as_view(), name="token-all"),
    path("shoes/", apis.ShoeCollectionApi.as_view(), name="shoe-list"),
    path("shoes/<int:pk>/", apis.ShoeDetailApi.as_view(), name="shoe-detail"),
    path("shoes/<int:pk>/end/", apis.ShoeEndApi.as_view(), name="shoe-end"),
    path("shoes/<int:pk>/burns/", apis.ShoeBurnApi.as_view(), name="shoe-burns"),
    path("shoes/<int:pk>/dealer-changes/", apis.ShoeDealerChangeApi.as_view(), name="shoe-dealer-changes"),
    path("rounds/", apis.RoundCollectionApi.as_view(), name="round-list"),
    path("rounds/<int:pk>/", apis.RoundDetailApi.as_view(), name="round-detail"),
    path("rounds/<int:pk>/amend/", apis.RoundAmendApi.as_view(), name="round-amend"),
    path("rounds/<int:pk>/approve/", apis.RoundApproveApi.as_view(), name="round-approve"),
    path("rounds/<int:pk>/reject/", apis.RoundRejectApi.as_view(), name="round-reject"),
    path("stakes/", apis.StakeListApi.as_view(), name="stake-list"),
    path("incidents/", apis.IncidentCollectionApi.as_view(), name="incident-list"),
    path("incidents/<int:pk>/", apis.IncidentDetailApi.as_view(), name="incident-detail"),
    path("incidents/<int:pk>/approve/", apis.IncidentApproveApi.as_view(), name="incident-approve"),
    path("incidents/<int:pk>/reject/", apis.IncidentRejectApi.as_view(), name="incident-reject"),
    path("incidents/<int:pk>/review/", apis.IncidentReviewApi.as_view(), name="incident-review"),
    path("incidents/<int:pk>/sign-off/", apis.IncidentSignOffApi.as_view(), name="incident-sign-off"),
    path("incidents/<int:pk>/videos/", apis.IncidentVideoApi.as_view(), name="incident-video"),
    path("engine/settle", apis.EngineSettleApi.as_view(), name="engine-settle"),
]
