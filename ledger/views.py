"""Pages of the ledger. Thin: check the role and the night (`access`), call a selector or a service,
render. A refused service shows its message on the form."""

import re

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.errors import ServiceError
from casino.roles import role_required
from dealing import engine

from . import selectors, services
from .access import READ_ROLES, RUN_ROLES, may_run, session_for
from .choices import SessionStatus
from .draw import draw_state
from .forms import DrawForm, EndForm, RoundForm, SessionForm


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def session_list(request):
    sessions = list(selectors.session_list(user=request.user, status=request.GET.get("status")))
    can_start = selectors.startable_tables(user=request.user).exists()
    return render(
        request,
        "ledger/session_list.html",
        {"sessions": sessions, "can_start": can_start, "status": request.GET.get("status", "")},
    )


@require_http_methods(["GET", "POST"])
@role_required(*RUN_ROLES)
def session_new(request):
    form = SessionForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            session = services.session_create(
                table=d["table"],
                players=form.player_list(),
                unit=d["unit"],
                created_by=request.user,
                dealer=d.get("dealer"),
                name=d["name"],
                buy_in=d.get("buy_in"),
            )
        except ServiceError as exc:
            _form_error(form, exc)
        else:
            return redirect("ledger:session_draw", pk=session.pk)
    return render(request, "ledger/session_new.html", {"form": form})


def _form_error(form, exc: ServiceError) -> None:
    field = exc.extra.get("field")
    form.add_error(field if field in form.fields else None, exc.message)


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def session_detail(request, pk: int):
    session = session_for(request.user, pk)
    ledger = selectors.session_ledger(session)
    return render(
        request,
        "ledger/session_detail.html",
        {
            "session": session,
            "ledger": ledger,
            "can_run": may_run(request.user, session),
            "table_places": _table_places(ledger),
            "chart": ledger.chart(),
            "end_form": EndForm(),
        },
    )


def _table_places(ledger) -> list[dict]:
    """The players around the table for the ledger page: place, balance, chips, who holds the bank."""
    chips = ledger.chips() or {}
    holder = ledger.bank
    out = []
    for (left, top), player in zip(selectors.places_around(len(ledger.players)), ledger.players):
        out.append(
            {
                "player": player,
                "left": left,
                "top": top,
                "balance": ledger.balances.get(player, 0),
                "chips": chips.get(player),
                "bank": player == holder,
            }
        )
    return out


@require_http_methods(["GET", "POST"])
@role_required(*READ_ROLES)
def session_draw(request, pk: int):
    session = session_for(request.user, pk)
    players = selectors.player_names(session)
    passes = selectors.draw_passes(session)
    state = draw_state(players, passes)
    if request.method == "POST" and session.status == SessionStatus.DRAWING:
        session = session_for(request.user, pk, run=True)
        form = DrawForm(request.POST, contenders=state.contenders)
        if form.is_valid():
            try:
                state = services.session_draw(session=session, by=request.user, cards=form.cards())
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                if state.decided:
                    messages.success(request, _("%(bank)s holds the first bank.") % {"bank": state.winner})
                    return redirect("ledger:round_new", pk=session.pk)
                return redirect("ledger:session_draw", pk=session.pk)
    else:
        form = DrawForm(contenders=state.contenders)
    tied = state.contenders if passes and not state.decided else []
    places = []
    for (left, top), player in zip(selectors.places_around(len(players)), players):
        drawn = [p.get(player) for p in state.passes]
        field = dict(form.bound_cards()).get(player) if not state.decided else None
        places.append(
            {
                "player": player,
                "left": left,
                "top": top,
                "drawn": drawn,
                "field": field,
                "winner": player == state.winner,
            }
        )
    return render(
        request,
        "ledger/session_draw.html",
        {
            "session": session,
            "state": state,
            "form": form,
            "places": places,
            "tied": tied,
            "can_run": may_run(request.user, session),
        },
    )


@require_http_methods(["GET", "POST"])
@role_required(*RUN_ROLES)  # auditors read the night, they deal none of it
def round_new(request, pk: int):
    session = session_for(request.user, pk, run=True)
    if session.status == SessionStatus.DRAWING:
        return redirect("ledger:session_draw", pk=session.pk)
    if session.status == SessionStatus.ENDED:
        messages.info(request, _("This night is over; no more rounds."))
        return redirect("ledger:session_detail", pk=session.pk)
    state = selectors.session_state(session)
    seated = state.seated()
    previous = state.announcements[-1] if state.announcements else None
    limits = state.limits or ((previous.min_bet, previous.max_bet) if previous else None)
    preview = None
    if request.method == "POST":
        form = RoundForm(request.POST, bank=state.bank, seated=seated)
        if form.is_valid():
            action = request.POST.get("action", "check")
            try:
                if action == "save":
                    entry, _created = services.session_round_add(
                        session=session, document=form.document, logged_by=request.user
                    )
                    messages.success(request, _("Round %(n)d saved.") % {"n": entry.number})
                    url = reverse("ledger:session_detail", kwargs={"pk": session.pk})
                    return redirect(f"{url}#round-{entry.number}")
                prepared = services.session_round_preview(session=session, document=form.document, by=request.user)
            except ServiceError as exc:
                _round_error(form, exc)
            else:
                preview = _preview(prepared)
                form = _with_owed(form, prepared, bank=state.bank, seated=seated)
    else:
        form = RoundForm(initial=RoundForm.initial_for(limits=limits), bank=state.bank, seated=seated)
    new_bank = state.limits is None
    return render(
        request,
        "ledger/round_new.html",
        {
            "session": session,
            "state": state,
            "form": form,
            "preview": preview,
            "new_bank": new_bank,
            "places": _round_places(state.bank, seated),
        },
    )


