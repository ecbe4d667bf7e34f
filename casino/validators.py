"""What names on the floor may contain (table and pit names, players' names on a stake), and what
any free text may: notes, reasons, comments, explanations, names.

A table's name is part of its pages' addresses (/tables/<name>/shoe/) and is printed on every
page of its pit; a player's name is printed wherever his stake is shown. Characters that a reader
cannot see (controls, zero-width and right-to-left marks and overrides) make one name look like
another or turn the text around it; a `/` in a table name would split its address. So:

- a table or pit name is letters of any script (with their accents), digits, single spaces and
  the punctuation in `NAME_PUNCTUATION`, with at least one letter or digit, at most `NAME_MAX`
  characters, no space at either end;
- a player's name may be any printable text up to the stake's column size, but no control,
  format (bidirectional, zero-width) or separator character;
- any other free text (an incident's note, a correction's reason, a reviewer's comment, a shift's
  explanation, a game night's name) the same, except that text of several lines keeps its line
  breaks and tabs (`text_problem`, `TextValidator`; the API's `casino.api_inputs.Text` applies it
  to every text field it reads).

Pages render whatever an older name contains (dealing.converters takes any table name into an
address); these rules keep new names plain.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext as _

NAME_MAX = 60  # casino.models: Pit.name and Table.name columns
# Punctuation a table's or pit's name may use besides letters, digits and spaces: hyphens and
# dashes ("R-1"), dots, commas, apostrophes, brackets, "&", "+", "#" and "№" ("Стол №3").
NAME_PUNCTUATION = "-–_.,:'’()&+#№"
# Unicode categories never allowed in any name: controls (tab, newline, NUL, ESC), format
# characters (the bidirectional embeddings, overrides, isolates and marks; zero-width space and
# joiners; the byte-order mark), surrogates, and the line and paragraph separators.
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def describe(char: str) -> str:
    """A character as a message can show it: visible ones quoted, others by code point and name."""
    if unicodedata.category(char) in INVISIBLE or char.isspace():
        name = unicodedata.name(char, "")
        return f"U+{ord(char):04X}" + (f" ({name})" if name else "")
    return f"“{char}”"


def invisible_character(text: str) -> str | None:
    """The first control, format or separator character in `text`, or None."""
    for char in text:
        if unicodedata.category(char) in INVISIBLE:
            return char
    return None


def floor_name_problem(name: str, *, max_length: int = NAME_MAX) -> str | None:
    """Why `name` cannot be a table's or pit's name, as a sentence; None when it can."""
    if len(name) > max_length:
        return _("A name has at most %(n)d characters.") % {"n": max_length}
    if name != name.strip(" "):
        return _("A name does not begin or end with a space.")
    if "  " in name:
        return _("A name has single spaces between its words.")
    for char in name:
        category = unicodedata.category(char)
        if category[0] in "LM" or category == "Nd" or char == " " or char in NAME_PUNCTUATION:
            continue
        return _("%(char)s cannot be part of a name: use letters, digits, spaces and %(punctuation)s") % {
            "char": describe(char),
            "punctuation": " ".join(NAME_PUNCTUATION),
        }
    if not any(unicodedata.category(char)[0] == "L" or unicodedata.category(char) == "Nd" for char in name):
        return _("A name has at least one letter or digit.")
    return None


def player_name_problem(name: str, *, max_length: int | None = None) -> str | None:
    """Why `name` cannot be a player's name on a stake, as a sentence; None when it can. Without
    `max_length` only its characters are checked (a form field counts them itself)."""
    if max_length is not None and len(name) > max_length:
        return _("A player's name has at most %(n)d characters.") % {"n": max_length}
    char = invisible_character(name)
    if char is not None:
        return _("A player's name cannot contain %(char)s: only characters that can be seen, and spaces.") % {
            "char": describe(char)
        }
    return None


def digits_problem(text: str) -> str | None:
    """Why a number as typed is refused for its digits, as a sentence; None when they are 0-9.
    Python reads ٣ (Arabic-Indic) and ３ (fullwidth) as 3 — Decimal("٣٠٠") is 300 — so an amount
    could be stored as something no one on the floor wrote or would read back."""
    if text.isascii():
        return None
    for char in text:
        if char.isdigit() and not char.isascii():
            return _("%(char)s is not one of the digits 0 to 9: write numbers with 0 1 2 3 4 5 6 7 8 9.") % {
                "char": describe(char)
            }
    return None


# What text of several lines (a note, a comment) may hold besides visible characters and spaces.
LINE_BREAKS = frozenset("\n\r\t")


def text_problem(text: str, *, lines: bool = False) -> str | None:
    """Why free text cannot be stored, as a sentence; None when it can. Characters that cannot be
    seen are refused (controls, bidirectional overrides and isolates, zero-width characters, the
    byte-order mark), except line breaks and tabs in text of several `lines`."""
    if text.isprintable():  # the common case: no character below is printable
        return None
    for char in text:
        if unicodedata.category(char) in INVISIBLE and not (lines and char in LINE_BREAKS):
            if lines:
                message = _(
                    "The text cannot contain %(char)s: only characters that can be seen, spaces and line breaks."
                )
            else:
                message = _("The text cannot contain %(char)s: only characters that can be seen, and spaces.")
            return message % {"char": describe(char)}
    return None


@deconstructible
class TextValidator:
    """The validator of free text, on a form field or an API field (see `text_problem`)."""

    code = "bad_text"

    def __init__(self, lines: bool = False):
        self.lines = lines

    def __call__(self, value):
        problem = text_problem(str(value), lines=self.lines)
        if problem is not None:
            raise ValidationError(problem, code=self.code)

    def __eq__(self, other):
        return isinstance(other, TextValidator) and other.lines == self.lines


@deconstructible
class FloorNameValidator:
    """The model validator of table and pit names (see `floor_name_problem`)."""

    code = "bad_name"

    def __init__(self, max_length: int = NAME_MAX):
        self.max_length = max_length

    def __call__(self, value):
        problem = floor_name_problem(str(value), max_length=self.max_length)
        if problem is not None:
            raise ValidationError(problem, code=self.code)

    def __eq__(self, other):
        return isinstance(other, FloorNameValidator) and other.max_length == self.max_length


@deconstructible
class PlayerNameValidator:
    """The form validator of a player's name on a stake (see `player_name_problem`)."""

    code = "bad_player"

    def __init__(self, max_length: int | None = None):
        self.max_length = max_length

    def __call__(self, value):
        problem = player_name_problem(str(value), max_length=self.max_length)
        if problem is not None:
            raise ValidationError(problem, code=self.code)

    def __eq__(self, other):
        return isinstance(other, PlayerNameValidator) and other.max_length == self.max_length
