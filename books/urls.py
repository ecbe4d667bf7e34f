"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import views

app_name = "books"

urlpatterns = [
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
]
# integrity signals
from . import signals_views  # noqa: E402 - the signals' pages come after the float's

urlpatterns += [
    path("signals/", signals_views.signal_list, name="signal_list"),
    path("signals/<int:pk>/", signals_views.signal_detail, name="signal_detail"),
    path("signals/<int:pk>/review/", signals_views.signal_review, name="signal_review"),
]
