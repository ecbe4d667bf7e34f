"""The audit endpoints, mounted under /api/v1/ in the "api" namespace (casino/urls.py)."""

from django.urls import path

from . import apis

urlpatterns = [
    path("findings/", apis.FindingListApi.as_view(), name="finding-list"),
    path("findings/review/", apis.FindingBulkReviewApi.as_view(), name="finding-bulk-review"),
    path("findings/<int:pk>/", apis.FindingDetailApi.as_view(), name="finding-detail"),
    path("findings/<int:pk>/review/", apis.FindingReviewApi.as_view(), name="finding-review"),
    path("audit-runs/", apis.AuditRunListApi.as_view(), name="audit-run-list"),
    path("audit-runs/<int:pk>/", apis.AuditRunDetailApi.as_view(), name="audit-run-detail"),
]
