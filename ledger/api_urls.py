"""The ledger's endpoints, mounted at /api/v1/ledger/ (namespace "api:ledger")."""

from django.urls import path

from . import apis

app_name = "ledger"

urlpatterns = [
    path("sessions/", apis.SessionListApi.as_view(), name="session-list"),
    path("sessions/create/", apis.SessionCreateApi.as_view(), name="session-create"),
    path("sessions/<int:pk>/", apis.SessionLedgerApi.as_view(), name="session-ledger"),
    path("sessions/<int:pk>/rounds/", apis.SessionRoundAddApi.as_view(), name="session-round-add"),
    path("sessions/<int:pk>/end/", apis.SessionEndApi.as_view(), name="session-end"),
]
