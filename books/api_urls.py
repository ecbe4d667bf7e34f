"""The books' endpoints, mounted at /api/v1/books/ (namespace "api:books")."""

from django.urls import path

from . import apis
from .integrity.apis import SignalDetailApi, SignalListApi, SignalReviewApi
from .performance.apis import PerformanceDetailApi, PerformanceListApi
from .protection.apis import PlayerEvaluationApi
from .theory.apis import PeriodReportApi, ShiftReportApi, TheoryApi

app_name = "books"

urlpatterns = [
    # the float, shift by shift
    path("shifts/", apis.ShiftListApi.as_view(), name="shift-list"),
    path("shifts/open/", apis.ShiftOpenApi.as_view(), name="shift-open"),
    path("shifts/<int:pk>/", apis.ShiftBooksApi.as_view(), name="shift-books"),
    path("shifts/<int:pk>/sign/", apis.ShiftSignApi.as_view(), name="shift-sign"),
    path("shifts/<int:pk>/transfers/", apis.TransferRequestApi.as_view(), name="transfer-request"),
    path("shifts/<int:pk>/transfers/<int:event>/approve/", apis.TransferApproveApi.as_view(), name="transfer-approve"),
    path("shifts/<int:pk>/transfers/<int:event>/receive/", apis.TransferReceiveApi.as_view(), name="transfer-receive"),
    path("shifts/<int:pk>/cash/", apis.CashApi.as_view(), name="cash"),
    path("shifts/<int:pk>/closing/", apis.ClosingCountApi.as_view(), name="closing"),
    path("shifts/<int:pk>/explain/", apis.ExplainApi.as_view(), name="explain"),
    path("shifts/<int:pk>/close/", apis.CloseApi.as_view(), name="close"),
    # theoretical against actual, and the reports
    path("theory/", TheoryApi.as_view(), name="theory"),
    path("reports/shifts/<int:pk>/", ShiftReportApi.as_view(), name="report-shift"),
    path("reports/period/", PeriodReportApi.as_view(), name="report-period"),
    # dealer performance
    path("performance/", PerformanceListApi.as_view(), name="performance-list"),
    path("performance/<int:dealer>/", PerformanceDetailApi.as_view(), name="performance-detail"),
    # integrity signals
    path("signals/", SignalListApi.as_view(), name="signal-list"),
    path("signals/<int:pk>/", SignalDetailApi.as_view(), name="signal-detail"),
    path("signals/<int:pk>/review/", SignalReviewApi.as_view(), name="signal-review"),
    # game protection: how a player plays
    path("players/<path:player>/evaluation/", PlayerEvaluationApi.as_view(), name="player-evaluation"),
]
