"""The tables of the user's pits and the "log a round" table picker."""

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from casino.roles import role_required
from dealing import games, selectors

from .common import LOGGERS, READERS, REPORTERS, TERMINAL_USERS, may

# --- tables ----------------------------------------------------------------------------------------


@require_http_methods(["GET"])
@role_required(*READERS)
def table_list(request):
    """The tables of the user's pits, each with its open shoe and what the user may do there."""
    user = request.user
    # A pit's tables by game, then by stakes (the salon's tiers in order), then by name.
    tables = list(selectors.table_list_by_pit(user=user))
    shoes = selectors.shoe_open_by_table(user=user, tables=tables)
    pending = selectors.incident_pending_count_by_table(user=user, tables=tables)
    rows = []
    for table in tables:
        shoe = shoes.get(table.pk)
        rows.append(
            {
                "table": table,
                "shoe": shoe,
                "has_form": games.form_for(table.variant) is not None,
                "cards_left": selectors.shoe_cards_left(shoe=shoe) if shoe else None,
                "rounds": selectors.shoe_round_count(shoe=shoe) if shoe else 0,  # an index read, not a count
                "pending": pending.get(table.pk, 0),
            }
        )
    return render(
        request,
        "dealing/table_list.html",
        {
            "rows": rows,
            "may_log": may(user, *LOGGERS),
            "may_report": may(user, *REPORTERS),
            "may_terminal": may(user, *TERMINAL_USERS),
        },
    )


@require_http_methods(["GET"])
@role_required(*LOGGERS)
def round_pick_table(request):
    """ "Log a round" from the navigation: straight to the form when there is one table to choose."""
    tables = [
        t
        for t in selectors.table_list_open(user=request.user, order=("pit__name", "name"))
        if games.form_for(t.variant) is not None
    ]
    if len(tables) == 1:
        return redirect("dealing:round_new", name=tables[0].name)
    return render(request, "dealing/round_pick_table.html", {"tables": tables})
