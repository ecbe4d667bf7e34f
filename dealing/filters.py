"""Filters of dealing, one per list, shared by the pages and the API.

Tables, shoes and rounds are named by id; people by username (as a round log names its dealer).
A date range is `from` and `to` (dates, both included).
"""

import django_filters
from django.utils.translation import gettext_lazy as _

from casino.choices import Variant
from casino.filters import DayFilter, IdFilter, StrictFilterSet
from casino.models import Table

from .choices import AuditStatus, IncidentKind, IncidentStatus, RoundStatus
from .models import Incident, Round, Shoe, Stake, audit_status_q, status_q


def _add_date_range(filterset, field_name: str) -> None:
    """`from` and `to` (Python keywords, so they cannot be declared in the class body)."""
    filterset.base_filters["from"] = DayFilter(
        field_name=field_name, lookup_expr="date__gte", label=_("from (date, included)")
    )
    filterset.base_filters["to"] = DayFilter(
        field_name=field_name, lookup_expr="date__lte", label=_("to (date, included)")
    )


class RoundFilter(StrictFilterSet):
    table = django_filters.ModelChoiceFilter(queryset=Table.objects.all(), label=_("table (id)"))
    shoe = IdFilter(field_name="shoe", label=_("shoe (id)"))
    dealer = django_filters.CharFilter(field_name="dealer__username", label=_("dealer (username)"))
    variant = django_filters.ChoiceFilter(choices=Variant.choices, label=_("variant"))
    # Derived from the facts beside the round (its audit row, approvals, supersessions), not columns.
    audit_status = django_filters.ChoiceFilter(
        choices=AuditStatus.choices, label=_("audit"), method=lambda qs, name, value: qs.filter(audit_status_q(value))
    )
    status = django_filters.ChoiceFilter(
        choices=RoundStatus.choices, label=_("status"), method=lambda qs, name, value: qs.filter(status_q(value))
    )
    uid = django_filters.UUIDFilter(label=_("round id (the document's id)"))

    class Meta:
        model = Round
        fields = ["table", "shoe", "dealer", "variant", "audit_status", "status", "uid"]


_add_date_range(RoundFilter, "played_at")


class IncidentFilter(StrictFilterSet):
    table = django_filters.ModelChoiceFilter(queryset=Table.objects.all(), label=_("table (id)"))
    status = django_filters.ChoiceFilter(choices=IncidentStatus.choices, label=_("status"))
    kind = django_filters.ChoiceFilter(choices=IncidentKind.choices, label=_("kind"))
    dealer = django_filters.CharFilter(field_name="dealer__username", label=_("dealer (username)"))
    round = IdFilter(field_name="round", label=_("round (id)"))
    shoe = IdFilter(field_name="shoe", label=_("shoe (id)"))

    class Meta:
        model = Incident
        fields = ["table", "status", "kind", "dealer", "round", "shoe"]


_add_date_range(IncidentFilter, "reported_at")


class ShoeFilter(StrictFilterSet):
    table = django_filters.ModelChoiceFilter(queryset=Table.objects.all(), label=_("table (id)"))
    is_open = django_filters.BooleanFilter(field_name="ended_at", lookup_expr="isnull", label=_("open"))

    class Meta:
        model = Shoe
        fields = ["table", "is_open"]


_add_date_range(ShoeFilter, "loaded_at")


class StakeFilter(StrictFilterSet):
    round = IdFilter(field_name="round", label=_("round (id)"))
    table = IdFilter(field_name="round__table", label=_("table (id)"))
    player = django_filters.CharFilter(label=_("player"))
    box = IdFilter(label=_("box or seat"))
    round_status = django_filters.ChoiceFilter(
        choices=RoundStatus.choices,
        label=_("status of the round"),
        method=lambda qs, name, value: qs.filter(status_q(value, "round")),
    )

    class Meta:
        model = Stake
        fields = ["round", "table", "player", "box", "round_status"]
