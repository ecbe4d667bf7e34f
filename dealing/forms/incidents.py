"""The incident forms: an inspector's report of an exposed or misdrawn card, a pit boss's decision."""

from django import forms
from django.db.models import Case, When
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.validators import TextValidator
from dealing import engine
from dealing.choices import Decision, IncidentKind, Resolution, RoundStatus
from dealing.engine import cards as engine_cards

from .fields import CardField, UserChoiceField


class IncidentForm(forms.Form):
    """An inspector's (or pit boss's) report of an exposed dealer card or a card drawn by mistake."""

    table = forms.ModelChoiceField(queryset=None, to_field_name="name", label=gettext_lazy("Table"), empty_label="—")
    kind = forms.ChoiceField(
        choices=IncidentKind.choices, label=gettext_lazy("What happened"), widget=forms.RadioSelect
    )
    card = CardField(label=gettext_lazy("Card"))
    exposed = forms.BooleanField(required=False, label=gettext_lazy("The card was seen (exposed)"))
    resolution = forms.ChoiceField(
        choices=Resolution.choices, label=gettext_lazy("Resolution"), widget=forms.RadioSelect
    )
    to_box = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=6,
        label=gettext_lazy("On box"),
        widget=forms.NumberInput(attrs={"size": 3}),
    )
    dealer = UserChoiceField(label=gettext_lazy("Dealer"))
    round = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Round (optional)"),
        help_text=gettext_lazy("The round's number, as its page shows it (Round 57)."),
        widget=forms.NumberInput(attrs={"size": 8}),
    )
    evidence = forms.CharField(
        required=False,
        max_length=120,
        validators=[TextValidator()],
        label=gettext_lazy("Evidence"),
        help_text=gettext_lazy("A surveillance clip id or another reference."),
    )
    note = forms.CharField(
        required=False,
        max_length=4000,
        validators=[TextValidator(lines=True)],
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Note"),
    )

    def __init__(self, *args, tables, dealers, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["table"].queryset = tables
        self.fields["dealer"].users = dealers

    def clean(self):
        from dealing.selectors import rounds_visible

        data = super().clean()
        if data.get("resolution") == Resolution.TO_BOX:
            if not data.get("to_box") and "to_box" not in self.errors:
                self.add_error("to_box", _("On which box did the pit boss place the card?"))
        else:
            data["to_box"] = None
        table, card = data.get("table"), data.get("card")
        if table is not None and card and card not in engine.variant(table.variant).PACK:
            self.add_error(
                "card",
                _("%(card)s is not in the %(game)s pack.")
                % {"card": engine_cards.label(card), "game": table.get_variant_display()},
            )
        # The round by its number at the table (`Round.table_round`, as every page shows it): the
        # revision in force, or the latest one when none is (a correction awaiting its pit boss).
        number = data.get("round")
        data["round"] = None
        if number and table is not None:
            record = (
                rounds_visible(self.user)
                .filter(table=table, table_round=number)
                .select_related("table")
                .order_by(Case(When(status=RoundStatus.RECORDED, then=0), default=1), "-revision")
                .first()
            )
            if record is None:
                self.add_error("round", _("There is no round %(n)d that you may see.") % {"n": number})
            else:
                data["round"] = record
        return data


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=Decision.choices)
    comment = forms.CharField(
        required=False,
        max_length=2000,
        validators=[TextValidator(lines=True)],
        label=gettext_lazy("Comment"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
