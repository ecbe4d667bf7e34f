"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import views
from .integrity.views import signal_detail, signal_list, signal_review
from .performance.views import performance_detail, performance_list
from .protection.views import player_evaluation
from .theory.views import (
    report_period,
    report_period_csv,
    report_period_pdf,
    report_shift,
    report_shift_csv,
    report_shift_pdf,
    theory,
)

app_name = "books"

urlpatterns = [
    # the float, shift by shift
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
    path("<int:pk>/slips/<int:event>/print", views.slip_print, name="slip_print"),
    # theoretical against actual, and the reports
    path("theory/", theory, name="theory"),
    path("reports/shifts/<int:pk>/", report_shift, name="report_shift"),
    path("reports/shifts/<int:pk>.csv", report_shift_csv, name="report_shift_csv"),
    path("reports/shifts/<int:pk>.pdf", report_shift_pdf, name="report_shift_pdf"),
    path("reports/period/", report_period, name="report_period"),
    path("reports/period.csv", report_period_csv, name="report_period_csv"),
    path("reports/period.pdf", report_period_pdf, name="report_period_pdf"),
    # dealer performance
    path("performance/", performance_list, name="performance_list"),
    path("performance/<int:dealer>/", performance_detail, name="performance_detail"),
    # integrity signals
    path("signals/", signal_list, name="signal_list"),
    path("signals/<int:pk>/", signal_detail, name="signal_detail"),
    path("signals/<int:pk>/review/", signal_review, name="signal_review"),
    # game protection: how a player plays
    path("players/<path:player>/evaluation/", player_evaluation, name="player_evaluation"),
]
