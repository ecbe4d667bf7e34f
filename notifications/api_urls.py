"""The notifications' endpoints, mounted at /api/v1/notifications/ (namespace "api:notifications")."""

from django.urls import path

from . import apis

app_name = "notifications"

urlpatterns = [
    path("", apis.NotificationListApi.as_view(), name="list"),
    path("unread-count/", apis.UnreadCountApi.as_view(), name="unread-count"),
    path("<int:pk>/read/", apis.MarkReadApi.as_view(), name="read"),
    path("read-all/", apis.MarkAllReadApi.as_view(), name="read-all"),
]
