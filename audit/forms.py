"""Forms of the audit pages: a review (of one finding or of many at once) and the start of a run."""

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from casino.dates import DayField
from casino.models import Table
from casino.roles import DEALER
from casino.validators import TextValidator

from .choices import Classification, FindingStatus

User = get_user_model()


class ReviewForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            (FindingStatus.CONFIRMED, _("Confirm")),
            (FindingStatus.DISMISSED, _("Dismiss")),
            (FindingStatus.OPEN, _("Reopen")),
        ],
    )
    classification = forms.ChoiceField(
        label=_("Classification"), required=False, choices=[("", _("— none (reopen) —")), *Classification.choices]
    )
    comment = forms.CharField(
        label=_("Comment"),
        required=False,
        max_length=2000,
        validators=[TextValidator(lines=True)],
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class RunStartForm(forms.Form):
    tables = forms.ModelMultipleChoiceField(
        label=_("Tables"),
        required=False,
        queryset=Table.objects.none(),
        help_text=_("None selected: every table."),
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )
    dealers = forms.ModelMultipleChoiceField(
        label=_("Dealers"),
        required=False,
        queryset=User.objects.none(),
        help_text=_("None selected: every dealer."),
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )
    date_from = DayField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = DayField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    scope = forms.ChoiceField(
        label=_("Rounds"),
        initial="unaudited",
        widget=forms.RadioSelect,
        choices=[("unaudited", _("only rounds not audited yet")), ("all", _("all rounds (re-audit)"))],
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tables"].queryset = Table.objects.select_related("pit").order_by("pit__name", "name")
        self.fields["dealers"].queryset = User.objects.filter(Q(groups__name=DEALER)).distinct().order_by("username")
        self.fields["dealers"].label_from_instance = lambda u: (
            f"{u.get_username()} — {u.get_full_name()}" if u.get_full_name() else u.get_username()
        )

    def clean(self):
        data = super().clean()
        if data.get("date_from") and data.get("date_to") and data["date_to"] < data["date_from"]:
            self.add_error("date_to", _("Give a date on or after the start date."))
        return data
