from django.urls import path

from . import views

app_name = "live"

urlpatterns = [
    path("pit/floor/", views.floor, name="floor"),
    path("pit/floor/tiles", views.floor_tiles, name="floor_tiles"),
    path("live/stream", views.stream, name="stream"),
]
