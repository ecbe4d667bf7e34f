"""The table terminal's round in progress on the server (dealing/services/drafts.py), at its edges:

    POST /tables/<name>/terminal/takeover              JSON {terminal} -> this terminal holds the draft
    POST /tables/<name>/terminal/drafts/<pk>/void      form {reason}: a pit boss voids a round left behind

and what the terminal's page and each entry ask of it (`draft_config`, `keep_draft`).
"""

import json

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import ServiceError
from casino.roles import DEALER, PIT_BOSS, has_role, role_required
from dealing import selectors, services
from dealing.access import staff_of, table_for
from dealing.games import terminal as term
from dealing.models import TerminalDraft


def may_store(user) -> bool:
    return user.is_superuser or has_role(user, DEALER, PIT_BOSS)


def _storing_table(request, name: str):
    """The table, when the user stores rounds there (a dealer or pit boss of its pit): else 403/404."""
    table = table_for(request.user, name)
    if not (request.user.is_superuser or staff_of(request.user, table, DEALER, PIT_BOSS)):
        raise PermissionDenied(_("Only a dealer or pit boss of pit %(pit)s does this.") % {"pit": table.pit.name})
    return table


def _refused(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"error": {"message": exc.message, **exc.extra}}, status=exc.status)


def draft_json(draft: TerminalDraft) -> dict:
    return {
        "roundId": str(draft.round_id),
        "terminal": draft.terminal,
        "heldBy": draft.held_by.get_username(),
        "dealer": draft.dealer,
        "header": draft.header or {},
        "stakes": draft.stakes,
        "events": draft.events,
        "overrides": draft.overrides,
        "entries": len(draft.events or ()),
        "updatedAt": draft.updated_at.isoformat(),
        "timeouts": list(draft.timeouts or []),
    }


def draft_config(table) -> dict | None:
    """The round in progress at the table, for the page: its own terminal resumes it, another offers
    to take it over."""
    draft = selectors.terminal_draft_held(table)
    return draft_json(draft) if draft is not None else None


def keep_draft(request, table, data: dict, out: dict, timeout=None) -> tuple[JsonResponse | None, object]:
    """Each entry the engine follows is written to the table's draft by the terminal that holds it;
    a refusal (another terminal holds it: 409) is the answer instead. An inspector only follows, and
    a client that names no terminal keeps no draft. Returns (the refusal or None, the draft or None).
    `timeout`: the entry a clock's end logged and the clock's seconds (dealing/views/terminal_clock.py)."""
    user = request.user
    if out["error"] or "terminal" not in data or not may_store(user):
        if timeout is not None:  # only the terminal holding the round logs what a clock's end does
            return JsonResponse(
                {
                    "error": {
                        "message": _("Only the terminal holding the round logs a clock's end."),
                        "code": "clock_none",
                    }
                },
                status=409,
            ), None
        return None, None
    picks = user.is_superuser or has_role(user, PIT_BOSS)
    try:
        draft = services.draft_keep(
            table=table,
            user=user,
            terminal=data.get("terminal"),
            round_id=data.get("id"),
            dealer=str(data.get("dealer") or "") if picks else user.get_username(),
            stakes=data["stakes"],
            events=data.get("events", []),
            overrides=data.get("overrides") or {},
            timeout=timeout,
            header=term.header_fields(table.variant, data.get("header")),
        )
    except ServiceError as exc:
        return _refused(exc), None
    return None, draft


@require_http_methods(["POST"])
@role_required(DEALER, PIT_BOSS)
def terminal_takeover(request, name: str):
    """This terminal takes over the round in progress (its dealer asked): the other one is refused
    from its next entry on."""
    table = _storing_table(request, name)
    try:
        data = json.loads(request.body[:4096])
    except ValueError:
        data = None
    if not isinstance(data, dict):
        return JsonResponse({"error": {"message": _('Send {"terminal": ...} as JSON.')}}, status=400)
    try:
        draft = services.draft_take_over(table=table, user=request.user, terminal=data.get("terminal"))
    except ServiceError as exc:
        return _refused(exc)
    return JsonResponse(draft_json(draft))


@require_http_methods(["POST"])
@role_required(PIT_BOSS)
def terminal_draft_void(request, name: str, pk: int):
    """A pit boss of the pit voids a round left behind, with a reason (kept with it)."""
    table = _storing_table(request, name)
    draft = get_object_or_404(TerminalDraft, pk=pk, table=table)
    try:
        services.draft_void(draft=draft, voided_by=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.message) from None
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The round left behind was voided; the reason is kept with it."))
    return redirect("dealing:terminal", name=table.name)
