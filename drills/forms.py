"""Forms of the drill pages: starting a drill, settling a payout round, setting a standard."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.forms import DecimalField
from casino.templatetags.casino_tags import money
from dealing.games.drills import games_of

from . import setups, strategy
from .choices import Kind


def game_choices() -> list[tuple[str, object]]:
    """The games a drill is played at ("blackjack:salon": a game and its preset), from each game's drill
    set-ups (dealing/games/<variant>/drills.py), in the registry's order."""
    return [choice for drills in setups.drilled() for choice in games_of(drills)]


INCIDENT_LEVELS = [("none", _("none")), ("some", _("in some rounds")), ("every", _("in every round"))]


def split_game(game: str) -> tuple[str, str]:
    variant, _sep, preset = game.partition(":")
    return variant, preset


def table_choices() -> list[tuple[str, str]]:
    out = []
    for game, _label in game_choices():
        for setup in setups.tables_for(*split_game(game)):
            out.append((setup.key, f"{setup.name} · {money(setup.min)}–{money(setup.max)}"))
    return out


def tables_by_game() -> dict[str, list[str]]:
    return {game: [s.key for s in setups.tables_for(*split_game(game))] for game, _label in game_choices()}


def feature_fields() -> list[tuple[str, str, str]]:
    """(form field, game, label) of every difficulty situation."""
    out = []
    for variant, features in setups.features().items():
        for name, label in features:
            out.append((f"f_{variant}_{name}", variant, label))
    return out


class DrillStartForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices, initial=game_choices()[0][0])
    kind = forms.ChoiceField(label=_("Drill"), choices=Kind.choices, initial=Kind.PAYOUT, widget=forms.RadioSelect)
    table = forms.ChoiceField(
        label=_("Practice table"),
        choices=table_choices,
        initial=setups.tables_for(*split_game(game_choices()[0][0]))[0].key,
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=setups.MAX_ROUNDS,
        required=False,
        help_text=_("Payout drills: 10 by default; procedure drills: 3."),
    )
    boxes = forms.IntegerField(
        label=_("Most boxes in play"),
        min_value=1,
        max_value=6,
        required=False,
        help_text=_("Fewer boxes make shorter rounds."),
    )
    incidents = forms.ChoiceField(label=_("Incidents (ochko procedure)"), choices=INCIDENT_LEVELS, initial="some")
    incident_kinds = forms.MultipleChoiceField(
        label=_("Which incidents"),
        choices=setups.INCIDENTS,
        required=False,
        initial=list(setups.INCIDENT_KINDS),
        widget=forms.CheckboxSelectMultiple,
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=2**63 - 1,
        required=False,
        help_text=_("Optional. The same seed, game, table and difficulty deal the same rounds."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, _variant, label in feature_fields():
            self.fields[name] = forms.BooleanField(label=label, required=False, initial=True)
        # The house rules of the strategy trainer's table (ochko's dark-card rules), from each game's part.
        for name, label, choices in strategy.house_rule_fields():
            self.fields[name] = forms.ChoiceField(
                label=label, choices=list(choices), initial=choices[0][0], required=False
            )

    def features_of(self, variant: str):
        return [self[name] for name, v, _label in feature_fields() if v == variant]

    def clean(self):
        data = super().clean()
        game, table = data.get("game"), data.get("table")
        if game and table and table not in tables_by_game().get(game, []):
            self.add_error("table", _("This practice table is not a table of the game chosen."))
        return data

    def start_kwargs(self) -> dict:
        data = self.cleaned_data
        variant, preset = split_game(data["game"])
        options = {
            name.removeprefix(f"f_{variant}_"): data[name] for name, v, _label in feature_fields() if v == variant
        }
        if data.get("boxes"):
            options["boxes"] = data["boxes"]
        if setups.weaves_incidents(variant, data["kind"]):
            options["incidents"] = data["incidents"]
            options["incident_kinds"] = data["incident_kinds"] or list(setups.INCIDENT_KINDS)
        house_rules = strategy.house_rules_of(variant)
        if house_rules and data["kind"] == Kind.STRATEGY:
            options["house_rules"] = {name: data.get(name) or self.fields[name].initial for name in house_rules}
        return {
            "variant": variant,
            "preset": preset,
            "kind": data["kind"],
            "table": data["table"],
            "rounds": data.get("rounds"),
            "seed": data.get("seed"),
            "options": options,
        }


class StandardForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    kind = forms.ChoiceField(label=_("Drill"), choices=Kind.choices, initial=Kind.PAYOUT)
    rounds_in_row = forms.IntegerField(label=_("Rounds in a row"), min_value=1, max_value=1000, initial=50)
    min_accuracy = DecimalField(
        label=_("Minimum accuracy (%)"),
        min_value=Decimal(0),
        max_value=Decimal(100),
        decimal_places=2,
        initial=Decimal(98),
    )
    time_limit_s = forms.IntegerField(
        label=_("Time limit per round (seconds)"),
        min_value=1,
        required=False,
        initial=60,
        help_text=_("Empty: no time limit."),
    )

    def set_kwargs(self) -> dict:
        data = self.cleaned_data
        variant, preset = split_game(data["game"])
        return {
            "variant": variant,
            "preset": preset,
            "kind": data["kind"],
            "rounds_in_row": data["rounds_in_row"],
            "min_accuracy": data["min_accuracy"],
            "time_limit_s": data.get("time_limit_s"),
        }
