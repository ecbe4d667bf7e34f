"""A small .po reader for the translation tests (polib is not a dependency of the project).

A .po string is a C string literal, read with the same escapes as Python's.
"""

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def where(self) -> str:
        return f"django.po:{self.line} {self.msgid!r}"


def _unquote(text: str) -> str:
    return ast.literal_eval(text)  # a .po string is a C string literal: same escapes as Python's


def parse_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header included, obsolete #~ entries left out)."""
    entries: list[Entry] = []
    current: Entry | None = None
    flags: set[str] = set()
    target: tuple[str, int | None] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            flags |= {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            assert current is not None and target is not None, f"{path.name}:{number}: stray string"
            name, index = target
            if name == "msgstr":
                current.msgstr[index] += _unquote(line)
            else:
                setattr(current, name, getattr(current, name) + _unquote(line))
            continue
        if keyword in ("msgctxt", "msgid") and (current is None or current.msgstr):
            current = Entry(flags=flags, line=number)
            entries.append(current)
            flags = set()
        assert current is not None, f"{path.name}:{number}: {keyword} before any msgid"
        if keyword.startswith("msgstr"):
            index = int(keyword[7:-1]) if keyword.startswith("msgstr[") else 0
            current.msgstr[index] = _unquote(rest)
            target = ("msgstr", index)
        elif keyword in ("msgid", "msgid_plural", "msgctxt"):
            setattr(current, keyword, _unquote(rest))
            target = (keyword, None)
        else:
            raise AssertionError(f"{path.name}:{number}: unexpected line {raw!r}")
    return entries
