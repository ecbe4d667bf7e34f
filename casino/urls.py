"""The project's URLs: pages, login, the admin, the API and its docs, the health and readiness probes."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from drills.urls import api_urlpatterns as drills_api

from . import apis, password_reset, views
from .people import views as people

# The floor app's pages, under the "casino" namespace; later apps mount theirs the same way
# (`path("dealing/", include("dealing.urls"))` with app_name = "dealing").
floor_patterns = (
    [
        path("", views.floor, name="floor"),
        path("start/", views.home, name="home"),
        path("security/lockouts/", views.lockouts, name="lockouts"),
        path("security/log/", views.security_log, name="security_log"),
        path("security/changes/", views.change_history, name="change_history"),
        # The staff page (casino/people): administrators manage people, their roles and pits.
        path("staff/", people.staff_list, name="staff_list"),
        path("staff/new/", people.staff_create, name="staff_create"),
        path("staff/<int:pk>/", people.staff_edit, name="staff_edit"),
        path("staff/<int:pk>/active/", people.staff_active, name="staff_active"),
        path("staff/<int:pk>/second-factor/reset/", people.staff_second_factor_reset, name="staff_second_factor_reset"),
        # The second factor (casino/identity.py): open to any signed-in user.
        path("accounts/otp/enrol/", views.otp_enrol, name="otp_enrol"),
        path("accounts/otp/enrol/qr.svg", views.otp_qr, name="otp_qr"),
        path("accounts/otp/verify/", views.otp_verify, name="otp_verify"),
    ],
    "casino",
)

# Every app's endpoints, under the "api" namespace. Django tries the patterns in order and an
# include mounted at "" tries each of its own, so the busiest endpoints (dealing's: rounds logged
# from every table) come first; no two of these patterns match the same path, so the order
# changes nothing else.
api_v1 = [
    path("", include("dealing.api_urls")),
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path("drills/", include(drills_api)),
    path("", include("audit.api_urls")),
    path("ledger/", include("ledger.api_urls")),
    path("math/", include("gamemath.api_urls")),
    path("books/", include("books.api_urls")),
    path("notifications/", include("notifications.api_urls")),
]

urlpatterns = [
    # First: the pages' includes mounted at "" would otherwise be tried, pattern by pattern, before
    # every API call (no page pattern starts with "api/").
    path("api/v1/", include((api_v1, "api"))),
    path("", include(floor_patterns)),
    path("", include("dealing.urls")),
    path("ledger/", include("ledger.urls")),
    path("drills/", include("drills.urls")),
    path("audit/", include("audit.urls")),
    path("math/", include("gamemath.urls")),
    path("books/", include("books.urls")),
    path("notifications/", include("notifications.urls")),
    # Before Django's own: the reset request throttled like the login (casino/password_reset.py).
    path("accounts/password_reset/", password_reset.ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("", include("live.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    # OpenID Connect's start and return (casino/sso.py): 404 unless OIDC_RP_CLIENT_ID is set.
    path("accounts/oidc/", include("casino.sso")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's set-up script from its own URL (?script) instead of inline,
    # and our template drops the inline <style>: the page runs under the Content-Security-Policy.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="casino/swagger_ui.html"),
        name="swagger-ui",
    ),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("metrics", views.metrics, name="metrics"),
]

# An unreachable database or broker is a 503 with Retry-After; anything else the usual 500.
handler500 = "casino.faults.handler500"
