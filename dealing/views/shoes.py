"""A table's shoe: its events, rounds and actions."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.roles import AUDITOR, INSPECTOR, PIT_BOSS, has_role, role_required
from dealing import engine, games, selectors, services
from dealing.choices import ShoeEventKind
from dealing.forms import BurnForm, DealerChangeForm, ShoeStartForm, pit_dealers
from dealing.models import Round, Shoe

from .common import (
    LOGGERS,
    READERS,
    SHOE_LOADERS,
    SHOE_RECORDERS,
    TERMINAL_USERS,
    call_service,
    may,
    require_role,
    table_for,
)

# --- shoes -----------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@role_required(*READERS)
def shoe_page(request, name: str, number: int | None = None):
    """A table's shoe: started, burns, dealer changes, rounds in order, cards left; and its actions.

    POST `action`: "start" (a new shoe), "burn" or "dealer_change" — each through its service.
    """
    user = request.user
    table = table_for(user, name)
    shoes = selectors.shoe_list_of_table(user=user, table=table)
    shoe = selectors.shoe_pick(shoes=shoes, number=number)
    dealers = pit_dealers(table)
    start_form = ShoeStartForm(prefix="start", initial={"decks": services.shoe_decks(table)})
    burn_form = BurnForm(prefix="burn", table=table)
    change_form = DealerChangeForm(prefix="change", dealers=dealers)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "start":
            require_role(user, SHOE_LOADERS)
            start_form = ShoeStartForm(request.POST, prefix="start")
            if start_form.is_valid() and call_service(
                start_form,
                lambda: services.shoe_start(table=table, shuffled_by=user, decks=start_form.cleaned_data["decks"]),
            ):
                messages.success(request, _("Shoe started: burn 6 cards before the first round."))
                return redirect("dealing:shoe", name=table.name)
        elif action in ("burn", "dealer_change"):
            require_role(user, SHOE_RECORDERS)
            if shoe is None or not shoe.is_open:
                messages.error(
                    request, _("There is no open shoe at %(table)s: start one first.") % {"table": table.name}
                )
            elif action == "burn":
                burn_form = BurnForm(request.POST, prefix="burn", table=table)
                d = burn_form.cleaned_data if burn_form.is_valid() else None
                if d is not None and call_service(
                    burn_form,
                    lambda: services.shoe_burn(
                        shoe=shoe, card=d["card"], reason=d["reason"], fee=d["fee"], recorded_by=user
                    ),
                ):
                    messages.success(request, _("Burn recorded."))
                    return redirect("dealing:shoe", name=table.name)
            else:
                change_form = DealerChangeForm(request.POST, prefix="change", dealers=dealers)
                if change_form.is_valid() and call_service(
                    change_form,
                    lambda: services.shoe_dealer_change(
                        shoe=shoe, dealer=change_form.cleaned_data["dealer"], recorded_by=user
                    ),
                ):
                    messages.success(request, _("Dealer change recorded: the new dealer burns one card."))
                    return redirect("dealing:shoe", name=table.name)
    audit_url = None
    if shoe is not None and has_role(user, INSPECTOR, PIT_BOSS, AUDITOR):
        try:
            audit_url = reverse("audit:shoe_detail", args=[shoe.pk])
        except NoReverseMatch:
            pass
    context = {
        "table": table,
        "shoe": shoe,
        "start_form": start_form,
        "burn_form": burn_form,
        "audit_url": audit_url,
        "change_form": change_form,
        "may_start": may(user, *SHOE_LOADERS),
        "may_record": may(user, *SHOE_RECORDERS) and shoe is not None and shoe.is_open,
        "may_log": may(user, *LOGGERS) and games.form_for(table.variant) is not None,
        "may_terminal": may(user, *TERMINAL_USERS) and table.is_active,
        "other_shoes": selectors.shoe_list_others(shoes=shoes, shoe=shoe),
    }
    if shoe is not None:
        context.update(_shoe_summary(request, user, shoe))
    return render(request, "dealing/shoe.html", context)


def _position(request, name: str) -> int | None:
    value = request.GET.get(name)
    if value is None:
        return None
    try:
        return max(0, int(value))
    except ValueError:
        raise Http404 from None


def _shoe_summary(request, user, shoe: Shoe) -> dict:
    """The shoe's facts and one page of its timeline. What reads the whole shoe (the engine's shoe
    check, the cards left) runs only while the shoe has at most SHOE_CHECK_LIMIT rounds: the page
    costs what it shows however many rounds were logged to the shoe."""
    page = selectors.shoe_items_page(shoe=shoe, before=_position(request, "before"), after=_position(request, "after"))
    visible = selectors.round_ids_visible_in_shoe(
        user=user, shoe=shoe, among=[item.pk for item in page.items if isinstance(item, Round)]
    )
    rows = []
    for item in page.items:
        if isinstance(item, Round):
            rows.append({"kind": "round", "item": item, "visible": item.pk in visible})
        else:
            rows.append({"kind": item.kind, "item": item})
    rounds = selectors.shoe_round_count(shoe=shoe)
    counts = selectors.shoe_event_counts(shoe=shoe)
    total = shoe.decks * len(engine.variant(shoe.table.variant).PACK)
    findings, left, checked = [], None, rounds <= selectors.SHOE_CHECK_LIMIT
    if checked:
        items = selectors.shoe_items(shoe=shoe)
        try:
            findings = engine.check_shoe(selectors.shoe_document(shoe=shoe, items=items))
        except engine.RoundError as exc:
            rows.append({"kind": "error", "message": exc.message})
        left = selectors.shoe_cards_left(shoe=shoe, items=items)
    else:
        left = selectors.shoe_cards_left(shoe=shoe)
    return {
        "rows": rows,
        "page": page,
        "burns": counts.get(ShoeEventKind.BURN, 0),
        "changes": counts.get(ShoeEventKind.DEALER_CHANGE, 0),
        "round_count": rounds,
        "shoe_checked": checked,
        "shoe_findings": findings,
        "cards_total": total,
        "cards_left": left,
        "cards_left_pct": None if left is None else round(100 * left / total) if total else 0,
    }
