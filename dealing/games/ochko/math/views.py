"""Ochko's game math pages: its optimal play, the house edge per rule set, and a question form."""

from django.shortcuts import render

from casino.roles import role_required
from dealing.games.math import READERS

from . import presenters, selectors
from .forms import QuestionForm, RulesForm


@role_required(*READERS)
def ochko(request):
    """The optimal charts for a Bet of 1 and of 10 Antes, the Bet decision, the house edge per rule set."""
    form = RulesForm(request.GET or None)
    rules = form.rules() if form.is_bound else None
    charts = [presenters.chart(selectors.strategy(bet=k, rules=rules)) for k in selectors.CHART_BETS]
    first = selectors.strategy(bet=selectors.CHART_BETS[0], rules=rules)
    effects = selectors.rule_effects()
    return render(
        request,
        "gamemath/ochko.html",
        {
            "form": form if form.is_bound else RulesForm(),
            "rules": first["rules"],
            "charts": charts,
            "bet_decision": presenters.bet_decision(first, rules),
            "dark_value": first["dark_value"],
            "edge": selectors.edge(rules=rules),
            "effects": effects,
            "edge_chart": presenters.edge_chart_data(effects),
        },
    )


@role_required(*READERS)
def ochko_ask(request):
    """Ask the engine what each option of a hand is worth (`ev/1`); a bad question is shown on its field."""
    form = QuestionForm(request.GET or None)
    answer = None
    if form.is_valid():
        try:
            answer = selectors.ev(**form.question())
        except selectors.QuestionError as error:
            form.add_error(form.ENGINE_FIELDS.get(error.field), str(error))
    return render(
        request,
        "gamemath/ochko_ask.html",
        {
            "form": form,
            "answer": answer,
            "options": presenters.options(answer) if answer else None,
            "best_label": presenters.option_label(answer["best"]) if answer else None,
        },
    )
