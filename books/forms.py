"""The books' forms: a count (one field per denomination of the table, and an optional total),
a fill or credit, a cash amount, an explanation. They only read what was typed; the services
check it against the shift (and say what is wrong next to the field)."""

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.forms import DecimalField, IntegerField
from casino.validators import TextValidator

from .choices import CASH_KINDS, CHIP_KINDS
from .selectors import denominations


def _key(denom: str) -> str:
    return "c_" + denom.replace(".", "_")


class CountForm(forms.Form):
    """{denomination: chips} for the table, plus the total the counter makes it (optional)."""

    total = DecimalField(
        label=_("Total counted"),
        required=False,
        min_value=0,
        max_digits=14,
        decimal_places=2,
        help_text=_("Optional: the count must add up to it."),
    )

    def __init__(self, *args, table, with_total: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.denoms = denominations(table)
        fields = {}
        for denom in self.denoms:
            fields[_key(denom)] = IntegerField(
                label=denom,
                required=False,
                min_value=0,
                max_value=1_000_000,
                widget=forms.NumberInput(attrs={"class": "chip-count", "inputmode": "numeric", "min": "0"}),
            )
        total = self.fields.pop("total")
        self.fields.update(fields)
        if with_total:
            self.fields["total"] = total

    def chip_fields(self):
        return [(denom, i, self[_key(denom)]) for i, denom in enumerate(self.denoms)]

    def counts(self) -> dict[str, int]:
        return {d: self.cleaned_data.get(_key(d)) or 0 for d in self.denoms}

    def total_value(self):
        value = self.cleaned_data.get("total")
        return None if value is None else f"{value:f}"


class TransferForm(CountForm):
    kind = forms.ChoiceField(label=_("What"), choices=[(k.value, k.label) for k in CHIP_KINDS])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.order_fields(["kind"])


class CashForm(forms.Form):
    kind = forms.ChoiceField(label=_("What"), choices=[(k.value, k.label) for k in CASH_KINDS])
    amount = DecimalField(label=_("Amount"), min_value=Decimal("0.01"), max_digits=14, decimal_places=2)


class ExplainForm(forms.Form):
    text = forms.CharField(
        label=_("Explanation"),
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        validators=[TextValidator(lines=True)],
        help_text=_("What explains the variance; signed with your name."),
    )
