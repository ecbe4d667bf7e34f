"""The Game math pages: Ochko's optimal play, the house edge per rule set, and a question form;
blackjack's basic-strategy chart, its house edge and rule effects, and its question form."""

from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from casino.roles import role_required

from . import blackjack_presenters as bjp
from . import blackjack_selectors as bjs
from . import presenters, selectors
from . import veintiuno_selectors as vs
from .access import READERS
from .forms import BlackjackQuestionForm, PresetForm, QuestionForm, RulesForm, VeintiunoRulesForm


@role_required(*READERS)
def ochko(request):
    """The optimal charts for a Bet of 1 and of 10 Antes, the Bet decision, the house edge per rule set."""
    form = RulesForm(request.GET or None)
    rules = form.rules() if form.is_bound else None
    charts = [presenters.chart(selectors.strategy(bet=k, rules=rules)) for k in selectors.CHART_BETS]
    first = selectors.strategy(bet=selectors.CHART_BETS[0], rules=rules)
    effects = selectors.rule_effects()
    return render(request, "gamemath/ochko.html", {
        "form": form if form.is_bound else RulesForm(),
        "rules": first["rules"],
        "charts": charts,
        "bet_decision": presenters.bet_decision(first, rules),
        "dark_value": first["dark_value"],
        "edge": selectors.edge(rules=rules),
        "effects": effects,
        "edge_chart": presenters.edge_chart_data(effects),
    })


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
    return render(request, "gamemath/ochko_ask.html", {
        "form": form, "answer": answer, "options": presenters.options(answer) if answer else None,
        "best_label": presenters.option_label(answer["best"]) if answer else None,
    })


# --- blackjack ---------------------------------------------------------------------------------------

def _preset_form(request):
    form = PresetForm(request.GET or None)
    return (form if form.is_bound else PresetForm()), form.preset_name() if form.is_bound else "salon"


@role_required(*READERS)
def blackjack(request):
    """The basic-strategy chart (hard, soft, pairs) of a preset, soft and hard hands, insurance."""
    form, preset = _preset_form(request)
    document = bjs.strategy(preset=preset)
    return render(request, "gamemath/blackjack.html", {
        "form": form, "preset": preset, "rules": document["rules"], "grids": bjp.grids(document),
        "legend": bjp.legend(document), "soft_and_hard": bjp.soft_and_hard(document),
        "ups": [bjp.card_label(u) for u in document["up_cards"]],
        "insurance": bjs.insurance(preset=preset),
        "edge": bjs.edge(preset=preset), "basic": bjs.edge(preset=preset, strategy="basic"),
    })


@role_required(*READERS)
def blackjack_edge(request):
    """The house edge of a preset, each single rule's effect (table and chart), the jackpot, the cut card."""
    form, preset = _preset_form(request)
    effects = bjs.rule_effects(preset=preset)
    return render(request, "gamemath/blackjack_edge.html", {
        "form": form, "preset": preset,
        "edge": bjs.edge(preset=preset), "basic": bjs.edge(preset=preset, strategy="basic"),
        "effects": bjp.effects(effects), "edge_chart": bjp.edge_chart_data(effects),
        "jackpot": bjs.jackpot(preset="online"), "cut": bjs.cut_card(preset="salon"),
    })


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
    return render(request, "gamemath/blackjack_ask.html", {
        "form": form, "answer": answer, "options": bjp.options(answer) if answer else None,
        "best_label": bjp.OPTION_LABELS.get(answer["best"]) if answer else None,
    })


SPECIAL_HANDS = (
    ("natural", _("21 in two cards (A + J/Q/K), declared")),
    ("monona", _("Moñona: two aces")),
    ("suited_twelve", _("Two-card 12 of one suit (counts 21)")),
    ("twelve", _("Two-card 12 of two suits (counts 20)")),
    ("relancina", _("Relancina: two different pictures")),
    ("thirteen", _("13 in two cards (may withdraw)")),
    ("trillona_chasing", _("Trillona, drawing for it (21 in seven cards)")),
)


@role_required(*READERS)
def veintiuno(request):
    """The special hands' chances and the bank's edge between the documented strategies."""
    form = VeintiunoRulesForm(request.GET or None)
    pays = form.pays() if form.is_bound else 2
    chances = vs.specials()["chances"]
    edge = vs.edge(suited_twelve_pays=pays)
    return render(request, "gamemath/veintiuno.html", {
        "form": form if form.is_bound else VeintiunoRulesForm(),
        "pays": pays,
        "edge": edge,
        "specials": [{"name": name, "label": label, "chance": chances[name]} for name, label in SPECIAL_HANDS],
        "thresholds": [{**row, "documented": row["threshold"] == edge["player"]["threshold"]}
                       for row in vs.thresholds(suited_twelve_pays=pays)],
    })
