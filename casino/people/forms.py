"""The staff page's forms: the list's filters, a person's details, roles and pits, a new person."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ..models import Pit
from . import services
from .selectors import ROLE_CHOICES


class PersonFilterForm(forms.Form):
    q = forms.CharField(label=_("username or name"), required=False, max_length=150)
    role = forms.ChoiceField(label=_("role"), required=False, choices=[("", _("every role")), *ROLE_CHOICES])
    pit = forms.ModelChoiceField(label=_("pit"), required=False, queryset=Pit.objects.all(), empty_label=_("every pit"))
    active = forms.ChoiceField(
        label=_("status"),
        required=False,
        choices=[("", _("active and deactivated")), ("yes", _("active")), ("no", _("deactivated"))],
    )


class PersonForm(forms.Form):
    """What an admin changes of a person: everything but the username (the record chain keeps it)."""

    first_name = forms.CharField(label=_("first name"), required=False, max_length=150)
    last_name = forms.CharField(label=_("last name"), required=False, max_length=150)
    email = forms.EmailField(label=_("e-mail"), required=False, max_length=254)
    badge = forms.CharField(label=_("badge"), required=False, max_length=16)
    roles = forms.MultipleChoiceField(
        label=_("roles"),
        required=False,
        choices=ROLE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("An administrator holds every role and manages staff; the others open their role's pages."),
    )
    pits = forms.ModelMultipleChoiceField(
        label=_("pits"),
        required=False,
        queryset=Pit.objects.all(),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The pits whose tables and rounds the person works with (auditors read every pit)."),
    )


class PersonCreateForm(PersonForm):
    username = forms.CharField(
        label=_("username"),
        max_length=150,
        help_text=_("Letters, digits and @ . + - _ only. It cannot be changed later: the records keep it."),
    )
    password = forms.CharField(
        label=_("initial password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Give it to the person, who changes it after signing in."),
    )
    password_again = forms.CharField(
        label=_("initial password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    field_order = ["username", "first_name", "last_name", "email", "badge", "roles", "pits", "password"]

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password_again") is not None:
            if data["password"] != data["password_again"]:
                self.add_error("password_again", _("The two passwords differ."))
        # The service's own refusals (a username taken, a password the validators refuse) beside the
        # form's, so that one post shows every mistake; the service checks them again when storing.
        fields = ("username", "password", "first_name", "last_name", "email", "badge", "roles")
        problems = services.person_create_problems(**{name: data.get(name) or "" for name in fields})
        for field, texts in problems.items():
            if field in self.fields and field not in self.errors:
                self.add_error(field, texts)
        return data

    def clean_username(self):
        username = self.cleaned_data["username"]
        get_user_model().username_validator(username)
        return username
