"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import views

app_name = "books"

urlpatterns = [
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
]
