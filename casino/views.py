"""Pages of the floor. Views stay thin: selectors read, services write, roles decide access."""

import io
from base64 import b32encode

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods
from django_otp import login as otp_login

from . import navigation, selectors, services
from .dates import DayField
from .errors import ServiceError
from .exports import CSV, FORMATS, XLSX, cell, csv_response, export_response
from .identity import second_factor_required
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
    """Liveness: the process serves requests. No dependency is checked, so a database or broker
    outage never gets a process restarted that would only come back to the same outage."""
    return JsonResponse({"status": "ok"})


@require_GET
@never_cache
def readyz(request):
    """Readiness, per dependency (selectors.readiness_report): 503 only when the database is down;
    open to probes without a login, who see only ok or not per check. Staff (the admin site's users)
    see the details."""
    report = selectors.readiness_report(detailed=_is_staff(request))
    return JsonResponse(report, status=503 if report["status"] == "unavailable" else 200)


@require_GET
@never_cache
def metrics(request):
    """Prometheus' scrape (casino/metrics.py): from loopback, or with the METRICS_TOKEN bearer token."""
    from django.http import HttpResponse

    from . import metrics as exposition

    if not exposition.may_scrape(request):
        # Plain text, not the 403 page: a scraper reads it, and it needs no template or static file.
        return HttpResponse(
            _("Metrics are served to loopback, or with the metrics token."),
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    return HttpResponse(exposition.exposition(), content_type=exposition.CONTENT_TYPE)


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
    (or `xlsx`) downloads what the filters select."""
    form = SecurityLogFilter(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    events = selectors.security_event_list(filters=filters)
    if request.GET.get("export") in FORMATS:
        return _security_export(request, events)
    return render(
        request,
        "casino/security_log.html",
        {
            "form": form,
            "events": events[:SECURITY_LOG_PAGE],
            "limit": SECURITY_LOG_PAGE,
            "csv_query": _with_export(request),
            "xlsx_query": _with_export(request, XLSX),
        },
    )


def _with_export(request, fmt: str = CSV) -> str:
    query = request.GET.copy()
    query["export"] = fmt
    return query.urlencode()


def _security_export(request, events):
    """The filtered log as CSV or XLSX; a failed login's username is whatever the caller typed, so
    every cell goes through the exports' formula escaping (casino/exports.py)."""

    def rows():
        yield [_("when"), _("kind"), _("user"), _("address"), _("detail")]
        for at, kind, username, address, detail in events.values_list(
            "at", "kind", "username", "address", "detail"
        ).iterator(chunk_size=2000):
            yield [timezone.localtime(at).isoformat(timespec="seconds"), kind, username, address or "", detail]

    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return export_response(request, rows(), f"security-log-{stamp}.csv", key="export", title="security log")


# --- the second factor (issue 37, item 7): open to any signed-in user, the gate sends people here --


class SecondFactorForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}),
    )


def _next_url(request) -> str:
    """Where to go once the second factor is passed: `next` when it is a page of this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _second_factor_passed(request, device):
    """The session is verified by `device` under a new session key (its rights just grew)."""
    request.session.cycle_key()
    otp_login(request, device)
    return redirect(_next_url(request) or "casino:home")


@require_http_methods(["GET", "POST"])
@never_cache
def otp_enrol(request):
    """Enrolment of an authenticator: its key as a QR code (casino:otp_qr) and as text, confirmed with
    the code the app then shows. Once one is enrolled this page sends to the verify page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if selectors.totp_device_confirmed(user=request.user) is not None:
        return redirect(f"{reverse('casino:otp_verify')}?{urlencode({'next': _next_url(request)})}")
    device = services.totp_device_start(user=request.user)
    form = SecondFactorForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device = services.totp_enrol_confirm(
                user=request.user, code=form.cleaned_data["code"], address=client_address(request)
            )
        except ServiceError as error:
            form.add_error("code", error.message)
        else:
            messages.success(request, _("Your authenticator is set up."))
            return _second_factor_passed(request, device)
    key = b32encode(device.bin_key).decode()
    return render(
        request,
        "registration/otp_enrol.html",
        {"form": form, "key": " ".join(key[i : i + 4] for i in range(0, len(key), 4)), "next": _next_url(request)},
    )


