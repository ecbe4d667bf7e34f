"""The project's URLs: pages, login, the admin, the API and its docs, the health endpoint."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from dealing.drills.urls import api_urlpatterns as drills_api

from . import apis, views

# The floor app's pages, under the "casino" namespace; later apps mount theirs the same way
# (`path("dealing/", include("dealing.urls"))` with app_name = "dealing").
floor_patterns = ([path("", views.floor, name="floor"), path("start/", views.home, name="home")], "casino")

# Every app's endpoints, under the "api" namespace.
api_v1 = [
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path("drills/", include(drills_api)),
    path("", include("audit.api_urls")),
    path("ledger/", include("dealing.ledger.api_urls")),
    path("", include("dealing.api_urls")),
]

urlpatterns = [
    path("", include(floor_patterns)),
    path("", include("dealing.urls")),
    path("ledger/", include("dealing.ledger.urls")),
    path("drills/", include("dealing.drills.urls")),
    path("audit/", include("audit.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include((api_v1, "api"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("healthz", views.healthz, name="healthz"),
]
