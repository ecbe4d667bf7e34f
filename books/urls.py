"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import views

app_name = "books"

urlpatterns = [
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
]

# theory and reports
from . import theory_views  # noqa: E402

urlpatterns += [
    path("theory/", theory_views.theory, name="theory"),
    path("reports/shifts/<int:pk>/", theory_views.report_shift, name="report_shift"),
    path("reports/shifts/<int:pk>.csv", theory_views.report_shift_csv, name="report_shift_csv"),
    path("reports/period/", theory_views.report_period, name="report_period"),
    path("reports/period.csv", theory_views.report_period_csv, name="report_period_csv"),
]

# dealer performance
from . import performance_views  # noqa: E402

urlpatterns += [
    path("performance/", performance_views.performance_list, name="performance_list"),
    path("performance/<int:dealer>/", performance_views.performance_detail, name="performance_detail"),
]
