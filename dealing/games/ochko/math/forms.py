"""Ochko's math pages' forms: the house rules a chart is for, and a question for the engine (`ev/1`)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .selectors import RULE_VALUES

RULE_CHOICES = [(v, v) for v in RULE_VALUES]


class RulesForm(forms.Form):
    """The two dark-card house rules (rules/ochko.md); both default to `leave`."""

    dark_win_bet = forms.ChoiceField(
        label=_("A winning dark card's Bet"), choices=RULE_CHOICES, initial="leave", required=False
    )
    dark_double_bust_bet = forms.ChoiceField(
        label=_("A dark card's Bet when both bust"), choices=RULE_CHOICES, initial="leave", required=False
    )

    def rules(self) -> dict:
        """The chosen rules (the defaults for anything left out or unreadable)."""
        data = self.cleaned_data if self.is_valid() else {}
        return {name: data.get(name) or "leave" for name in ("dark_win_bet", "dark_double_bust_bet")}


class QuestionForm(RulesForm):
    """An Ochko question: the box's cards, the dealer's up card and the Bet; the engine judges them."""

    cards = forms.CharField(
        label=_("The box's cards"),
        max_length=120,
        help_text=_("Card codes separated by spaces, e.g. 10S 6H (one card alone: the Bet decision)."),
    )
    dealer = forms.CharField(
        label=_("The dealer's up card"),
        max_length=4,
        required=False,
        help_text=_("e.g. 9C; leave empty for the one-card question."),
    )
    bet = forms.IntegerField(label=_("The Bet (Antes)"), required=False, help_text=_("1 to 10; default 1."))
    removed = forms.CharField(
        label=_("Cards already gone from the shoe"),
        max_length=800,
        required=False,
        help_text=_("Optional: card codes separated by spaces."),
    )

    field_order = ["cards", "dealer", "bet", "removed", "dark_win_bet", "dark_double_bust_bet"]

    # The engine's QuestionError names one of its arguments; each is a field of this form.
    ENGINE_FIELDS = {"cards": "cards", "dealer": "dealer", "bet": "bet", "removed": "removed", "rules": None}

    def question(self) -> dict:
        data = self.cleaned_data
        return {
            "cards": data["cards"].split(),
            "dealer": data["dealer"].strip() or None,
            "bet": data["bet"],
            "removed": data["removed"].split(),
            "rules": self.rules(),
        }
