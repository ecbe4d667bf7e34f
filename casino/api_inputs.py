"""The API's JSON inputs take only the JSON type their schema documents.

DRF's fields are lenient as for HTML forms: a CharField takes `7`, a BooleanField `0` or `"yes"`,
an IntegerField `"5"` or `5.0`, a DecimalField the number `0.1`. The API reads JSON only and its
schema says string, boolean, integer, decimal string; an input serializer built on `JsonInput`
refuses any other type, and any key it has no field for, with 400 (`extra.fields`), so what the
schema says is what the API takes
(a yes/no also as the strings "true" and "false", which clients written for DRF send).
Nested lists and serializers are checked the same way; `null` only where the field allows it.

`Text`: a text field whose value the database can store, for any app's endpoints; `Day`: a date
within casino.dates.FIRST_DAY … LAST_DAY.
`Amount`: money, as a JSON number or a decimal string (`50`, `"7.50"`, `0.5`), the one amount type of
every input, as the round and shoe formats read amounts (round-format.md, Amounts).
"""

from decimal import Decimal

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.settings import api_settings

from .dates import day_problem
from .validators import TextValidator, digits_problem


def _expected(field) -> tuple[type, ...] | None:
    """The JSON types (as Python reads them) the field's schema documents; None: any."""
    if isinstance(field, Amount):
        return (str, int, float, Decimal)
    if isinstance(field, serializers.BooleanField):
        return (bool,)
    if isinstance(field, serializers.IntegerField):
        return (int,)
    if isinstance(field, serializers.DecimalField):
        as_string = getattr(field, "coerce_to_string", None)
        if as_string is None:
            as_string = api_settings.COERCE_DECIMAL_TO_STRING
        return (str,) if as_string else (int, float, Decimal)
    if isinstance(field, serializers.FloatField):
        return (int, float, Decimal)
    if isinstance(
        field,
        (
            serializers.CharField,
            serializers.ChoiceField,
            serializers.DateField,
            serializers.DateTimeField,
            serializers.TimeField,
            serializers.SlugRelatedField,
        ),
    ):
        return (str,)
    if isinstance(field, serializers.PrimaryKeyRelatedField):
        return (int,)
    if isinstance(field, (serializers.ListField, serializers.ListSerializer, serializers.ManyRelatedField)):
        return (list,)
    if isinstance(field, (serializers.Serializer, serializers.DictField)):
        return (dict,)
    return None


# A yes/no also as the words JSON spells them ("true"/"false"), as clients written for DRF send them.
BOOLEAN_WORDS = {"true", "false"}


def _type_error(field, value):
    """The error of `value` for `field` (a message or a nested structure), or None."""
    if value is None:
        return None  # the field itself says whether it may be null
    if isinstance(field, serializers.BooleanField) and isinstance(value, str) and value.lower() in BOOLEAN_WORDS:
        return None
    expected = _expected(field)
    if expected is None:
        return None
    if not isinstance(value, expected) or (bool not in expected and isinstance(value, bool)):
        names = {
            bool: "true or false",
            int: _("a whole number"),
            str: _("a string"),
            list: _("a list"),
            dict: _("an object"),
        }
        return [_("Expected %(kind)s.") % {"kind": names.get(expected[0], _("a number"))}]
    if isinstance(field, serializers.DecimalField) and isinstance(value, str):
        problem = digits_problem(value)  # Decimal() reads ٣ or ３ as 3
        if problem is not None:
            return [problem]
    child = getattr(field, "child", None) or getattr(field, "child_relation", None)
    if isinstance(value, list) and child is not None:
        errors = {i: e for i, item in enumerate(value) if (e := _type_error(child, item)) is not None}
        return errors or None
    if isinstance(value, dict) and isinstance(field, serializers.Serializer):
        return _fields_errors(field, value) or None
    return None


def _fields_errors(serializer, data: dict) -> dict:
    errors = {}
    for name, field in serializer.fields.items():
        if field.read_only:
            continue
        value = data.get(name, empty)
        if value is empty:
            continue
        error = _type_error(field, value)
        if error is not None:
            errors[name] = error
    return errors


def unknown_fields_errors(serializer, data: dict) -> dict:
    """An error for each key of `data` that is none of the serializer's fields."""
    known = serializer.fields
    message = _("There is no such field (the fields: %(fields)s).")
    return {str(name): [message % {"fields": ", ".join(known)}] for name in data if name not in known}


class KnownFields(serializers.Serializer):
    """A serializer of a JSON body that refuses a key it has no field for (400 naming it): a
    misspelt optional field (`"rule"` for `"rules"`) would otherwise be dropped in silence, and the
    request answered as if it had not been sent. The schema says so (`additionalProperties: false`
    on every request body, casino/schema.py)."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            errors = unknown_fields_errors(self, data)
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class JsonInput(KnownFields):
    """A serializer of a JSON body: each field takes its documented JSON type only, and there is no
    field it does not know (KnownFields)."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            errors = {**unknown_fields_errors(self, data), **_fields_errors(self, data)}
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


@extend_schema_field({"oneOf": [{"type": "number"}, {"type": "string", "format": "decimal"}], "example": "50.00"})
class Amount(serializers.DecimalField):
    """Money: a JSON number or a decimal string, read exactly (a JSON number's shortest spelling, never
    its binary float), at most 2 decimals. Written out as a decimal string."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, float):
            data = repr(data)  # the shortest spelling that reads back as this number: what the client wrote
        elif isinstance(data, int):
            data = str(data)
        if isinstance(data, str) and ("e" in data.lower() or data.strip().lower() in ("nan", "inf", "-inf")):
            self.fail("invalid")
        return super().to_internal_value(data)


class Text(serializers.CharField):
    """Text that the database can store and a reader sees as it is: no NUL (DRF refuses those), no
    unpaired surrogates, and no character that cannot be seen — controls, bidirectional overrides
    and isolates, zero-width characters (casino.validators.text_problem) — but line breaks and tabs
    where `lines=True` (a note, a comment). `secret=True` (a password) takes any character."""

    def __init__(self, *, lines: bool = False, secret: bool = False, **kwargs):
        super().__init__(**kwargs)
        if not secret:
            self.validators.append(TextValidator(lines=lines))

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise serializers.ValidationError(_("This is not valid Unicode text.")) from None
        return value


class Day(serializers.DateField):
    """A date within casino.dates.FIRST_DAY … LAST_DAY: a day beyond them has no midnight or next
    day to filter by (Python's calendar overflows), so it is refused naming the field."""

    def to_internal_value(self, value):
        day = super().to_internal_value(value)
        problem = day_problem(day)
        if problem is not None:
            raise serializers.ValidationError(problem, code="day_out_of_range")
        return day
