"""Pages of the floor. Views stay thin: selectors read, services write, roles decide access."""

from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors
from .roles import ROLES, role_required


@require_GET
@role_required(*ROLES)
def floor(request):
    pits = selectors.floor_overview(user=request.user)
    return render(request, "casino/floor.html", {"pits": pits})


@require_GET
@never_cache
def healthz(request):
    """Reachability of the database and the broker; open to probes without a login."""
    report = selectors.health_report()
    return JsonResponse(report, status=200 if report["status"] == "ok" else 503)
