"""The player evaluation page (/books/players/<player>/evaluation/): the evaluation as surveillance
files it — the estimated edge and its interval, the bet against the true count (a chart drawn here as
SVG, no script), the sessions, the deviations with their EV, the player's rounds (keyset pages) —
and its CSV / XLSX exports. Thin: the period, a selector, the engine's evaluation, render."""

from contextlib import closing

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from audit.dashboard import PERIODS, period_from
from casino import collector, keyset
from casino.exports import export_response
from casino.pdf import pdf_response
from casino.roles import role_required
from dealing.engine import evaluation

from . import selectors
from .report import bet_chart, decision_rows, round_rows, session_rows
from .selectors import READ_ROLES

PAGE_SIZE = 50
DEVIATIONS_SHOWN = 200
SESSIONS_SHOWN = 100  # the latest: a year holds thousands, each in the sessions export
EXPORTS = ("rounds", "decisions", "sessions")


def evaluate(user, player: str, period) -> evaluation.Evaluation:
    """The player's evaluation over the period, his shoes evaluated one at a time; the generator of
    shoes closed whatever happens."""
    shoes = selectors.player_shoes(user, player, date_from=period.date_from, date_to=period.date_to)
    with closing(shoes):
        return evaluation.evaluate(shoes, player=player)


@require_http_methods(["GET"])
@role_required(*READ_ROLES)
@collector.paused()  # a year's documents and rounds make no cycle (casino/collector.py)
def player_evaluation(request, player: str):
    period = period_from(request.GET)
    report = evaluate(request.user, player, period)
    wanted = request.GET.get("export", "")
    if wanted in EXPORTS:
        rows = {"rounds": round_rows, "decisions": decision_rows, "sessions": session_rows}[wanted](report)
        name = f"player-{player}-{wanted}-{period.date_from:%Y%m%d}-{period.date_to:%Y%m%d}"
        return export_response(request, rows, f"{name}.csv", title=_("Player evaluation"))
    deviations = report.costliest_deviations()
    summary = report.summary()
    figures = {
        "player": player,
        "period": period,
        "summary": summary,
        "deviations": deviations[:DEVIATIONS_SHOWN],
        "deviations_total": len(deviations),
        "chart": bet_chart(report, summary),
    }
    if wanted == "pdf":
        name = f"player-{player}-{period.date_from:%Y%m%d}-{period.date_to:%Y%m%d}.pdf"
        return pdf_response(request, "books/pdf_player_evaluation.html", figures, name)
    rounds = selectors.player_rounds(request.user, player, date_from=period.date_from, date_to=period.date_to)
    try:
        page = keyset.page_from(rounds, request.GET, field="played_at", size=PAGE_SIZE)
    except keyset.BadKey:
        page = keyset.keyset_page(rounds, field="played_at", size=PAGE_SIZE)
    points = {p.round_id: p for p in report.rounds}
    days = request.GET.get("days", "")
    query_pairs = [(k, request.GET[k]) for k in ("days", "from", "to") if request.GET.get(k)]
    return render(
        request,
        "books/player_evaluation.html",
        {
            **figures,
            "periods": PERIODS,
            "days": days,
            "sessions": report.sessions[-SESSIONS_SHOWN:],
            "sessions_total": len(report.sessions),
            "page": page,
            "rounds": [(r, points.get(str(r.pk))) for r in page.object_list],
            "query": "&".join(f"{k}={v}" for k, v in query_pairs),
            "query_pairs": query_pairs,
            "at": request.GET.get("at", ""),
            "exports": EXPORTS,
        },
    )
