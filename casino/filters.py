"""Filters of the floor, shared by pages and the API."""

import django_filters

from .choices import Variant
from .models import Table


class TableFilter(django_filters.FilterSet):
    variant = django_filters.ChoiceFilter(choices=Variant.choices)
    is_active = django_filters.BooleanFilter()

    class Meta:
        model = Table
        fields = ["pit", "variant", "is_active"]
