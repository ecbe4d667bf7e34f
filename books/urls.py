"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import performance_views, signals_views, theory_views, views

app_name = "books"

urlpatterns = [
    # the float, shift by shift
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
    # theoretical against actual, and the reports
    path("theory/", theory_views.theory, name="theory"),
    path("reports/shifts/<int:pk>/", theory_views.report_shift, name="report_shift"),
    path("reports/shifts/<int:pk>.csv", theory_views.report_shift_csv, name="report_shift_csv"),
    path("reports/period/", theory_views.report_period, name="report_period"),
    path("reports/period.csv", theory_views.report_period_csv, name="report_period_csv"),
    # dealer performance
    path("performance/", performance_views.performance_list, name="performance_list"),
    path("performance/<int:dealer>/", performance_views.performance_detail, name="performance_detail"),
    # integrity signals
    path("signals/", signals_views.signal_list, name="signal_list"),
    path("signals/<int:pk>/", signals_views.signal_detail, name="signal_detail"),
    path("signals/<int:pk>/review/", signals_views.signal_review, name="signal_review"),
]