_EVENT = re.compile(r"\$\.events\[(\d+)\]")


def _round_error(form, exc: ServiceError) -> None:
    """A refusal of the engine or the ledger, next to the field it is about when that is clear."""
    path = str(exc.extra.get("path") or "")
    if path.startswith("$.table"):
        form.add_error("min_bet" if path.endswith("min") or path == "$.table" else "max_bet", exc.message)
        return
    event = exc.extra.get("event")
    if event is not None and hasattr(form, "document"):
        ev = form.document["events"][event] if event < len(form.document["events"]) else {}
        seat = ev.get("to") if ev.get("e") == "deal" else None
        stake = ev.get("stake")
        hand = ev.get("hand")
        if stake:
            seat = int(stake[1:])
        elif hand:
            seat = int(hand.split(".")[0])
        if isinstance(seat, int):
            field = f"s{seat}_bet" if ev.get("e") == "bet" else f"s{seat}_play"
            if field in form.fields:
                form.add_error(field, exc.message)
                return
    form.add_error(None, exc.message)


def _preview(prepared) -> dict:
    outcome = prepared.outcome
    view = selectors.round_view(prepared.document, outcome)
    return {
        "view": view,
        "findings": [f.to_dict() for f in outcome.findings],
        "bank_next": outcome.extra.get("bank_next"),
        "float": outcome.float,
        "announce": prepared.announce,
        "limits": prepared.limits,
        "places": _view_places(view),
    }


def _with_owed(form: RoundForm, prepared, *, bank, seated) -> RoundForm:
    """The form again, its empty payment rows filled with what the engine says each hand is owed and
    the bank's next holder with the engine's, for the dealer to confirm or correct before saving."""
    data = form.data.copy()
    for w in prepared.outcome.wagers or []:
        key = f"pay_{w.hand}_result"
        if not data.get(key):
            data[key] = w.result
            data[f"pay_{w.hand}_amount"] = str(w.amount if w.result == "pay" else w.size)
    if not data.get("bank_to"):
        data["bank_to"] = prepared.outcome.extra.get("bank_next") or bank
    checked = RoundForm(data, bank=bank, seated=seated)
    checked.is_valid()
    return checked


def _round_places(bank: str, seated) -> list[dict]:
    positions = selectors.places_around(len(seated) + 1)
    out = [{"player": bank, "bank": True, "left": positions[0][0], "top": positions[0][1], "place": None}]
    for (left, top), (place, player) in zip(positions[1:], seated):
        out.append({"player": player, "bank": False, "left": left, "top": top, "place": place})
    return out


def _view_places(view: dict) -> list[dict]:
    """A drawn round's places around the table: the bank at the top, the seats from its right."""
    seats = view["seats"]
    positions = selectors.places_around(len(seats) + 1)
    out = [
        {
            "bank": True,
            "player": view["bank"],
            "cards": view["bank_cards"],
            "left": positions[0][0],
            "top": positions[0][1],
        }
    ]
    for (left, top), seat in zip(positions[1:], seats):
        out.append({"bank": False, **seat, "left": left, "top": top})
    return out


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
def round_detail(request, pk: int, number: int):
    session = session_for(request.user, pk)
    ledger = selectors.session_ledger(session)
    line = next((r for r in ledger.rounds if r.number == number), None)
    if line is None:
        raise Http404(_("This night has no round %(n)d.") % {"n": number})
    view = selectors.round_view(line.record.document, engine.replay(line.record.document))
    return render(
        request,
        "ledger/round_detail.html",
        {
            "session": session,
            "line": line,
            "view": view,
            "places": _view_places(view),
            "ledger": ledger,
            "previous": number - 1 if number > 1 else None,
            "next": number + 1 if number < len(ledger.rounds) else None,
        },
    )


@require_POST
@role_required(*RUN_ROLES)
def session_end(request, pk: int):
    session = session_for(request.user, pk, run=True)
    form = EndForm(request.POST)
    if form.is_valid():
        try:
            services.session_end(
                session=session, by=request.user, reason=form.cleaned_data["reason"], note=form.cleaned_data["note"]
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The night is over. Who pays whom is below."))
    else:
        messages.error(request, _("Say how the night ends."))
    return redirect("ledger:session_detail", pk=session.pk)
