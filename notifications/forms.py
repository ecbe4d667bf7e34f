from django import forms
from django.utils.translation import gettext_lazy as _

from .kinds import Channel, Kind


class PreferenceForm(forms.Form):
    """A channel for each kind, and the digest."""

    digest = forms.BooleanField(
        label=_("Send me a daily digest of what I have not read"),
        required=False,
    )

    def __init__(self, *args, channels: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        for kind in Kind:
            self.fields[f"kind_{kind.value}"] = forms.ChoiceField(
                label=kind.label, choices=Channel.choices, initial=channels.get(kind.value), widget=forms.Select
            )

    def kind_fields(self):
        return [self[f"kind_{kind.value}"] for kind in Kind]

    def channels(self) -> dict[str, str]:
        return {kind.value: self.cleaned_data[f"kind_{kind.value}"] for kind in Kind}
