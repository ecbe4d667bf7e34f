"""The dealer's round form (new and correcting) and a stored round's page."""

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import ServiceError
from casino.models import Table
from casino.roles import AUDITOR, PIT_BOSS, has_role, role_required
from dealing import chain, chain_selectors, engine, games, selectors, services
from dealing.access import may_correct
from dealing.choices import RoundStatus
from dealing.models import Round

from .common import (
    DECIDERS,
    LOGGERS,
    READERS,
    REPORTERS,
    audit_replay_url,
    htmx_redirect,
    is_htmx,
    may,
    service_error_to_form,
    table_for,
)

# --- the dealer's round form -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@role_required(*LOGGERS)
def round_new(request, name: str):
    """Enter a round box by box; the engine checks it (findings next to the fields); save on confirmation.

    POST `action`: "check" (the default, Enter), "fill" (the owed results into the blanks), "save" —
    only the document that was checked (`checked` carries its fingerprint) is saved, through
    `services.round_log` — or a change of the form's layout (blackjack: "split:<hand>").
    """
    table = table_for(request.user, name)
    form_class = games.form_for(table.variant)
    if form_class is None:
        return render(request, "dealing/round_form_unavailable.html", {"table": table})
    return _round_form_page(request, table, form_class)


def _round_form_page(request, table: Table, form_class, *, amends: Round | None = None):
    """The round form, new (`amends` None) or correcting a stored round; shared by both pages."""
    notice, focus, refused = "", None, False
    kwargs = {"table": table, "user": request.user, "amends": amends}
    if request.method == "GET":
        if amends is None:
            initial = {"round_id": uuid.uuid4()}
        else:
            initial = {**form_class.initial_from_document(amends.document), "round_id": amends.uid}
        form = form_class(initial=initial, **kwargs)
    else:
        action = request.POST.get("action", "check")
        data = request.POST.copy()
        focus = form_class.layout_action(data, action)
        if focus is not None:
            form = form_class(initial=data.dict(), **kwargs)  # drawn again as entered, judged at the next check
        else:
            form = form_class(data, **kwargs)
            if form.is_valid():
                # Saving what was checked: its token spares the round a second replay before the service's.
                result = form.check(checked=request.POST.get("checked") if action == "save" else None)
                if action == "fill" and result.ok:
                    filled = form.fill_owed(data)
                    form = form_class(data, **kwargs)
                    if form.is_valid():
                        form.check()
                    if filled:
                        notice = _(
                            "The owed result was filled into %(n)d blank(s). Make sure it is what you really "
                            "paid, took or left before saving."
                        ) % {"n": filled}
                elif action == "save" and result.ok:
                    if result.impossible:
                        notice = _(
                            "This round cannot have happened as entered, so it is not saved: correct "
                            "the cards the engine names."
                        )
                    elif not result.may_save:
                        notice = _("Every wager needs its result before the round is saved.")
                    elif request.POST.get("checked") != result.token:
                        notice = _(
                            "The round changed since it was checked: look at the engine's findings again, then save."
                        )
                    elif form.reason_missing() or form.late_reason_missing():
                        refused = True
                    else:
                        saved = _save_round(request, form, table, result, amends)
                        if saved is not None:
                            return saved
                        refused = True
                        if result.vouched:
                            form.check()  # refused: the page shows the engine's findings again
    if focus and focus in form.fields:
        form.fields[focus].widget.attrs["autofocus"] = True
    context = {
        "table": table,
        "form": form,
        "result": form.result,
        "notice": notice,
        "template": form_class.template_name,
        "shoe": services.shoe_for_round(table=table, reference=None),
        "focus": focus,
        "refused": refused,
        "amends": amends,
    }
    if amends is not None and request.method == "GET":
        context["reordered"] = _reordered(form_class, amends)
    template = "dealing/round_form_partial.html" if is_htmx(request) else "dealing/round_new.html"
    return render(request, template, context)


def _save_round(request, form, table: Table, result, amends: Round | None):
    """Store the checked round (or the correction) through its service; the redirect, or None when refused."""
    user = request.user
    try:
        if amends is None:
            record, created = services.round_log(document=result.built.document, logged_by=user, table=table)
        else:
            record = services.round_amend(
                round=amends, document=result.built.document, amended_by=user, reason=form.cleaned_data["reason"]
            )
            created = True
    except ServiceError as exc:
        service_error_to_form(form, exc)
        return None
    if amends is not None:
        message = _(
            "Correction saved as revision %(r)d of round %(n)d: it waits for a pit boss's approval; the round "
            "as logged stays in force until then."
        ) % {"r": record.revision, "n": amends.table_round}
        if has_role(user, PIT_BOSS) and not user.is_superuser:
            message += " " + _("You made it, so another pit boss of the pit decides (four eyes).")
        messages.success(request, message)
    elif created:
        messages.success(
            request, _("Round saved: %(table)s, round %(n)d.") % {"n": record.table_round, "table": table.name}
        )
    else:
        messages.info(request, _("This round was already saved."))
    return htmx_redirect(request, reverse("dealing:round_detail", args=[record.pk]))


