"""Veintiuno's math page's form: the house rule it varies."""

from django import forms
from django.utils.translation import gettext_lazy as _


class VeintiunoRulesForm(forms.Form):
    """The one veintiuno house rule the math page varies: what a suited two-card 12 pays."""

    suited_twelve_pays = forms.IntegerField(
        label=_("A suited two-card 12 pays"), min_value=1, max_value=10, initial=2, required=False
    )

    def pays(self) -> int:
        """The chosen payout (the default, 2, for anything left out or out of range)."""
        data = self.cleaned_data if self.is_valid() else {}
        return data.get("suited_twelve_pays") or 2
