"""Pages of dealing: tables, the dealer's round form, rounds, shoes, incidents and the pit queue.

Views stay thin: they check the role (casino.roles) and the pit, read through dealing.selectors,
write only through dealing.services, and render. Every page works without JavaScript; where htmx
is there it swaps only the part that changed.

Who may use which page (the navigation registers the same tuples, dealing/apps.py):
    tables, rounds, shoes, incidents     dealer, inspector, pit boss, auditor (their pits; auditors all)
    the round form                       dealer (as himself), pit boss (for his pits' dealers)
    shoe actions                         start: dealer, pit boss; burn and dealer change: also inspector
    incident report                      inspector, pit boss
    the pit queue and decisions          pit boss
    trainee                              none of these (403)
"""

import uuid
from dataclasses import dataclass, field

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino import selectors as floor_selectors
from casino.errors import ServiceError
from casino.models import Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, has_role, role_required, user_pits
from dealing import chain, engine, selectors, services
from dealing.choices import IncidentStatus, RoundStatus, ShoeEventKind
from dealing.forms import (
    ROUND_FORMS, BurnForm, DealerChangeForm, DecisionForm, IncidentForm, ShoeStartForm, pit_dealers,
)
from dealing.models import Incident, Round, Shoe
from dealing.round_builder import ochko_entry_from_document

# Who may do what on these pages (dealing/apps.py registers the navigation with the same tuples).
READERS = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
LOGGERS = (DEALER, PIT_BOSS)
SHOE_LOADERS = (DEALER, PIT_BOSS)
SHOE_RECORDERS = (DEALER, INSPECTOR, PIT_BOSS)
REPORTERS = (INSPECTOR, PIT_BOSS)
DECIDERS = (PIT_BOSS,)


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _redirect(request, url: str):
    """A redirect htmx follows as a page load (fetch would otherwise swap the next page into the form)."""
    if _is_htmx(request):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def table_for(user, name: str) -> Table:
    """The table named `name` when it stands in one of the user's pits: 404 if none, 403 if elsewhere."""
    table = get_object_or_404(Table.objects.select_related("pit"), name=name)
    if not user_pits(user).filter(pk=table.pit_id).exists():
        raise PermissionDenied(_("Table %(table)s is not in your pits.") % {"table": table.name})
    return table


def audit_replay_url(record: Round) -> str | None:
    """The audit's rich replay of a round, when the audit app provides one."""
    for name in ("audit:round_replay", "audit:round_detail", "audit:round"):
        try:
            return reverse(name, args=[record.pk])
        except NoReverseMatch:
            continue
    return None


def _may(user, *roles) -> bool:
    return has_role(user, *roles)


# --- tables ----------------------------------------------------------------------------------------

@require_http_methods(["GET"])
@role_required(*READERS)
def table_list(request):
    """The tables of the user's pits, each with its open shoe and what the user may do there."""
    user = request.user
    # A pit's tables by game, then by stakes (the salon's tiers in order), then by name.
    tables = list(floor_selectors.table_list(user=user).order_by("pit__name", "-is_active", "variant", "min_bet",
                                                                 "name"))
    shoes = {s.table_id: s for s in selectors.shoes_visible(user).filter(ended_at__isnull=True, table__in=tables)
             .order_by("table_id", "number")}
    pending = {}
    for incident in selectors.incidents_visible(user).filter(status=IncidentStatus.REPORTED, table__in=tables):
        pending[incident.table_id] = pending.get(incident.table_id, 0) + 1
    rows = []
    for table in tables:
        shoe = shoes.get(table.pk)
        rows.append({
            "table": table, "shoe": shoe, "has_form": table.variant in ROUND_FORMS,
            "cards_left": selectors.shoe_cards_left(shoe=shoe) if shoe else None,
            "rounds": shoe.rounds.filter(status=RoundStatus.RECORDED).count() if shoe else 0,
            "pending": pending.get(table.pk, 0),
        })
    return render(request, "dealing/table_list.html", {
        "rows": rows, "may_log": _may(user, *LOGGERS), "may_report": _may(user, *REPORTERS),
    })


