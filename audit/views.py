"""Pages of audit. Thin: the role is checked (casino.roles), selectors read, services write.

What a permitted user sees is narrowed by `access.scope` in the selectors: a dealer his own
rounds, a pit boss or inspector his pits, an auditor everything. An object outside that scope
answers 404, as if it did not exist.
"""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino import keyset
from casino.errors import ServiceError
from casino.exports import export_response
from casino.roles import role_required
from dealing import chain_selectors as dealing_chain

from . import access, selectors, services
from . import dashboard as dashboard_selectors
from .choices import RunTrigger
from .forms import ReviewForm, RunStartForm

PAGE_SIZE = 50
RUN_PAGE_SIZE = 25


def _tabs(request) -> dict:
    """Which audit tabs the user may follow (the same roles as the pages)."""
    from casino.roles import has_role

    return {
        "show_dashboard": has_role(request.user, *access.DASHBOARD_ROLES),
        "show_runs": has_role(request.user, *access.RUN_ROLES),
        "show_shoes": has_role(request.user, *access.SHOE_ROLES),
    }


def _back(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


def _service_error(request, exc: ServiceError) -> None:
    messages.error(request, exc.message)
    for field, errors in (exc.extra.get("fields") or {}).items():
        for error in errors:
            messages.error(request, f"{field}: {error}")


# --- the dashboard -------------------------------------------------------------------------------


@require_GET
@role_required(*access.DASHBOARD_ROLES)
def dashboard(request):
    period = dashboard_selectors.period_from(request.GET)
    data = dashboard_selectors.dashboard(user=request.user, period=period)
    rates = dashboard_selectors.dealer_error_rates(user=request.user, period=period)
    charts = {
        "byCode": {"labels": [r["code"] for r in data["by_code"]], "values": [r["n"] for r in data["by_code"]]},
        "bySeverity": {
            "labels": [str(_(s)) for s, _n in data["by_severity"]],
            "keys": [s for s, _n in data["by_severity"]],
            "values": [n for _s, n in data["by_severity"]],
        },
        "byDay": _money_series(data["by_day"]),
        "byTable": _money_series(data["by_table"]),
        "byDealer": _money_series(data["by_dealer"]),
        "words": {
            "over": _("over-paid (player gained)"),
            "under": _("under-paid (player short)"),
            "findings": _("findings"),
        },
    }
    return render(
        request,
        "audit/dashboard.html",
        {
            **_tabs(request),
            "d": data,
            "period": period,
            "periods": dashboard_selectors.PERIODS,
            "rates": rates[:10],
            "days": request.GET.get("days", "" if request.GET.get("from") or request.GET.get("to") else "30"),
            "charts": charts,
            "chain": dealing_chain.chain_health(),
        },
    )


def _money_series(rows) -> dict:
    return {
        "labels": [r["label"] for r in rows],
        "over": [r["over"] for r in rows],
        "under": [r["under"] for r in rows],
        "n": [r["n"] for r in rows],
    }


# --- findings -------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@role_required(*access.FINDING_ROLES, methods={"POST": access.REVIEW_ROLES})  # reviews: auditors
def finding_list(request):
    if request.method == "POST":
        if not access.may_review(request.user):
            raise PermissionDenied(_("Only auditors review findings."))
        form = ReviewForm(request.POST)
        if form.is_valid():
            try:
                done = services.finding_review(
                    finding_ids=request.POST.getlist("ids"), auditor=request.user, **form.cleaned_data
                )
            except ServiceError as exc:
                _service_error(request, exc)
            else:
                messages.success(
                    request,
                    _("%(n)d finding(s) marked %(status)s.") % {"n": len(done), "status": done[0].get_status_display()},
                )
        else:
            messages.error(request, _("The review was not recorded: choose a decision."))
        return redirect(_back(request, reverse("audit:finding_list")))

    filterset = selectors.finding_filterset(user=request.user, data=request.GET)
    page = None
    if filterset.is_valid():
        try:
            page = keyset.page_from(
                selectors.finding_rows(filterset.qs),
                request.GET,
                field="played_at",
                size=PAGE_SIZE,
                day_start=services.day_start,
            )
        except keyset.BadKey:
            messages.error(request, _("That page or date cannot be read; here are the newest findings."))
            page = keyset.keyset_page(selectors.finding_rows(filterset.qs), field="played_at", size=PAGE_SIZE)
    query = request.GET.copy()
    for name in (*keyset.PARAMS, "page"):
        query.pop(name, None)
    return render(
        request,
        "audit/finding_list.html",
        {
            **_tabs(request),
            "filter": filterset,
            "form": filterset.form,
            "page": page,
            "query": query.urlencode(),
            "at": request.GET.get("at", ""),
            "query_pairs": _pairs(query),
            "paged": any(request.GET.get(name) for name in keyset.PARAMS),
            "may_review": access.may_review(request.user),
            "review_form": ReviewForm(),
        },
    )


def _pairs(query) -> list[tuple[str, str]]:
    """The filters of a query string as (name, value) pairs, for the hidden fields of "jump to"."""
    return [(name, value) for name, values in query.lists() for value in values]


@require_GET
@role_required(*access.FINDING_ROLES)
def finding_csv(request):
    filterset = selectors.finding_filterset(user=request.user, data=request.GET)
    if not filterset.is_valid():
        return HttpResponseBadRequest(
            _("Invalid filters: %(errors)s") % {"errors": filterset.errors.as_text()},
            content_type="text/plain; charset=utf-8",
        )
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    return export_response(
        request,
        selectors.finding_csv_rows(filterset.qs.order_by("-played_at", "-id")),
        f"findings-{stamp}.csv",
        title="findings",
    )


@require_GET
@role_required(*access.RATE_ROLES)
def dealer_rates_csv(request):
    period = dashboard_selectors.period_from(request.GET)
    rates = dashboard_selectors.dealer_error_rates(user=request.user, period=period)
    header = [
        _("dealer"),
        _("name"),
        _("rounds audited"),
        _("rounds with findings"),
        _("findings"),
        _("errors per 100 rounds"),
        _("confirmed dealer errors"),
        _("confirmed dealer errors per 100 rounds"),
        _("over-paid"),
        _("under-paid"),
        _("from"),
        _("to"),
    ]
    rows = [header] + [
        [
            r["dealer"],
            r["name"],
            r["rounds"],
            r["with_findings"],
            r["findings"],
            r["per_100"],
            r["confirmed"],
            r["confirmed_per_100"],
            r["over"],
            r["under"],
            period.date_from.isoformat(),
            period.date_to.isoformat(),
        ]
        for r in rates
    ]
    return export_response(
        request, rows, f"dealer-error-rates-{period.date_from}-{period.date_to}.csv", title="dealer error rates"
    )


@require_POST
@role_required(*access.REVIEW_ROLES)
def finding_review(request, pk: int):
    finding = selectors.finding_get(user=request.user, finding_id=pk)
    fallback = (
        reverse("audit:round_replay", args=[finding.round_id])
        if finding.round_id
        else reverse("audit:shoe_detail", args=[finding.shoe_id])
    )
    form = ReviewForm(request.POST)
    if form.is_valid():
        try:
            services.finding_review(finding_ids=[finding.pk], auditor=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _service_error(request, exc)
        else:
            messages.success(request, _("Finding %(code)s reviewed.") % {"code": finding.code})
    else:
        messages.error(request, _("The review was not recorded: choose a decision."))
    return redirect(_back(request, fallback) + f"#finding-{finding.pk}")


# --- the round replay -----------------------------------------------------------------------------


@require_GET
@role_required(*access.ROUND_ROLES)
def round_replay(request, pk: int):
    view = selectors.round_replay(user=request.user, round_id=pk)
    return render(
        request,
        "audit/round_replay.html",
        {
            **_tabs(request),
            "r": view,
            "round": view.round,
            "layout": view.layout,
            "may_review": access.may_review(request.user),
            "review_form": ReviewForm(),
            "document_json": json.dumps(view.document, indent=1, ensure_ascii=False, cls=DjangoJSONEncoder),
            "chain": dealing_chain.round_chain_status(round=view.round),
        },
    )


# --- shoes ----------------------------------------------------------------------------------------


@require_GET
@role_required(*access.SHOE_ROLES)
def shoe_detail(request, pk: int):
    data = selectors.shoe_view(user=request.user, shoe_id=pk)
    return render(
        request,
        "audit/shoe_detail.html",
        {
            **data,
            "may_review": access.may_review(request.user),
            "may_run": access.may_run(request.user),
            "review_form": ReviewForm(),
        },
    )


@require_POST
@role_required(*access.RUN_ROLES)
def shoe_audit(request, pk: int):
    data = selectors.shoe_view(user=request.user, shoe_id=pk)
    services.shoe_audit_request(shoe_id=data["shoe"].pk, requested_by=request.user)
    messages.success(request, _("The shoe check is queued; its findings appear here when it is done."))
    return redirect("audit:shoe_detail", pk=pk)


# --- audit runs -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@role_required(*access.RUN_ROLES)
def run_list(request):
    form = RunStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                run = services.audit_run_start(
                    started_by=request.user,
                    tables=data["tables"],
                    dealers=data["dealers"],
                    date_from=data["date_from"],
                    date_to=data["date_to"],
                    only_unaudited=data["scope"] == "unaudited",
                    trigger=RunTrigger.PAGE,
                )
        except ServiceError as exc:
            _service_error(request, exc)
        else:
            messages.success(request, _("Audit run #%(id)d started.") % {"id": run.pk})
            return redirect("audit:run_detail", pk=run.pk)
    try:
        runs = keyset.page_from(
            selectors.audit_run_list(user=request.user),
            request.GET,
            field="created_at",
            size=RUN_PAGE_SIZE,
            day_start=services.day_start,
        )
    except keyset.BadKey:
        runs = keyset.keyset_page(selectors.audit_run_list(user=request.user), field="created_at", size=RUN_PAGE_SIZE)
    return render(
        request, "audit/run_list.html", {**_tabs(request), "form": form, "runs": runs, "at": request.GET.get("at", "")}
    )


@require_GET
@role_required(*access.RUN_ROLES)
def run_detail(request, pk: int):
    run = selectors.audit_run_get(user=request.user, run_id=pk)
    return render(
        request, "audit/run_detail.html", {**_tabs(request), "run": run, "codes": sorted(run.findings_by_code.items())}
    )


@require_GET
@role_required(*access.RUN_ROLES)
def run_progress(request, pk: int):
    run = selectors.audit_run_get(user=request.user, run_id=pk)
    response = render(request, "audit/_run_progress.html", {"run": run, "codes": sorted(run.findings_by_code.items())})
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@role_required(*access.RUN_ROLES)
def run_rerun(request, pk: int):
    run = selectors.audit_run_get(user=request.user, run_id=pk)
    try:
        with transaction.atomic():
            new = services.audit_run_rerun(run=run, started_by=request.user)
    except ServiceError as exc:
        _service_error(request, exc)
        return redirect("audit:run_detail", pk=pk)
    messages.success(request, _("Audit run #%(id)d started.") % {"id": new.pk})
    return redirect("audit:run_detail", pk=new.pk)


@require_POST
@role_required(*access.RUN_ROLES)
def run_resume(request, pk: int):
    run = selectors.audit_run_get(user=request.user, run_id=pk)
    queued = services.audit_run_resume(run_id=run.pk)
    messages.success(request, _("%(n)d task(s) queued again.") % {"n": queued})
    return redirect("audit:run_detail", pk=pk)
