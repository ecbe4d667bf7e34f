from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .kinds import Channel, Kind


class PreferenceForm(forms.Form):
    """A channel for each kind, and the digest."""

    digest = forms.BooleanField(
        label=_("Send me a daily digest of what I have not read"),
        required=False,
    )

    language = forms.ChoiceField(label=_("Language of the e-mails"), required=False, choices=())

    def __init__(self, *args, channels: dict[str, str], last_language: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        names = dict(settings.LANGUAGES)
        last = names.get(last_language)
        blank = _("The language I last used (%(language)s)") % {"language": last} if last else None
        self.fields["language"].choices = [("", blank or _("The language I last used"))] + [
            (code, name) for code, name in settings.LANGUAGES
        ]
        for kind in Kind:
            self.fields[f"kind_{kind.value}"] = forms.ChoiceField(
                label=kind.label, choices=Channel.choices, initial=channels.get(kind.value), widget=forms.Select
            )

    def kind_fields(self):
        return [self[f"kind_{kind.value}"] for kind in Kind]

    def channels(self) -> dict[str, str]:
        return {kind.value: self.cleaned_data[f"kind_{kind.value}"] for kind in Kind}
