"""The API's JSON parser (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]): DRF's, refusing two things
Python's JSON reader lets through.

- A key given twice in one object (`{"note": "a", "note": "b"}`): Python keeps the last, so what
  was stored depended on which of the two a reader believes. Refused: 400, `extra.code`
  `duplicate_key`, the key named.
- A NUL character (`\\u0000`) in a key or a text value: PostgreSQL cannot store or compare text
  holding one (a lookup by such a name was a 500). Refused: 400 naming the field
  (`extra.fields`), as the query strings and forms are (casino.middleware.NulCharacterMiddleware).

The round logs are read by the engine's own reader, which refuses both the same way
(dealing/engine/document.py `load_json`, dealing/services/documents.py).
"""

import codecs

from django.utils.translation import gettext as _
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from .errors import ServiceError


def duplicate_key(key: str) -> ServiceError:
    return ServiceError(
        _("Duplicate key “%(key)s”: an object gives each key once.") % {"key": key},
        extra={"code": "duplicate_key", "key": key},
    )


def nul_in(key: str) -> serializers.ValidationError:
    error = _("This text contains a NUL character, which no text may hold.")
    return serializers.ValidationError({key.replace("\x00", "\\0"): [error]})


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False  # an object's own text was checked when it was read


def object_from(pairs: list) -> dict:
    """json's object_pairs_hook: the object, unless a key is given twice or holds a NUL, or a text
    value (or a list's) holds a NUL."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _value in pairs:
            if key in seen:
                raise duplicate_key(key)
            seen.add(key)
    for key, value in pairs:
        if "\x00" in key or _has_nul(value):
            raise nul_in(key)
    return obj


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            decoded_stream = codecs.getreader(encoding)(stream)
            parse_constant = json.strict_constant if self.strict else None
            data = json.load(decoded_stream, parse_constant=parse_constant, object_pairs_hook=object_from)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if _has_nul(data):  # a body that is a text or a list, not an object
            raise nul_in("non_field_errors")
        return data
