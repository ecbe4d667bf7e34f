"""Incidents: the list, a table's, and the inspector's report."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino import keyset
from casino.errors import ServiceError
from casino.pdf import pdf_response
from casino.roles import role_required
from dealing import selectors, services
from dealing.choices import IncidentStatus
from dealing.forms import IncidentForm
from dealing.models import Incident

from .common import READERS, REPORTERS, may, service_error_to_form, table_for

# --- incidents -------------------------------------------------------------------------------------------

PAGE_SIZE = 50


def _incident_rows(user, filters: dict):
    try:
        return selectors.incident_list(user=user, filters=filters).order_by("-reported_at", "-id")
    except ValidationError:
        return Incident.objects.none()


def _incident_page(request, filters: dict) -> dict:
    """The page of incidents the query string asks for: newer / older than a key, or from a day back."""
    rows = _incident_rows(request.user, filters)
    try:
        page = keyset.page_from(rows, request.GET, field="reported_at", size=PAGE_SIZE)
    except keyset.BadKey:
        page = keyset.keyset_page(rows, field="reported_at", size=PAGE_SIZE)
    status = filters.get("status", "")
    return {
        "incidents": page.object_list,
        "page": page,
        "status": status,
        "at": request.GET.get("at", ""),
        "query": f"status={status}" if status else "",
        "query_pairs": [("status", status)] if status else [],
    }


@require_http_methods(["GET"])
@role_required(*READERS)
def incident_list(request):
    status = request.GET.get("status", "")
    filters = {"status": status} if status in IncidentStatus.values else {}
    return render(
        request,
        "dealing/incident_list.html",
        {
            **_incident_page(request, filters),
            "statuses": IncidentStatus.choices,
            "table": None,
            "may_report": may(request.user, *REPORTERS),
        },
    )


@require_http_methods(["GET"])
@role_required(*READERS)
def table_incidents(request, name: str):
    table = table_for(request.user, name)
    status = request.GET.get("status", "")
    filters = {"table": table.pk, **({"status": status} if status in IncidentStatus.values else {})}
    return render(
        request,
        "dealing/incident_list.html",
        {
            **_incident_page(request, filters),
            "statuses": IncidentStatus.choices,
            "table": table,
            "may_report": may(request.user, *REPORTERS),
        },
    )


@require_http_methods(["GET", "POST"])
@role_required(*REPORTERS)
def incident_new(request):
    """An inspector's (or pit boss's) report of an exposed or misdrawn card; it goes to the pit queue."""
    user = request.user
    tables = selectors.table_list_open(user=user)
    dealers = selectors.dealer_list_of_pits(user=user)
    if request.method == "POST":
        form = IncidentForm(request.POST, tables=tables, dealers=dealers, user=user)
        if form.is_valid():
            d = form.cleaned_data
            try:
                incident = services.incident_report(
                    table=d["table"],
                    kind=d["kind"],
                    card=d["card"],
                    exposed=d["exposed"],
                    resolution=d["resolution"],
                    to_box=d["to_box"],
                    dealer=d["dealer"],
                    reported_by=user,
                    round=d["round"],
                    evidence=d["evidence"],
                    note=d["note"],
                )
            except ServiceError as exc:
                service_error_to_form(form, exc)
            else:
                messages.success(
                    request,
                    _("Incident reported at %(table)s: it waits for a pit boss's decision.")
                    % {"table": incident.table.name},
                )
                return redirect("dealing:table_incidents", name=incident.table.name)
    else:
        initial = {"exposed": True}
        table_name = request.GET.get("table")
        if table_name:
            initial["table"] = table_name
        record = None
        if (number := request.GET.get("round", "")).isascii() and number.isdigit():
            record = selectors.round_find(user=user, pk=int(request.GET["round"]))
        if record is not None:
            initial.update(table=record.table.name, round=record.table_round, dealer=record.dealer.get_username())
        form = IncidentForm(initial=initial, tables=tables, dealers=dealers, user=user)
    return render(request, "dealing/incident_new.html", {"form": form})


@require_http_methods(["GET"])
@role_required(*READERS)
def incident_file(request, pk: int):
    """An incident's file as surveillance keeps it on paper: the record, its departures from the
    procedure, every decision with its link in the approvals' chain; a PDF of an incident the user may
    see (404 otherwise)."""
    incident = selectors.incident_get(user=request.user, pk=pk)
    context = {
        "incident": incident,
        "procedure": selectors.incident_procedure(incident),
        "approvals": incident.approvals.select_related("decided_by").order_by("decided_at", "id"),
        "review": selectors.incident_review_of(incident),
        "attachments": selectors.incident_attachments(incident),
    }
    filename = f"incident-{incident.pk}-{incident.table.name}-{incident.reported_at:%Y%m%d}.pdf"
    return pdf_response(request, "dealing/pdf_incident.html", context, filename)