@require_GET
@never_cache
def otp_qr(request):
    """The QR code of the key being enrolled, as an SVG image of this site (the policy allows images
    from 'self'; no inline markup). 404 once enrolled: the key is never shown again."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    device = selectors.totp_device_pending(user=request.user)
    if device is None:
        raise Http404(_("No authenticator is being set up."))
    buffer = io.BytesIO()
    segno.make(device.config_url, error="m").save(buffer, kind="svg", scale=5, border=2, xmldecl=False)
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@require_http_methods(["GET", "POST"])
@never_cache
def otp_verify(request):
    """The code of the enrolled authenticator, once per sign-in; wrong codes make the next try wait."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if selectors.totp_device_confirmed(user=request.user) is None:
        if not second_factor_required(request.user):
            return redirect(_next_url(request) or "casino:home")
        return redirect(f"{reverse('casino:otp_enrol')}?{urlencode({'next': _next_url(request)})}")
    form = SecondFactorForm(request.POST or None)
    retry_after = None
    if request.method == "POST" and form.is_valid():
        try:
            device = services.second_factor_check(
                user=request.user, code=form.cleaned_data["code"], address=client_address(request)
            )
        except ServiceError as error:
            form.add_error("code", error.message)
            retry_after = error.extra.get("retry_after")
        else:
            return _second_factor_passed(request, device)
    context = {"form": form, "next": _next_url(request)}
    # A wrong code shows the form again (as a wrong password does); too many are a 429.
    response = render(request, "registration/otp_verify.html", context, status=429 if retry_after else 200)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


# --- the history of changes (issue 35, item 5) -------------------------------------------------


class ChangeHistoryFilter(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("kind"),
        required=False,
        choices=[
            ("", gettext_lazy("every kind")),
            ("pit", gettext_lazy("pit")),
            ("table", gettext_lazy("table")),
            ("staff", gettext_lazy("staff member")),
            ("user", gettext_lazy("user")),
        ],
    )
    since = forms.DateField(label=gettext_lazy("from"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=gettext_lazy("to"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    page = forms.IntegerField(required=False, min_value=1, max_value=100_000, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            raise forms.ValidationError(gettext_lazy("The first date is after the last."))
        return data


CHANGE_PAGE = 50
CHANGE_EXPORT_CHUNK = 1000


@require_GET
@role_required(AUDITOR)
def change_history(request):
    """Every change to pits, tables (limits, house rules), staff (pits) and users (roles): who, when,
    before and after, newest first; filtered by kind and dates, a page at a time; `?export=csv`
    downloads every change the filters select."""
    form = ChangeHistoryFilter(request.GET or None)
    valid = form.is_valid() if request.GET else True
    filters = {k: v for k, v in form.cleaned_data.items() if k != "page"} if request.GET and valid else {}
    if request.GET.get("export") == "csv" and valid:
        return _change_csv(filters)
    page = (form.cleaned_data.get("page") if request.GET and valid else None) or 1
    changes = selectors.change_list(filters=filters, offset=(page - 1) * CHANGE_PAGE, limit=CHANGE_PAGE + 1)
    query = request.GET.copy()
    query.pop("export", None)
    pages = {}
    if page > 1:
        query["page"] = page - 1
        pages["previous"] = query.urlencode()
    if len(changes) > CHANGE_PAGE:
        query["page"] = page + 1
        pages["next"] = query.urlencode()
    return render(
        request,
        "casino/change_history.html",
        {
            "form": form,
            "changes": changes[:CHANGE_PAGE] if valid else [],
            "page": page,
            "pages": pages,
            "csv_query": _with_export(request),
        },
        status=200 if valid else 400,
    )


ACTIONS = {"+": gettext_lazy("created"), "~": gettext_lazy("changed"), "-": gettext_lazy("deleted")}


def _change_csv(filters) -> StreamingHttpResponse:
    kinds = dict(ChangeHistoryFilter.base_fields["kind"].choices)

    def rows():
        yield [_("when"), _("by"), _("kind"), _("object"), _("action"), _("field"), _("before"), _("after")]
        offset = 0
        while True:
            chunk = selectors.change_list(filters=filters, offset=offset, limit=CHANGE_EXPORT_CHUNK)
            for change in chunk:
                head = [
                    timezone.localtime(change.at).isoformat(timespec="seconds"),
                    cell(change.by),
                    kinds[change.kind],
                    cell(change.subject),
                    ACTIONS[change.action],
                ]
                for _name, label, before, after in change.fields or [("", "", "", "")]:
                    yield [*head, label, cell(before), cell(after)]
            if len(chunk) < CHANGE_EXPORT_CHUNK:
                return
            offset += CHANGE_EXPORT_CHUNK

    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return csv_response(rows(), f"change-history-{stamp}.csv")
