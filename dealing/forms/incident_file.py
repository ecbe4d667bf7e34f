"""The forms of an incident's surveillance file: the first review, the second reviewer's sign-off,
an attachment and a video reference. The services check every value; these only carry them."""

from django import forms
from django.utils.translation import gettext_lazy

from dealing.choices import IncidentClass, MoneyDirection


class ReviewForm(forms.Form):
    classification = forms.ChoiceField(
        choices=IncidentClass.choices, label=gettext_lazy("Classification"), widget=forms.RadioSelect
    )
    money_direction = forms.ChoiceField(
        choices=MoneyDirection.choices, label=gettext_lazy("Money"), widget=forms.RadioSelect
    )
    money = forms.CharField(
        max_length=20,
        label=gettext_lazy("Amount"),
        help_text=gettext_lazy("0 when no money was at stake."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "size": 10}),
    )
    reason = forms.CharField(max_length=4000, label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class SignOffForm(forms.Form):
    comment = forms.CharField(
        max_length=4000, required=False, label=gettext_lazy("Comment"), widget=forms.Textarea(attrs={"rows": 2})
    )


class AttachmentForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy("A JPEG or PNG image or a PDF document."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png,application/pdf"}),
    )


class VideoForm(forms.Form):
    camera = forms.CharField(max_length=60, label=gettext_lazy("Camera"))
    start = forms.DateTimeField(
        label=gettext_lazy("From"), widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})
    )
    end = forms.DateTimeField(
        label=gettext_lazy("To"), widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1})
    )
