"""The dealer performance pages (under /books/performance/): the floor's dealers over a period and one
dealer's page with his pace and weekly trend. Thin: the role, the period, a selector, render."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from audit.dashboard import PERIODS, period_from
from casino.roles import role_required

from . import selectors


@require_http_methods(["GET"])
@role_required(*selectors.ROLES)
def performance_list(request):
    period = period_from(request.GET)
    floor = selectors.floor_performance(user=request.user, period=period)
    return render(
        request,
        "books/performance_list.html",
        {
            "floor": floor,
            "periods": PERIODS,
            "days": request.GET.get("days", ""),
            "own_only": selectors.own_row_only(request.user),
        },
    )


@require_http_methods(["GET"])
@role_required(*selectors.ROLES)
def performance_detail(request, dealer: int):
    period = period_from(request.GET)
    floor, row = selectors.dealer_row(user=request.user, period=period, dealer_id=dealer)
    if row is None:
        # Another dealer's page, or one who dealt nothing on the viewer's floor: not there for him.
        raise Http404
    pace = selectors.dealer_pace(user=request.user, dealer_id=dealer, period=period)
    return render(
        request,
        "books/performance_detail.html",
        {
            "floor": floor,
            "row": row,
            "pace": pace,
            "chart": selectors.trend_chart(row, floor.weeks),
            "break_minutes": int(selectors.break_after().total_seconds() // 60),
            "periods": PERIODS,
            "days": request.GET.get("days", ""),
        },
    )
