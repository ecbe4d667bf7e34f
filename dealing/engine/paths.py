"""Places in a document and kinds of JSON value, in words, for the engine's messages.

money.py (amounts) and document.py (every other field) both name where a problem is; this
module is below both, so neither has to import the other.
"""

import re
from decimal import Decimal
from typing import Final

_INDEXED: Final = re.compile(r"\$\.(\w+)\[(\d+)\]\Z")
_NAMES: Final = {"stakes": "stake", "events": "event", "items": "shoe item"}


def place(path: str) -> str:
    """A JSON path in words: "$.stakes[0]" -> "stake #1", "$.table" -> "the table"."""
    if path == "$":
        return "the round log"
    m = _INDEXED.match(path)
    if m:
        return f"{_NAMES.get(m.group(1), m.group(1))} #{int(m.group(2)) + 1}"
    if path == "$.table":
        return "the table"
    if path == "$.rules":
        return "the house rules"
    return path


def json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (int, float, Decimal)):
        return "a number"
    return type(value).__name__