@require_http_methods(["GET"])
@role_required(*LOGGERS)
def round_pick_table(request):
    """"Log a round" from the navigation: straight to the form when there is one table to choose."""
    tables = [t for t in floor_selectors.table_list(user=request.user).filter(is_active=True)
              .order_by("pit__name", "name") if t.variant in ROUND_FORMS]
    if len(tables) == 1:
        return redirect("dealing:round_new", name=tables[0].name)
    return render(request, "dealing/round_pick_table.html", {"tables": tables})


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
    form_class = ROUND_FORMS.get(table.variant)
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
                result = form.check()
                if action == "fill" and result.ok:
                    filled = form.fill_owed(data)
                    form = form_class(data, **kwargs)
                    if form.is_valid():
                        form.check()
                    if filled:
                        notice = _("The owed result was filled into %(n)d blank(s). Make sure it is what you really "
                                   "paid, took or left before saving.") % {"n": filled}
                elif action == "save" and result.ok:
                    if not result.may_save:
                        notice = _("Every wager needs its result before the round is saved.")
                    elif request.POST.get("checked") != result.token:
                        notice = _("The round changed since it was checked: look at the engine's findings again, "
                                   "then save.")
                    elif form.reason_missing():
                        refused = True
                    else:
                        saved = _save_round(request, form, table, result, amends)
                        if saved is not None:
                            return saved
                        refused = True
    if focus and focus in form.fields:
        form.fields[focus].widget.attrs["autofocus"] = True
    context = {
        "table": table, "form": form, "result": form.result, "notice": notice, "template": form_class.template_name,
        "shoe": services.shoe_for_round(table=table, reference=None), "focus": focus, "refused": refused,
        "amends": amends,
    }
    if amends is not None and request.method == "GET":
        context["reordered"] = _reordered(form_class, amends)
    template = "dealing/round_form_partial.html" if _is_htmx(request) else "dealing/round_new.html"
    return render(request, template, context)


def _save_round(request, form, table: Table, result, amends: Round | None):
    """Store the checked round (or the correction) through its service; the redirect, or None when refused."""
    user = request.user
    try:
        if amends is None:
            record, created = services.round_log(document=result.built.document, logged_by=user, table=table)
        else:
            record = services.round_amend(round=amends, document=result.built.document, amended_by=user,
                                          reason=form.cleaned_data["reason"])
            created = True
    except ServiceError as exc:
        _service_error_to_form(form, exc)
        return None
    if amends is not None:
        message = _("Correction saved as revision %(r)d of round %(n)d: it waits for a pit boss's approval; the round "
                    "as logged stays in force until then.") % {"r": record.revision, "n": amends.pk}
        if has_role(user, PIT_BOSS) and not user.is_superuser:
            message += " " + _("You made it, so another pit boss of the pit decides (four eyes).")
        messages.success(request, message)
    elif created:
        messages.success(request, _("Round saved: %(round)s.") % {"round": record})
    else:
        messages.info(request, _("This round was already saved."))
    return _redirect(request, reverse("dealing:round_detail", args=[record.pk]))


