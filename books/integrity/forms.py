"""The forms of the integrity signals' pages: the list's filters and an auditor's review."""

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.validators import TextValidator

from ..models import SignalKind, SignalStatus
from .services import MAX_NOTE


class SignalFilterForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), required=False, choices=[("", _("all kinds")), *SignalKind.choices])
    status = forms.ChoiceField(
        label=_("Status"), required=False, choices=[("", _("any status")), *SignalStatus.choices]
    )
    dealer = forms.CharField(label=_("Dealer"), required=False, max_length=150)
    player = forms.CharField(label=_("Player"), required=False, max_length=80)


class SignalReviewForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Decision"), choices=[(SignalStatus.CONFIRMED, _("Confirm")), (SignalStatus.DISMISSED, _("Dismiss"))]
    )
    note = forms.CharField(
        label=_("Note"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=MAX_NOTE,
        validators=[TextValidator(lines=True)],
        help_text=_("Why you confirm or dismiss it: required."),
    )
