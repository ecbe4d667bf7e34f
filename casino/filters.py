"""Filters of the floor, shared by pages and the API; the strict filter parts every app's lists use."""

import django_filters
from django.utils.translation import gettext_lazy as _

from .choices import Variant
from .dates import DayField
from .forms import IntegerField
from .models import Table


class IdFilter(django_filters.NumberFilter):
    """An id: a whole number in the digits 0-9 (a plain NumberFilter takes `0.5` and finds nothing,
    Django's IntegerField reads ٣ as 3)."""

    field_class = IntegerField


class DayFilter(django_filters.DateFilter):
    """A date filter whose day is within casino.dates.FIRST_DAY … LAST_DAY (beyond them a day's
    midnight or the next day overflows): one outside is the filter's error, a 400 naming it."""

    field_class = DayField


class StrictFilterSet(django_filters.FilterSet):
    """A filter given twice (`?table=1&table=2`), or a yes/no filter given neither, is refused
    rather than read as its last value or as not given."""

    BOOLEAN = {"", "true", "false", "True", "False", "1", "0"}

    def is_valid(self):
        valid = super().is_valid()
        getlist = getattr(self.data, "getlist", None)
        if getlist is not None:
            for name, filter_ in self.filters.items():
                values = getlist(name)
                if name in self.form.errors:
                    continue
                if len(values) > 1:
                    self.form.add_error(name, _("Give this filter one value."))
                    valid = False
                elif isinstance(filter_, django_filters.BooleanFilter) and values and values[0] not in self.BOOLEAN:
                    # django-filter reads anything else as "not given": a misspelt filter is not "all".
                    self.form.add_error(name, _("Give true or false."))
                    valid = False
        return valid


class TableFilter(StrictFilterSet):
    variant = django_filters.ChoiceFilter(choices=Variant.choices)
    is_active = django_filters.BooleanFilter()

    class Meta:
        model = Table
        fields = ["pit", "variant", "is_active"]
