"""Strict reading of JSON documents: every problem named by its JSON path or event index."""

import json
from decimal import Decimal
from typing import Any, Final, Literal, overload

from .errors import RoundError
from .money import INT_AMOUNTS, parse_amount
from .paths import json_kind as _json_kind
from .paths import place as _place


def load_json(text) -> object:
    """Parse JSON text exactly: numbers with decimals become Decimal, NaN/Infinity are refused, and
    so is a key given twice in one object (Python would keep the last one silently)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RoundError("not_json", f"The document is not UTF-8 text: {exc.reason}.", path="$") from None
    try:
        if type(text) is str and not text.startswith("\ufeff"):
            # What json.loads does for such text, without building a new decoder for every document.
            return _DECODER.decode(text)
        return json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except RoundError:
        raise
    except (ValueError, RecursionError) as exc:
        raise RoundError("not_json", f"The document is not valid JSON: {exc}.", path="$") from None


def _refuse_constant(name):
    raise RoundError("not_json", f"The document is not valid JSON: {name} is not a number.", path="$")


def _unique_keys(pairs: list) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        for key, _value in pairs:
            if key in seen:
                raise RoundError(
                    "duplicate_key",
                    f'The document is not valid JSON: duplicate key "{key}" (an object gives each key once).',
                    path="$",
                )
            seen.add(key)
    return obj


_DECODER: Final = json.JSONDecoder(parse_float=Decimal, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)


def where(path: str, event: int | None) -> str:
    return f"Event {event}" if event is not None else _place(path)


def _head(key: str, path: str, event: int | None) -> str:
    if event is not None:
        return f'Event {event}: "{key}"'
    place = _place(path)
    return f'In {place}, "{key}"' if place != path else f"{path}.{key}"


def expect_object(value, path: str, event: int | None = None) -> dict:
    if type(value) is not dict:
        raise RoundError(
            "wrong_type",
            _cap(f"{where(path, event)} must be an object, not {_json_kind(value)}."),
            path=path,
            event=event,
        )
    return value


def expect_list(value, path: str) -> list:
    if type(value) is not list:
        raise RoundError("wrong_type", _cap(f"{_list_name(path)} must be a list, not {_json_kind(value)}."), path=path)
    return value


def _list_name(path: str) -> str:
    return {"$.stakes": "the stakes", "$.events": "the events", "$.items": "the shoe items"}.get(path, path)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def missing(key: str, path: str, event: int | None = None) -> RoundError:
    if event is not None:
        msg = f'Event {event} has no "{key}".'
    else:
        msg = _cap(f'{_place(path)} has no "{key}".')
    return RoundError("missing_field", msg, path=f"{path}.{key}", event=event)


def wrong_type(key: str, value, wanted: str, path: str, event: int | None = None) -> RoundError:
    head = _head(key, path, event)
    return RoundError(
        "wrong_type",
        f"{head} must be {wanted}, not {_json_kind(value)} {value!r}."
        if not isinstance(value, (dict, list))
        else f"{head} must be {wanted}, not {_json_kind(value)}.",
        path=f"{path}.{key}",
        event=event,
    )


def bad_value(key: str, value, why: str, path: str, event: int | None = None) -> RoundError:
    head = _head(key, path, event)
    return RoundError("bad_value", _cap(f"{head} is {value!r}: {why}"), path=f"{path}.{key}", event=event)


def unknown_fields(obj: dict, allowed, path: str, event: int | None = None) -> None:
    """Refuse keys the format does not know: a misspelt optional field must not vanish silently."""
    if isinstance(allowed, (set, frozenset)) and allowed.issuperset(obj):
        return  # the usual case, told in one C call; the loop below names the first stray key
    for key in obj:
        if key not in allowed:
            head = f"Event {event}" if event is not None else _cap(_place(path))
            raise RoundError(
                "unknown_field",
                f'{head} has a field "{key}" that a round log does not have (expected: {", ".join(sorted(allowed))}).',
                path=f"{path}.{key}",
                event=event,
            )


@overload
def text(
    obj: dict,
    key: str,
    path: str,
    event: int | None = None,
    *,
    required: Literal[True] = True,
    nullable: Literal[False] = False,
) -> str: ...
@overload
def text(
    obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True, nullable: bool = False
) -> str | None: ...


def text(
    obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True, nullable: bool = False
) -> str | None:
    value: Any = obj.get(key)
    if value is None:
        if key in obj and nullable:
            return None
        if required or key in obj:
            if key in obj:
                raise wrong_type(key, value, "text", path, event)
            raise missing(key, path, event)
        return None
    if type(value) is not str:
        raise wrong_type(key, value, "text", path, event)
    if not value.strip():
        raise bad_value(key, value, "it must not be empty.", path, event)
    return value


@overload
def integer(obj: dict, key: str, path: str, event: int | None = None, *, required: Literal[True] = True) -> int: ...
@overload
def integer(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> int | None: ...


def integer(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> int | None:
    value: Any = obj.get(key)
    if value is None:
        if key in obj:
            raise wrong_type(key, value, "a whole number", path, event)
        if required:
            raise missing(key, path, event)
        return None
    if type(value) is not int:
        raise wrong_type(key, value, "a whole number", path, event)
    return value


@overload
def boolean(obj: dict, key: str, path: str, event: int | None = None, *, required: Literal[True] = True) -> bool: ...
@overload
def boolean(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> bool | None: ...


def boolean(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> bool | None:
    value: Any = obj.get(key)
    if value is None:
        if key in obj:
            raise wrong_type(key, value, "true or false", path, event)
        if required:
            raise missing(key, path, event)
        return None
    if type(value) is not bool:
        raise wrong_type(key, value, "true or false", path, event)
    return value


@overload
def amount(obj: dict, key: str, path: str, event: int | None = None, *, required: Literal[True] = True) -> Decimal: ...
@overload
def amount(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> Decimal | None: ...


def amount(obj: dict, key: str, path: str, event: int | None = None, *, required: bool = True) -> Decimal | None:
    value: Any = obj.get(key)
    if value is None:
        if key in obj:
            raise wrong_type(key, value, "an amount", path, event)
        if required:
            raise missing(key, path, event)
        return None
    if type(value) is int:
        cached = INT_AMOUNTS.get(value)  # what parse_amount returns for it, without building the path
        if cached is not None:
            return cached
    return parse_amount(value, f"{path}.{key}", event=event)


def event_fields(ev: dict, allowed: frozenset, event: int) -> None:
    """Refuse a field an event of its kind does not have. Runs for every event, so it looks at the
    event's few keys one by one and spells the JSON path out only for a refusal."""
    for key in ev:
        if key not in allowed:
            unknown_fields(ev, allowed, f"$.events[{event}]", event)


