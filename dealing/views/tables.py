"""The tables of the user's pits and the "log a round" table picker."""



from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from casino import selectors as floor_selectors
from casino.roles import role_required
from dealing import games, selectors
from dealing.choices import IncidentStatus, RoundStatus

from .common import LOGGERS, READERS, REPORTERS, _may

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
            "table": table, "shoe": shoe, "has_form": games.form_for(table.variant) is not None,
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
              .order_by("pit__name", "name") if games.form_for(t.variant) is not None]
    if len(tables) == 1:
        return redirect("dealing:round_new", name=tables[0].name)
    return render(request, "dealing/round_pick_table.html", {"tables": tables})
