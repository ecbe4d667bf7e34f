"""Blackjack's game math pages: the basic-strategy chart, its house edge and rule effects, and its
question form."""

from django.shortcuts import render

from casino.roles import role_required
from dealing.games.math import READERS

from . import presenters as bjp
from . import selectors as bjs
from .forms import BlackjackQuestionForm, PresetForm


def _preset_form(request):
    form = PresetForm(request.GET or None)
    return (form if form.is_bound else PresetForm()), form.preset_name() if form.is_bound else "salon"


@role_required(*READERS)
def blackjack(request):
    """The basic-strategy chart (hard, soft, pairs) of a preset, soft and hard hands, insurance."""
    form, preset = _preset_form(request)
    document = bjs.strategy(preset=preset)
    return render(
        request,
        "gamemath/blackjack.html",
        {
            "form": form,
            "preset": preset,
            "rules": document["rules"],
            "grids": bjp.grids(document),
            "legend": bjp.legend(document),
            "soft_and_hard": bjp.soft_and_hard(document),
            "ups": [bjp.card_label(u) for u in document["up_cards"]],
            "insurance": bjs.insurance(preset=preset),
            "edge": bjs.edge(preset=preset),
            "basic": bjs.edge(preset=preset, strategy="basic"),
        },
    )


@role_required(*READERS)
def blackjack_edge(request):
    """The house edge of a preset, each single rule's effect (table and chart), the jackpot, the cut card."""
    form, preset = _preset_form(request)
    effects = bjs.rule_effects(preset=preset)
    return render(
        request,
        "gamemath/blackjack_edge.html",
        {
            "form": form,
            "preset": preset,
            "edge": bjs.edge(preset=preset),
            "basic": bjs.edge(preset=preset, strategy="basic"),
            "effects": bjp.effects(effects),
            "edge_chart": bjp.edge_chart_data(effects),
            "jackpot": bjs.jackpot(preset="online"),
            "cut": bjs.cut_card(preset="salon"),
        },
    )


@role_required(*READERS)
def blackjack_ask(request):
    """Ask the engine what each option of a blackjack hand is worth (`ev/1`)."""
    form = BlackjackQuestionForm(request.GET or None)
    answer = None
    if form.is_valid():
        try:
            answer = bjs.ev(**form.question())
        except bjs.QuestionError as error:
            form.add_error(form.ENGINE_FIELDS.get(error.field), str(error))
    return render(
        request,
        "gamemath/blackjack_ask.html",
        {
            "form": form,
            "answer": answer,
            "options": bjp.options(answer) if answer else None,
            "best_label": bjp.OPTION_LABELS.get(answer["best"]) if answer else None,
        },
    )
