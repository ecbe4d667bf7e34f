"""The audit pages, under /audit/ (namespace "audit")."""

from django.urls import path

from . import views

app_name = "audit"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("findings/", views.finding_list, name="finding_list"),
    path("findings.csv", views.finding_csv, name="finding_csv"),
    path("findings/<int:pk>/review/", views.finding_review, name="finding_review"),
    path("dealers.csv", views.dealer_rates_csv, name="dealer_rates_csv"),
    path("rounds/<int:pk>/", views.round_replay, name="round_replay"),
    path("shoes/<int:pk>/", views.shoe_detail, name="shoe_detail"),
    path("shoes/<int:pk>/audit/", views.shoe_audit, name="shoe_audit"),
    path("runs/", views.run_list, name="run_list"),
    path("runs/<int:pk>/", views.run_detail, name="run_detail"),
    path("runs/<int:pk>/progress/", views.run_progress, name="run_progress"),
    path("runs/<int:pk>/rerun/", views.run_rerun, name="run_rerun"),
    path("runs/<int:pk>/resume/", views.run_resume, name="run_resume"),
]
