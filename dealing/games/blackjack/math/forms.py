"""Blackjack's math pages' forms: the preset a page is for, and a question for the engine (`ev/1`)."""

from django import forms
from django.utils.translation import gettext_lazy as _

BLACKJACK_PRESETS = [("salon", _("Salon (6 decks, seed 002)")), ("online", _("Online (8 decks, seed 001)"))]


class PresetForm(forms.Form):
    """Which blackjack preset a page is for (rules/blackjack.md)."""

    preset = forms.ChoiceField(label=_("Rules"), choices=BLACKJACK_PRESETS, initial="salon", required=False)

    def preset_name(self) -> str:
        data = self.cleaned_data if self.is_valid() else {}
        return data.get("preset") or "salon"


class BlackjackQuestionForm(PresetForm):
    """A blackjack question: the hand, the dealer's up card, cards gone; the engine judges them."""

    cards = forms.CharField(
        label=_("The hand's cards"), max_length=120, help_text=_("Card codes separated by spaces, e.g. 10S 6H.")
    )
    dealer = forms.CharField(label=_("The dealer's up card"), max_length=4, help_text=_("e.g. 10C"))
    removed = forms.CharField(
        label=_("Cards already gone from the shoe"),
        max_length=800,
        required=False,
        help_text=_("Optional: card codes separated by spaces."),
    )

    field_order = ["cards", "dealer", "removed", "preset"]
    ENGINE_FIELDS = {"cards": "cards", "dealer": "dealer", "removed": "removed", "preset": "preset", "rules": None}

    def question(self) -> dict:
        data = self.cleaned_data
        return {
            "cards": data["cards"].split(),
            "dealer": data["dealer"].strip(),
            "removed": data["removed"].split(),
            "preset": self.preset_name(),
        }
