"""The days a person may name — in a list's filter, a page's form, a keyset page's `at`, an API body.

A day given is turned into moments: its midnight in the floor's time zone, the next day's midnight
for "to (included)", that moment in UTC for the database. At the edges of Python's calendar there
is no such moment: 9999-12-31 has no next day, and 0001-01-01's midnight east of Greenwich is in
year 0 in UTC — both raised OverflowError (a 500). No record of the floor is that old or that far
ahead, so every day given is checked against `FIRST_DAY` … `LAST_DAY`, here, once:

- `DayField` (forms), `casino.filters.DayFilter` (list filters, pages and API alike) and
  `casino.api_inputs.Day` (API bodies and query serializers) refuse a day outside the range with
  the field's own error (a page shows it next to the field, the API answers 400 naming it);
- `parse_day(text)` reads a day from a query string that no form reads (`BadDay` names the problem),
  and `day_problem(day)` says what is wrong with a day already read.
"""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

FIRST_DAY = dt.date(1900, 1, 1)
LAST_DAY = dt.date(2999, 12, 31)


class BadDay(ValueError):
    """A day that cannot be read, or one outside FIRST_DAY … LAST_DAY; its text says which."""


def day_problem(day: dt.date) -> str | None:
    """Why `day` cannot be used (outside FIRST_DAY … LAST_DAY), as a sentence; None when it can."""
    if FIRST_DAY <= day <= LAST_DAY:
        return None
    return _("Give a date from %(first)s to %(last)s.") % {
        "first": FIRST_DAY.isoformat(),
        "last": LAST_DAY.isoformat(),
    }


def parse_day(text: str) -> dt.date:
    """A day written YYYY-MM-DD (ASCII digits) within FIRST_DAY … LAST_DAY; BadDay otherwise."""
    text = (text or "").strip()
    try:
        day = parse_date(text) if text.isascii() else None
    except ValueError:  # the shape of a date, but no such day (2026-02-30)
        day = None
    if day is None:
        raise BadDay(_("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": text})
    problem = day_problem(day)
    if problem is not None:
        raise BadDay(problem)
    return day


def validate_day(value) -> None:
    """The validator of every date field: a day (or a moment's day) within FIRST_DAY … LAST_DAY."""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        problem = day_problem(value)
        if problem is not None:
            raise ValidationError(problem, code="day_out_of_range")


class DayField(forms.DateField):
    """A form's date field whose day is within FIRST_DAY … LAST_DAY (the form shows the error)."""

    default_validators = [validate_day]
