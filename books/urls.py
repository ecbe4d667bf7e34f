"""The books' pages, mounted at /books/ (namespace "books")."""

from django.urls import path

from . import views

app_name = "books"

urlpatterns = [
    path("", views.shift_list, name="shift_list"),
    path("tables/<str:table>/open/", views.shift_open, name="shift_open"),
    path("<int:pk>/", views.shift_detail, name="shift_detail"),
]

# dealer performance
from . import performance_views  # noqa: E402

urlpatterns += [
    path("performance/", performance_views.performance_list, name="performance_list"),
    path("performance/<int:dealer>/", performance_views.performance_detail, name="performance_detail"),
]
