"""Forms of the floor (house rules are checked by the model, and so by the engine), and the number
fields every app's forms type amounts and counts into."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from . import house_rules
from .choices import Variant
from .models import Table
from .validators import digits_problem


class _AsciiDigits:
    """A number field that takes the digits 0-9 only (casino.validators.digits_problem): Django's
    reads ٣ or ３ as 3."""

    def to_python(self, value):
        if isinstance(value, str):
            problem = digits_problem(value)
            if problem is not None:
                raise ValidationError(problem, code="digits")
        return super().to_python(value)


class DecimalField(_AsciiDigits, forms.DecimalField):
    """An amount (or any number with decimals) typed in the digits 0-9."""


class IntegerField(_AsciiDigits, forms.IntegerField):
    """A whole number (a count of chips) typed in the digits 0-9."""


def rules_help() -> str:
    """The house-rule options of each variant, from the engine, for the rules field's help text."""
    parts = []
    for variant in Variant:
        try:
            opts = house_rules.options(variant.value)
        except house_rules.VariantUnavailable:
            parts.append(format_html("<b>{}</b>: {}", variant.label, _("not in the rules engine yet")))
            continue
        items = format_html_join(
            "",
            "<li><code>{}</code> ({}, default <code>{}</code>) — {}</li>",
            (
                (o["name"], ", ".join(map(str, o.get("choices", []))) or o["kind"], o["default"], o["help"])
                for o in opts
            ),
        )
        parts.append(format_html('<b>{}</b><ul style="margin:.2rem 0 .5rem 1rem">{}</ul>', variant.label, items))
    return format_html(
        "{}<br>{}",
        _('Only the rules that differ from the defaults, as a JSON object, e.g. {"dark_win_bet": "take"}. Options:'),
        format_html_join("", "{}", ((p,) for p in parts)),
    )


class TableForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ["name", "pit", "variant", "min_bet", "max_bet", "boxes", "chips", "rules", "is_active", "opened_at"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The pit's page lists its tables with fewer fields (admin.TableInline): no chips, no rules.
        if "rules" in self.fields:
            self.fields["rules"].help_text = rules_help()
            self.fields["rules"].widget = forms.Textarea(attrs={"rows": 3, "cols": 60})
        if "chips" in self.fields:
            self.fields["chips"].widget = forms.TextInput(attrs={"size": 40})
