"""The ledger's pages, mounted at /ledger/ (namespace "ledger")."""

from django.urls import path

from . import views

app_name = "ledger"

urlpatterns = [
    path("", views.session_list, name="session_list"),
    path("new/", views.session_new, name="session_new"),
    path("<int:pk>/", views.session_detail, name="session_detail"),
    path("<int:pk>/draw/", views.session_draw, name="session_draw"),
    path("<int:pk>/rounds/new/", views.round_new, name="round_new"),
    path("<int:pk>/rounds/<int:number>/", views.round_detail, name="round_detail"),
    path("<int:pk>/end/", views.session_end, name="session_end"),
]
