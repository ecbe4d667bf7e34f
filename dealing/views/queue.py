"""The pit boss's queue: incidents and corrections to decide."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.errors import ServiceError
from casino.roles import role_required
from dealing import selectors, services
from dealing.forms import DecisionForm

from .common import DECIDERS, is_htmx

# --- the pit boss's queue ----------------------------------------------------------------------------------


@require_http_methods(["GET"])
@role_required(*DECIDERS)
def pit_queue(request):
    """Pending incidents and round corrections of the pit boss's pits that he may decide; beside them,
    those that wait for another pit boss (his own reports, his own dealing — four eyes)."""
    user = request.user
    incidents = list(selectors.pending_incidents(user=user))
    amendments = list(selectors.pending_amendments(user=user))
    mine = set(i.pk for i in incidents)
    waiting_incidents = [i for i in selectors.incident_list_reported_in_pits(user=user) if i.pk not in mine]
    amend_ids = set(r.pk for r in amendments)
    waiting_amendments = [r for r in selectors.round_list_pending_in_pits(user=user) if r.pk not in amend_ids]
    return render(
        request,
        "dealing/pit_queue.html",
        {
            "incidents": incidents,
            "amendments": amendments,
            "waiting_incidents": waiting_incidents,
            "waiting_amendments": waiting_amendments,
            "form": DecisionForm(),
        },
    )


def _decide(request, service, obj, kind: str):
    form = DecisionForm(request.POST)
    error = None
    approval = None
    if not form.is_valid():
        error = _("Choose approve or reject.")
    else:
        try:
            approval = service(form.cleaned_data["decision"], form.cleaned_data["comment"])
        except ServiceError as exc:
            error = exc.message
    if is_htmx(request):
        return render(
            request,
            "dealing/_queue_item.html",
            {
                "item": obj,
                "kind": kind,
                "form": form,
                "error": error,
                "approval": approval,
            },
        )
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Decision recorded: %(decision)s.") % {"decision": approval.get_decision_display()})
    return redirect("dealing:pit_queue")


@require_POST
@role_required(*DECIDERS)
def incident_decide(request, pk: int):
    user = request.user
    incident = selectors.incident_get_in_pits(user=user, pk=pk)
    return _decide(
        request,
        lambda decision, comment: services.incident_decide(
            incident=incident, decided_by=user, decision=decision, comment=comment
        ),
        incident,
        "incident",
    )


@require_POST
@role_required(*DECIDERS)
def amendment_decide(request, pk: int):
    user = request.user
    amendment = selectors.round_get_in_pits(user=user, pk=pk)
    return _decide(
        request,
        lambda decision, comment: services.round_amendment_decide(
            round=amendment, decided_by=user, decision=decision, comment=comment
        ),
        amendment,
        "amendment",
    )
