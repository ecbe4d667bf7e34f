"""The findings filter: one filterset for the findings page, its CSV export and the API.

No filter adds DISTINCT (django-filter's default for multiple choices): each follows a foreign key
to one row (a finding has one table, one pit, one dealer), so no finding can come twice, and a
DISTINCT over every column made PostgreSQL sort every matching finding to show a page of them.
A finding carries its table and dealer: those filters are on its own columns and indexes.

Every filter takes one value or several (`?code=WRONG_AMOUNT&code=WRONG_RESULT`). The choices of
tables, pits and dealers are narrowed to what the user may see.
"""

from datetime import timedelta

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import F, Func, Q, TextField
from django.utils.translation import gettext_lazy as _

from casino.choices import Variant
from casino.filters import DayFilter, IdFilter
from casino.models import Pit, Table
from casino.roles import DEALER, user_pits
from casino.scope import restrict, sees_every_pit
from dealing import engine

from .choices import Classification, FindingStatus, Severity
from .models import Finding
from .services import day_start

User = get_user_model()


class SearchText(Func):
    """What the text filter searches: a finding's message, code and stake as one string.

    One expression instead of three ORed lookups, so that one index serves it: on PostgreSQL a
    trigram index on this same expression (audit/migrations/0007_finding_text_search.py), whose
    statistics also tell the planner how many findings a word matches — a common word walks the
    newest findings, a rare one reads the index. Three ORed lookups had no index to use and made
    the planner sort every match (the page grew with the findings)."""

    arg_joiner = " || ' ' || "
    template = "(%(expressions)s)"
    output_field = TextField()

    def __init__(self):
        super().__init__(F("message"), F("code"), F("stake"))


class ManyOrOne(forms.SelectMultiple):
    """A plain select on the page (one value, or none for "any"); several values from a query string."""

    allow_multiple_selected = False

    def value_from_datadict(self, data, files, name):
        getter = getattr(data, "getlist", None)
        values = getter(name) if getter else data.get(name)
        if values is None:
            return []
        if isinstance(values, str):
            values = [values]
        return [v for v in values if v not in ("", None)]


CODE_CHOICES = [(code, code) for code in sorted(engine.CODES)]


class FindingFilter(django_filters.FilterSet):
    code = django_filters.MultipleChoiceFilter(distinct=False, label=_("Code"), choices=CODE_CHOICES, widget=ManyOrOne)
    severity = django_filters.MultipleChoiceFilter(
        distinct=False, label=_("Severity"), choices=Severity.choices, widget=forms.CheckboxSelectMultiple
    )
    status = django_filters.MultipleChoiceFilter(
        distinct=False, label=_("Status"), choices=FindingStatus.choices, widget=forms.CheckboxSelectMultiple
    )
    classification = django_filters.MultipleChoiceFilter(
        distinct=False, label=_("Classification"), choices=Classification.choices, widget=ManyOrOne
    )
    pit = django_filters.ModelMultipleChoiceFilter(
        distinct=False, label=_("Pit"), field_name="table__pit", queryset=Pit.objects.all(), widget=ManyOrOne
    )
    table = django_filters.ModelMultipleChoiceFilter(
        distinct=False, label=_("Table"), queryset=Table.objects.all(), widget=ManyOrOne
    )
    variant = django_filters.MultipleChoiceFilter(
        distinct=False, label=_("Game"), field_name="table__variant", choices=Variant.choices, widget=ManyOrOne
    )
    dealer = django_filters.ModelMultipleChoiceFilter(
        distinct=False, label=_("Dealer"), queryset=User.objects.none(), widget=ManyOrOne
    )
    date_from = DayFilter(label=_("From"), method="filter_from", widget=forms.DateInput(attrs={"type": "date"}))
    date_to = DayFilter(label=_("To"), method="filter_to", widget=forms.DateInput(attrs={"type": "date"}))
    round = IdFilter(label=_("Round"), field_name="round_id")
    shoe = IdFilter(label=_("Shoe"), field_name="shoe_id")
    kind = django_filters.ChoiceFilter(
        label=_("Of"), method="filter_kind", choices=[("round", _("rounds")), ("shoe", _("shoes"))]
    )
    impact = django_filters.ChoiceFilter(
        label=_("Money"),
        method="filter_impact",
        choices=[("under", _("player under-paid")), ("over", _("player over-paid")), ("any", _("any money impact"))],
    )
    q = django_filters.CharFilter(label=_("Text"), method="filter_text")

    class Meta:
        model = Finding
        fields: list[str] = []

    def __init__(self, data=None, queryset=None, *, user=None, **kwargs):
        super().__init__(data, queryset, **kwargs)
        if user is not None:
            everything = sees_every_pit(user)
            pits = user_pits(user)  # every pit for an auditor
            self.filters["pit"].queryset = pits
            self.form.fields["pit"].queryset = pits
            tables = restrict(Table.objects.select_related("pit"), user)
            self.filters["table"].queryset = tables
            self.form.fields["table"].queryset = tables
            dealers = User.objects.filter(Q(groups__name=DEALER) | Q(is_superuser=True)).distinct()
            if not everything:
                dealers = dealers.filter(Q(staff__pits__in=pits) | Q(pk=user.pk)).distinct()
            dealers = dealers.order_by("username")
            self.filters["dealer"].queryset = dealers
            self.form.fields["dealer"].queryset = dealers

    def filter_from(self, queryset, name, value):
        return queryset.filter(played_at__gte=day_start(value)) if value else queryset

    def filter_to(self, queryset, name, value):
        return queryset.filter(played_at__lt=day_start(value + timedelta(days=1))) if value else queryset

    def filter_kind(self, queryset, name, value):
        if value == "round":
            return queryset.filter(round_id__isnull=False)
        if value == "shoe":
            return queryset.filter(round_id__isnull=True)
        return queryset

    def filter_impact(self, queryset, name, value):
        if value == "under":
            return queryset.filter(player_delta__lt=0)
        if value == "over":
            return queryset.filter(player_delta__gt=0)
        if value == "any":
            return queryset.exclude(player_delta=0).filter(player_delta__isnull=False)
        return queryset

    def filter_text(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.alias(text=SearchText()).filter(text__icontains=value)
