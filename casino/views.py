"""Pages of the floor. Views stay thin: selectors read, services write, roles decide access."""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import navigation, selectors
from .roles import FLOOR_ROLES, role_required


@require_GET
def home(request):
    """Where a login lands: the first page of the navigation the user may use (a trainee: drills)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    items = navigation.items_for(request.user)
    if not items:
        raise PermissionDenied(_("Your account has no role yet. Ask a pit boss or an administrator."))
    return redirect(items[0]["url"])


@require_GET
@role_required(*FLOOR_ROLES)
def floor(request):
    pits = selectors.floor_overview(user=request.user)
    return render(request, "casino/floor.html", {"pits": pits})


@require_GET
@never_cache
def healthz(request):
    """Reachability of the database and the broker; open to probes without a login, who see only
    ok or degraded per component. Staff (the admin site's users) see the details."""
    report = selectors.health_report(detailed=_is_staff(request))
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)


def _is_staff(request) -> bool:
    """Whether the caller is logged in to the admin site. Reading a session cookie's user takes the
    database; when that fails the caller is answered as a probe is (the database shows as not ok)."""
    try:
        user = request.user
        return bool(user.is_authenticated and user.is_active and user.is_staff)
    except DatabaseError:
        return False
