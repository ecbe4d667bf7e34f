"""Pages of the floor. Views stay thin: selectors read, services write, roles decide access."""

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from . import navigation, selectors, services
from .dates import DayField
from .errors import ServiceError
from .exports import csv_response
from .models import SecurityEvent
from .roles import AUDITOR, FLOOR_ROLES, PIT_BOSS, role_required
from .security import client_address


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


# --- lockouts and the security log (issue 18) ------------------------------------------------


@require_http_methods(["GET", "POST"])
@role_required(PIT_BOSS)
def lockouts(request):
    """The locked-out usernames of the staff of the pit boss's pits (an admin: all), each with an
    unlock button. Addresses are unlocked in the admin (axes' access attempts)."""
    if request.method == "POST":
        username = request.POST.get("username", "")
        try:
            services.lockout_unlock(by=request.user, username=username, address=client_address(request))
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(username)s can log in again.") % {"username": username})
        return redirect("casino:lockouts")
    return render(request, "casino/lockouts.html", {"usernames": selectors.locked_out_usernames(user=request.user)})


class SecurityLogFilter(forms.Form):
    kind = forms.ChoiceField(
        label=_("kind"), required=False, choices=[("", _("every kind")), *SecurityEvent.Kind.choices]
    )
    user = forms.CharField(label=_("user"), required=False, max_length=150)
    since = DayField(label=_("from"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = DayField(label=_("to"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


SECURITY_LOG_PAGE = 200


@require_GET
@role_required(AUDITOR)
def security_log(request):
    """The security log for admins and auditors, filterable by kind, user and dates; `?export=csv`
    downloads what the filters select."""
    form = SecurityLogFilter(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    events = selectors.security_event_list(filters=filters)
    if request.GET.get("export") == "csv":
        return _security_csv(events)
    return render(
        request,
        "casino/security_log.html",
        {
            "form": form,
            "events": events[:SECURITY_LOG_PAGE],
            "limit": SECURITY_LOG_PAGE,
            "csv_query": _with_export(request),
        },
    )


def _with_export(request) -> str:
    query = request.GET.copy()
    query["export"] = "csv"
    return query.urlencode()


def _cell(value) -> str:
    """A CSV cell a spreadsheet will not run: text starting with = + - @ is quoted (a failed
    login's username is whatever the caller typed)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _security_csv(events) -> StreamingHttpResponse:
    def rows():
        yield [_("when"), _("kind"), _("user"), _("address"), _("detail")]
        for at, kind, username, address, detail in events.values_list(
            "at", "kind", "username", "address", "detail"
        ).iterator(chunk_size=2000):
            yield [
                timezone.localtime(at).isoformat(timespec="seconds"),
                kind,
                _cell(username),
                address or "",
                _cell(detail),
            ]

    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return csv_response(rows(), f"security-log-{stamp}.csv")
