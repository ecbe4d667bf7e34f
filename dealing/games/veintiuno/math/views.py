"""Veintiuno's game math page: the special hands' chances and the bank's edge."""

from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from casino.roles import role_required
from dealing.games.math import READERS

from . import selectors as vs
from .forms import VeintiunoRulesForm

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
    return render(
        request,
        "gamemath/veintiuno.html",
        {
            "form": form if form.is_bound else VeintiunoRulesForm(),
            "pays": pays,
            "edge": edge,
            "specials": [{"name": name, "label": label, "chance": chances[name]} for name, label in SPECIAL_HANDS],
            "thresholds": [
                {**row, "documented": row["threshold"] == edge["player"]["threshold"]}
                for row in vs.thresholds(suited_twelve_pays=pays)
            ],
        },
    )