def _correction_blocked(record: Round, form_class) -> str | None:
    """Why this round cannot be corrected on the form now, in words; None when it can."""
    if form_class is None:
        return _("There is no round form for %(game)s yet: correct the round through the API.") % {
            "game": record.table.get_variant_display()
        }
    if record.status != RoundStatus.RECORDED:
        return _("Only the revision in force of a round can be corrected; this one is %(status)s.") % {
            "status": record.get_status_display()
        }
    if selectors.round_has_pending_correction(round=record):
        return _("This round already has a correction awaiting a pit boss: he decides on it first.")
    kinds = {ev.get("e") for ev in record.document.get("events", []) if isinstance(ev, dict)}
    try:
        rebuilt = {ev.get("e") for ev in form_class.rebuild(record.document)["events"]}
    except (KeyError, TypeError, ValueError, engine.RoundError):
        rebuilt = set()
    missing = sorted(str(k) for k in kinds - rebuilt)
    if missing:
        return _(
            "This round's log holds what the form cannot show (%(events)s): correct it through the API "
            "(POST /api/v1/rounds/%(pk)d/amend/)."
        ) % {"events": ", ".join(missing), "pk": record.pk}
    return None


def _reordered(form_class, record: Round) -> bool:
    """Does the form lay the stored log out differently (in the order of the rules)?"""
    try:
        rebuilt = chain.json_safe(form_class.rebuild(record.document))
    except (KeyError, TypeError, ValueError, engine.RoundError):
        return True
    return rebuilt.get("events") != record.document.get("events")


@require_http_methods(["GET", "POST"])
@role_required(*LOGGERS)
def round_correct(request, pk: int):
    """ "Correct this round": the game's form filled from the stored log, a reason, the engine's check;
    saved through `services.round_amend` as a revision awaiting a pit boss (dealing's queue)."""
    record = selectors.round_get(user=request.user, pk=pk)
    if not may_correct(request.user, record):
        raise PermissionDenied(_("Only the dealer who dealt this round or a pit boss of its pit corrects it."))
    form_class = games.form_for(record.variant)
    blocked = _correction_blocked(record, form_class)
    if blocked:
        messages.error(request, blocked)
        return htmx_redirect(request, reverse("dealing:round_detail", args=[record.pk]))
    return _round_form_page(request, record.table, form_class, amends=record)


# --- a stored round ------------------------------------------------------------------------------------


@require_http_methods(["GET"])
@role_required(*READERS)
def round_detail(request, pk: int):
    record = selectors.round_get(user=request.user, pk=pk)
    try:
        outcome, error = engine.replay(record.document), None  # the one replay of this page
    except engine.RoundError as exc:
        outcome, error = None, exc.message
    layout = games.layout_for(record.variant)
    # The felt, as the game's layout draws it: its template, and what that template reads.
    drawing = {"felt": layout.round_template, **layout.round_page(record, outcome)} if layout is not None else {}
    user = request.user
    pending = selectors.round_pending_correction(round=record)
    return render(
        request,
        "dealing/round_detail.html",
        {
            "round": record,
            "table": record.table,
            "outcome": outcome,
            "error": error,
            **drawing,
            "pending_correction": pending,
            "may_decide": may(user, *DECIDERS),
            "may_correct": (
                record.status == RoundStatus.RECORDED
                and pending is None
                and games.form_for(record.variant) is not None
                and has_role(user, *LOGGERS)
                and may_correct(user, record)
            ),
            "audit_url": audit_replay_url(record),
            "revisions": selectors.round_revisions(round=record),
            "halt_overrides": selectors.halt_overrides_of_round(round=record),
            "chain": chain_selectors.round_chain_status(round=record),
            "incidents": selectors.incident_list_of_round(user=request.user, round=record),
            "may_report": may(request.user, *REPORTERS),
            # The books' player evaluation (auditors, pit bosses): linked from the stakes' names.
            "may_evaluate_players": has_role(user, PIT_BOSS, AUDITOR),
            "may_log": may(request.user, *LOGGERS)
            and games.form_for(record.table.variant) is not None
            and record.table.is_active
            and record.status == RoundStatus.RECORDED,
        },
    )