@overload
def event_amount(ev: dict, event: int, *, required: Literal[True] = True) -> Decimal: ...
@overload
def event_amount(ev: dict, event: int, *, required: bool = True) -> Decimal | None: ...


def event_amount(ev: dict, event: int, *, required: bool = True) -> Decimal | None:
    """An event's "amount". A whole amount read before comes from money.INT_AMOUNTS without the
    JSON path being spelt out (the type test keeps out true/false, which equal cached ints)."""
    value = ev.get("amount")
    if type(value) is int:
        cached = INT_AMOUNTS.get(value)
        if cached is not None:
            return cached
    return amount(ev, "amount", f"$.events[{event}]", event, required=required)


def card(ev: dict, event: int, example: str) -> str:
    """The text of an event's card: present, text and not blank. Whether it is a card of the pack
    is the variant's finding (CARD_INVALID); a blank one is no card at all, so it is refused."""
    text = ev.get("card")
    path = f"$.events[{event}]"
    if type(text) is not str:
        if text is None and "card" not in ev:
            raise missing("card", path, event)
        raise wrong_type("card", text, f'a card such as "{example}"', path, event)
    if not text.strip():
        raise bad_value("card", text, f'a card is written like "{example}"; it must not be empty.', path, event)
    return text


def header(doc, variant: object) -> dict:
    """Check the parts of the header every variant shares."""
    doc = expect_object(doc, "$")
    fmt_ = doc.get("format")
    if fmt_ != "round/1":
        if "format" not in doc:
            raise missing("format", "$")
        raise RoundError(
            "wrong_format", f'This is not a round log: "format" is {fmt_!r}, expected "round/1".', path="$.format"
        )
    if doc.get("variant") != variant:
        raise bad_value("variant", doc.get("variant"), f'expected "{variant}".', "$")
    if "id" in doc and doc["id"] is not None and type(doc["id"]) is not str:
        raise wrong_type("id", doc["id"], "text (a UUID)", "$")
    for key in ("shoe", "dealer"):
        if key in doc and doc[key] is not None and type(doc[key]) is not str:
            raise wrong_type(key, doc[key], "text", "$")
    return doc