def may_correct(user, record: Round) -> bool:
    """Who may correct a stored round: the dealer who dealt it, a pit boss of its pit (superusers)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    if has_role(user, PIT_BOSS) and user_pits(user).filter(pk=record.table.pit_id).exists():
        return True
    return has_role(user, DEALER) and record.dealer_id == user.pk


def _correction_blocked(record: Round, form_class) -> str | None:
    """Why this round cannot be corrected on the form now, in words; None when it can."""
    if form_class is None:
        return _("There is no round form for %(game)s yet: correct the round through the API.") % {
            "game": record.table.get_variant_display()}
    if record.status != RoundStatus.RECORDED:
        return _("Only the revision in force of a round can be corrected; this one is %(status)s.") % {
            "status": record.get_status_display()}
    if Round.objects.filter(supersedes=record, status=RoundStatus.PENDING).exists():
        return _("This round already has a correction awaiting a pit boss: he decides on it first.")
    kinds = {ev.get("e") for ev in record.document.get("events", []) if isinstance(ev, dict)}
    try:
        rebuilt = {ev.get("e") for ev in form_class.rebuild(record.document)["events"]}
    except (KeyError, TypeError, ValueError, engine.RoundError):
        rebuilt = set()
    missing = sorted(str(k) for k in kinds - rebuilt)
    if missing:
        return _("This round's log holds what the form cannot show (%(events)s): correct it through the API "
                 "(POST /api/v1/rounds/%(pk)d/amend/).") % {"events": ", ".join(missing), "pk": record.pk}
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
    """"Correct this round": the game's form filled from the stored log, a reason, the engine's check;
    saved through `services.round_amend` as a revision awaiting a pit boss (dealing's queue)."""
    record = selectors.round_get(user=request.user, pk=pk)
    if not may_correct(request.user, record):
        raise PermissionDenied(_("Only the dealer who dealt this round or a pit boss of its pit corrects it."))
    form_class = ROUND_FORMS.get(record.variant)
    blocked = _correction_blocked(record, form_class)
    if blocked:
        messages.error(request, blocked)
        return _redirect(request, reverse("dealing:round_detail", args=[record.pk]))
    return _round_form_page(request, record.table, form_class, amends=record)


# --- a stored round ------------------------------------------------------------------------------------

@dataclass
class WagerLine:
    label: str
    logged: object = None  # round_builder.Result
    owed: object = None  # engine Owed
    findings: list = field(default_factory=list)


def _round_drawing(record: Round, outcome) -> list[dict] | None:
    """The stored ochko round as boxes for the template: stakes, cards, what was logged and owed."""
    if record.variant != "ochko":
        return None
    entry = ochko_entry_from_document(record.document)
    owed = {(w.stake, w.wager): w for w in (outcome.wagers or [])} if outcome else {}
    wrong: dict[tuple, list] = {}
    for f in outcome.findings if outcome else []:
        if f.stake and f.wager:
            wrong.setdefault((f.stake, f.wager), []).append(f)
    labels = {"bet": _("Bet"), "ante": _("Ante"), "dealer_bet": _("Dealer bet")}
    boxes = {b.number: b for b in entry.boxes}
    drawn = []
    for n in range(1, max([record.table.boxes, *boxes.keys()]) + 1):
        box = boxes.get(n)
        stakes = []
        for s in box.stakes if box else []:
            lines = [WagerLine(labels[w], s.results.get(w), owed.get((s.id, w)), wrong.get((s.id, w), []))
                     for w in ("bet", "ante", "dealer_bet") if (w != "bet" or not s.folded)
                     and (w != "dealer_bet" or s.dealer_bet is not None)]
            stakes.append({"stake": s, "lines": lines})
        drawn.append({"number": n, "box": box, "stakes": stakes})
    return drawn


@dataclass
class HandDrawing:
    """A blackjack hand on the round page: its cards as they lie, its halves when it split."""

    name: str
    cards: list = field(default_factory=list)  # (code, how) with how "", "inherited" or "across"
    split: bool = False
    doubled: bool = False
    children: list = field(default_factory=list)
    lines: list = field(default_factory=list)  # WagerLine: bet, double
    verdict: str = ""

    @property
    def is_root(self) -> bool:
        return "." not in self.name


def _blackjack_drawing(record: Round, outcome) -> dict:
    """The stored blackjack round for the template: boxes, hands side by side, doubles, insurance,
    even money and the jackpot, what was logged and what was owed; the dealer's cards."""
    from dealing.round_builder_blackjack import blackjack_entry_from_document, full_cards

    entry = blackjack_entry_from_document(record.document)
    owed = {(w.stake, w.hand, w.wager): w for w in (outcome.wagers or [])} if outcome else {}
    wrong: dict[tuple, list] = {}
    for f in outcome.findings if outcome else []:
        if f.stake and f.wager:
            wrong.setdefault((f.stake, f.hand or "", f.wager), []).append(f)
    labels = {"bet": _("Bet"), "double": _("Double"), "insurance": _("Insurance"), "jackpot": _("Jackpot")}

    def line(sid, hand, wager, logged):
        return WagerLine(labels[wager], logged, owed.get((sid, hand, wager)), wrong.get((sid, hand, wager), []))

    def draw(box, hand) -> HandDrawing:
        cards = full_cards(box, hand)
        inherited = len(cards) - len(hand.cards)
        view = HandDrawing(hand.name, split=hand.split, doubled=hand.double_at is not None)
        for k, code in enumerate(cards):
            own = k - inherited
            how = "inherited" if own < 0 else "across" if hand.double_at == own else ""
            view.cards.append((code, how))
        if hand.split:
            view.children = [draw(box, box.hand(f"{hand.name}.{side}")) for side in (1, 2)]
        else:
            sid = box.stake.id
            view.lines = [line(sid, hand.name, "bet", hand.results.get("bet"))]
            if hand.double_at is not None or (sid, hand.name, "double") in owed:
                view.lines.append(line(sid, hand.name, "double", hand.results.get("double")))
            bet = owed.get((sid, hand.name, "bet"))
            view.verdict = bet.why if bet is not None else ""
        return view

    boxes = {b.number: b for b in entry.boxes}
    drawn = []
    for n in range(1, max([record.table.boxes, *boxes.keys()]) + 1):
        box = boxes.get(n)
        if box is None:
            drawn.append({"number": n, "box": None})
            continue
        s = box.stake
        lines = []
        if s.insurance is not None:
            lines.append(line(s.id, box.root.name, "insurance", s.results.get("insurance")))
        if s.jackpot is not None:
            lines.append(line(s.id, box.root.name, "jackpot", s.results.get("jackpot")))
        drawn.append({"number": n, "box": box, "stake": s, "hand": draw(box, box.root), "lines": lines,
                      "leaves": len(box.leaves())})
    return {"boxes": drawn, "up": entry.dealer_up, "hole": entry.dealer_hole, "draws": entry.dealer_draws,
            "rules": engine.house_rules("blackjack", record.document.get("rules"))
            if outcome is not None else {}}


@require_http_methods(["GET"])
@role_required(*READERS)
def round_detail(request, pk: int):
    record = selectors.round_get(user=request.user, pk=pk)
    try:
        outcome, error = engine.replay(record.document), None
    except engine.RoundError as exc:
        outcome, error = None, exc.message
    entry = ochko_entry_from_document(record.document) if record.variant == "ochko" else None
    user = request.user
    pending = Round.objects.filter(supersedes=record, status=RoundStatus.PENDING).first()
    return render(request, "dealing/round_detail.html", {
        "round": record, "table": record.table, "outcome": outcome, "error": error,
        "boxes": _round_drawing(record, outcome), "dealer_cards": entry.dealer_cards if entry else [],
        "blackjack": _blackjack_drawing(record, outcome) if record.variant == "blackjack" else None,
        "pending_correction": pending, "may_decide": _may(user, *DECIDERS),
        "may_correct": (record.status == RoundStatus.RECORDED and pending is None and record.variant in ROUND_FORMS
                        and has_role(user, *LOGGERS) and may_correct(user, record)),
        "audit_url": audit_replay_url(record), "revisions": selectors.round_revisions(round=record),
        "incidents": selectors.incidents_visible(request.user).filter(round=record).select_related("reported_by"),
        "may_report": _may(request.user, *REPORTERS),
        "may_log": _may(request.user, *LOGGERS) and record.table.variant in ROUND_FORMS and record.table.is_active
        and record.status == RoundStatus.RECORDED,
    })


# --- shoes -----------------------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
@role_required(*READERS)
def shoe_page(request, name: str, number: int | None = None):
    """A table's shoe: started, burns, dealer changes, rounds in order, cards left; and its actions.

    POST `action`: "start" (a new shoe), "burn" or "dealer_change" — each through its service.
    """
    user = request.user
    table = table_for(user, name)
    shoes = selectors.shoes_visible(user).filter(table=table).select_related("table", "shuffled_by")
    if number is not None:
        shoe = get_object_or_404(shoes, number=number)
    else:
        shoe = shoes.filter(ended_at__isnull=True).order_by("-number").first() or shoes.order_by("-number").first()
    dealers = pit_dealers(table)
    start_form = ShoeStartForm(prefix="start", initial={"decks": services.shoe_decks(table)})
    burn_form = BurnForm(prefix="burn", table=table)
    change_form = DealerChangeForm(prefix="change", dealers=dealers)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "start":
            _require_role(user, SHOE_LOADERS)
            start_form = ShoeStartForm(request.POST, prefix="start")
            if start_form.is_valid() and _call(start_form, lambda: services.shoe_start(
                    table=table, shuffled_by=user, decks=start_form.cleaned_data["decks"])):
                messages.success(request, _("Shoe started: burn 6 cards before the first round."))
                return redirect("dealing:shoe", name=table.name)
        elif action in ("burn", "dealer_change"):
            _require_role(user, SHOE_RECORDERS)
            if shoe is None or not shoe.is_open:
                messages.error(request, _("There is no open shoe at %(table)s: start one first.")
                               % {"table": table.name})
            elif action == "burn":
                burn_form = BurnForm(request.POST, prefix="burn", table=table)
                d = burn_form.cleaned_data if burn_form.is_valid() else None
                if d is not None and _call(burn_form, lambda: services.shoe_burn(
                        shoe=shoe, card=d["card"], reason=d["reason"], fee=d["fee"], recorded_by=user)):
                    messages.success(request, _("Burn recorded."))
                    return redirect("dealing:shoe", name=table.name)
            else:
                change_form = DealerChangeForm(request.POST, prefix="change", dealers=dealers)
                if change_form.is_valid() and _call(change_form, lambda: services.shoe_dealer_change(
                        shoe=shoe, dealer=change_form.cleaned_data["dealer"], recorded_by=user)):
                    messages.success(request, _("Dealer change recorded: the new dealer burns one card."))
                    return redirect("dealing:shoe", name=table.name)
    audit_url = None
    if shoe is not None and has_role(user, INSPECTOR, PIT_BOSS, AUDITOR):
        try:
            audit_url = reverse("audit:shoe_detail", args=[shoe.pk])
        except NoReverseMatch:
            pass
    context = {"table": table, "shoe": shoe, "start_form": start_form, "burn_form": burn_form, "audit_url": audit_url,
               "change_form": change_form, "may_start": _may(user, *SHOE_LOADERS),
               "may_record": _may(user, *SHOE_RECORDERS) and shoe is not None and shoe.is_open,
               "may_log": _may(user, *LOGGERS) and table.variant in ROUND_FORMS,
               "other_shoes": shoes.exclude(pk=shoe.pk if shoe else None).order_by("-number")[:12]}
    if shoe is not None:
        items = selectors.shoe_items(shoe=shoe)
        visible = set(selectors.rounds_visible(user).filter(shoe=shoe).values_list("pk", flat=True))
        context.update(_shoe_summary(shoe, items, visible))
    return render(request, "dealing/shoe.html", context)


def _call(form, write) -> bool:
    """Run a service; its refusal goes next to the field it names (or on top of the form)."""
    try:
        write()
    except ServiceError as exc:
        _service_error_to_form(form, exc)
        return False
    return True


def _require_role(user, roles) -> None:
    if not has_role(user, *roles):
        raise PermissionDenied(_("Your role does not allow this."))


def _shoe_summary(shoe: Shoe, items: list, visible_rounds: set) -> dict:
    rows = []
    burns = changes = rounds = 0
    for item in items:
        if isinstance(item, Round):
            rounds += 1
            rows.append({"kind": "round", "item": item, "visible": item.pk in visible_rounds})
        else:
            burns += item.kind == ShoeEventKind.BURN
            changes += item.kind == ShoeEventKind.DEALER_CHANGE
            rows.append({"kind": item.kind, "item": item})
    try:
        findings = engine.check_shoe(selectors.shoe_document(shoe=shoe))
    except engine.RoundError as exc:
        findings = []
        rows.append({"kind": "error", "message": exc.message})
    total = shoe.decks * len(engine.variant(shoe.table.variant).PACK)
    left = selectors.shoe_cards_left(shoe=shoe)
    return {"rows": rows, "burns": burns, "changes": changes, "round_count": rounds, "shoe_findings": findings,
            "cards_total": total, "cards_left": left,
            "cards_left_pct": None if left is None else round(100 * left / total) if total else 0}


# --- incidents -------------------------------------------------------------------------------------------

def _incident_rows(user, filters: dict):
    try:
        return selectors.incident_list(user=user, filters=filters).order_by("-reported_at", "-id")
    except ValidationError:
        return Incident.objects.none()


@require_http_methods(["GET"])
@role_required(*READERS)
def incident_list(request):
    status = request.GET.get("status", "")
    filters = {"status": status} if status in IncidentStatus.values else {}
    return render(request, "dealing/incident_list.html", {
        "incidents": _incident_rows(request.user, filters)[:200], "status": status,
        "statuses": IncidentStatus.choices, "table": None, "may_report": _may(request.user, *REPORTERS),
    })


@require_http_methods(["GET"])
@role_required(*READERS)
def table_incidents(request, name: str):
    table = table_for(request.user, name)
    status = request.GET.get("status", "")
    filters = {"table": table.pk, **({"status": status} if status in IncidentStatus.values else {})}
    return render(request, "dealing/incident_list.html", {
        "incidents": _incident_rows(request.user, filters)[:200], "status": status,
        "statuses": IncidentStatus.choices, "table": table, "may_report": _may(request.user, *REPORTERS),
    })


@require_http_methods(["GET", "POST"])
@role_required(*REPORTERS)
def incident_new(request):
    """An inspector's (or pit boss's) report of an exposed or misdrawn card; it goes to the pit queue."""
    user = request.user
    tables = floor_selectors.table_list(user=user).filter(is_active=True).order_by("name")
    dealers = _dealers_of_pits(user)
    if request.method == "POST":
        form = IncidentForm(request.POST, tables=tables, dealers=dealers, user=user)
        if form.is_valid():
            d = form.cleaned_data
            try:
                incident = services.incident_report(
                    table=d["table"], kind=d["kind"], card=d["card"], exposed=d["exposed"],
                    resolution=d["resolution"], to_box=d["to_box"], dealer=d["dealer"], reported_by=user,
                    round=d["round"], evidence=d["evidence"], note=d["note"])
            except ServiceError as exc:
                _service_error_to_form(form, exc)
            else:
                messages.success(request, _("Incident reported at %(table)s: it waits for a pit boss's decision.")
                                 % {"table": incident.table.name})
                return redirect("dealing:table_incidents", name=incident.table.name)
    else:
        initial = {"exposed": True}
        table_name = request.GET.get("table")
        if table_name:
            initial["table"] = table_name
        record = None
        if request.GET.get("round", "").isdigit():
            record = selectors.rounds_visible(user).filter(pk=int(request.GET["round"])).select_related(
                "table", "dealer").first()
        if record is not None:
            initial.update(table=record.table.name, round=record.pk, dealer=record.dealer.get_username())
        form = IncidentForm(initial=initial, tables=tables, dealers=dealers, user=user)
    return render(request, "dealing/incident_new.html", {"form": form})


def _dealers_of_pits(user):
    from django.contrib.auth import get_user_model

    users = (get_user_model().objects.filter(is_active=True, staff__pits__in=user_pits(user))
             .distinct().order_by("username"))
    return [u for u in users if has_role(u, DEALER)]


def _service_error_to_form(form, exc: ServiceError) -> None:
    name = (exc.extra or {}).get("path")
    form.add_error(name if name in form.fields else None, exc.message)


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
    waiting_incidents = [i for i in Incident.objects.filter(status=IncidentStatus.REPORTED,
                                                             table__pit__in=user_pits(user))
                         .select_related("table", "dealer", "reported_by", "round") if i.pk not in mine]
    amend_ids = set(r.pk for r in amendments)
    waiting_amendments = [r for r in Round.objects.filter(status=RoundStatus.PENDING, table__pit__in=user_pits(user))
                          .select_related("table", "dealer", "logged_by", "supersedes") if r.pk not in amend_ids]
    return render(request, "dealing/pit_queue.html", {
        "incidents": incidents, "amendments": amendments, "waiting_incidents": waiting_incidents,
        "waiting_amendments": waiting_amendments, "form": DecisionForm(),
    })


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
    if _is_htmx(request):
        return render(request, "dealing/_queue_item.html", {
            "item": obj, "kind": kind, "form": form, "error": error, "approval": approval,
        })
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Decision recorded: %(decision)s.") % {"decision": approval.get_decision_display()})
    return redirect("dealing:pit_queue")


@require_POST
@role_required(*DECIDERS)
def incident_decide(request, pk: int):
    user = request.user
    incident = get_object_or_404(Incident.objects.select_related("table__pit", "dealer", "reported_by", "round"),
                                 pk=pk, table__pit__in=user_pits(user))
    return _decide(request, lambda decision, comment: services.incident_decide(
        incident=incident, decided_by=user, decision=decision, comment=comment), incident, "incident")


@require_POST
@role_required(*DECIDERS)
def amendment_decide(request, pk: int):
    user = request.user
    amendment = get_object_or_404(Round.objects.select_related("table__pit", "dealer", "logged_by", "supersedes"),
                                  pk=pk, table__pit__in=user_pits(user))
    return _decide(request, lambda decision, comment: services.round_amendment_decide(
        round=amendment, decided_by=user, decision=decision, comment=comment), amendment, "amendment")

