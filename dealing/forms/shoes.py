"""The shoe's forms: a new shoe, a burn between rounds, a change of dealer."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dealing.choices import BurnReason

from .fields import AmountField, CardField, UserChoiceField, amount_json_text


class ShoeStartForm(forms.Form):
    decks = forms.IntegerField(
        min_value=1, max_value=16, label=gettext_lazy("Packs"), widget=forms.NumberInput(attrs={"size": 3})
    )


class BurnForm(forms.Form):
    """A burn between rounds; a paid burn's fee is prefilled with half the table minimum."""

    reason = forms.ChoiceField(choices=BurnReason.choices, label=gettext_lazy("Reason"))
    card = CardField(label=gettext_lazy("Card"))
    fee = AmountField(label=gettext_lazy("Fee (paid burn)"))

    def __init__(self, *args, table, **kwargs):
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("fee", amount_json_text(table.min_bet / 2))
        super().__init__(*args, **kwargs)
        self.table = table

    def clean(self):
        data = super().clean()
        if data.get("reason") != BurnReason.PAID:
            data["fee"] = None
        elif data.get("fee") is None and "fee" not in self.errors:
            self.add_error(
                "fee",
                _("A paid burn costs the player half the table minimum (%(fee)s).")
                % {"fee": amount_json_text(self.table.min_bet / 2)},
            )
        return data


class DealerChangeForm(forms.Form):
    dealer = UserChoiceField(label=gettext_lazy("New dealer"))

    def __init__(self, *args, dealers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].users = dealers
