"""The words of the round/1 format as the audit replay and the terminal show them: event names, their
fields and the format's own values, in the reader's language.

A finding's sentence is casino/finding_words.py's (from its code and params); the codes' and
severities' labels are casino/finding_labels.py's (re-exported here for the pages that import them).
"""

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from .finding_labels import SEVERITY_LABELS, severity_label  # noqa: F401 (re-exported)
from .finding_words import finding_text, verdict_text  # noqa: F401 (re-exported)

# --- the events of a round log as the audit replay lists them -----------------------------------
# round/1's event names and fields (../shared/round-format.md) stay the format's own; the replay
# shows them in the reader's words.
EVENT_WORDS = {
    "deal": pgettext_lazy("event", "deal"),
    "dark": pgettext_lazy("event", "dark card"),
    "hit": pgettext_lazy("event", "hit"),
    "draw": pgettext_lazy("event", "draw"),
    "stand": pgettext_lazy("event", "stand"),
    "bet": pgettext_lazy("event", "bet"),
    "fold": pgettext_lazy("event", "fold"),
    "open": pgettext_lazy("event", "open"),
    "reveal": pgettext_lazy("event", "reveal"),
    "pay": pgettext_lazy("event", "pay"),
    "take": pgettext_lazy("event", "take"),
    "leave": pgettext_lazy("event", "leave"),
    "pay_sum": pgettext_lazy("event", "pay in one sum"),
    "split": pgettext_lazy("event", "split"),
    "double": pgettext_lazy("event", "double"),
    "peek": pgettext_lazy("event", "peek"),
    "insurance": pgettext_lazy("event", "insurance"),
    "even_money": pgettext_lazy("event", "even money"),
    "burn": pgettext_lazy("event", "burn"),
    "incident": pgettext_lazy("event", "incident"),
    "bank_to": pgettext_lazy("event", "bank to"),
    "declare": pgettext_lazy("event", "declare"),
    "withdraw": pgettext_lazy("event", "withdraw"),
    "void": pgettext_lazy("event", "void"),
    "tapo": pgettext_lazy("event", "tapo"),
    "al_puje": pgettext_lazy("event", "al puje"),
    "puje": pgettext_lazy("event", "al puje"),
    "shuffle": pgettext_lazy("event", "shuffle"),
    "dealer_change": pgettext_lazy("event", "dealer change"),
    "round": pgettext_lazy("event", "round"),
}
FIELD_WORDS = {
    "to": pgettext_lazy("event field", "to"),
    "box": pgettext_lazy("event field", "box"),
    "boxes": pgettext_lazy("event field", "boxes"),
    "hand": pgettext_lazy("event field", "hand"),
    "stake": pgettext_lazy("event field", "stake"),
    "wager": pgettext_lazy("event field", "wager"),
    "amount": pgettext_lazy("event field", "amount"),
    "reason": pgettext_lazy("event field", "reason"),
    "player": pgettext_lazy("event field", "player"),
    "kind": pgettext_lazy("event field", "kind"),
    "resolution": pgettext_lazy("event field", "resolution"),
    "reported_by": pgettext_lazy("event field", "reported by"),
    "approved_by": pgettext_lazy("event field", "approved by"),
}
# Field values that are words of the format rather than names or amounts.
VALUE_OF_FIELD = {
    "wager": {
        "ante": pgettext_lazy("wager", "Ante"),
        "bet": pgettext_lazy("wager", "bet"),
        "dealer_bet": pgettext_lazy("wager", "dealer bet"),
        "double": pgettext_lazy("wager", "double"),
        "insurance": pgettext_lazy("wager", "insurance"),
        "jackpot": pgettext_lazy("wager", "jackpot bet"),
    },
    "to": {"dealer": pgettext_lazy("event field", "dealer"), "bank": pgettext_lazy("event field", "bank")},
    "resolution": {"burned": _("burned"), "under_shoe": _("put under the shoe")},
    "kind": {"dealer_card_exposed": _("dealer's card exposed"), "misdrawn_card": _("card drawn by mistake")},
}


def event_word(name) -> str:
    """A round/1 event name (deal, hit, pay…) in the reader's words; an unknown one as it is."""
    word = EVENT_WORDS.get(str(name))
    return said(word) if word is not None else str(name)


_SAID: dict[tuple[int, str | None], tuple[object, str]] = {}
_SAID_MAX = 4096


def said(word) -> str:
    """`str(word)`, a word of a table above (or of a game's) in the active language, kept: the
    terminal says a dozen of them at every entry, and each `str()` of a lazy translation looks the
    catalogues up anew (a twentieth of an entry's CPU). The catalogues do not change while the
    process runs; the word is kept beside its text, so a key is never another word's."""
    key = (id(word), get_language())
    found = _SAID.get(key)
    if found is None or found[0] is not word:
        if len(_SAID) >= _SAID_MAX:
            _SAID.clear()
        found = _SAID[key] = (word, str(word))
    return found[1]


def event_field(key: str, value) -> str:
    """One field of an event, "stake 3a", in the reader's words."""
    label = FIELD_WORDS.get(key)
    words = VALUE_OF_FIELD.get(key, {})
    if isinstance(value, dict):
        value = ", ".join(f"{FIELD_WORDS.get(k, k)} {words.get(v, v)}" for k, v in value.items())
    elif isinstance(value, list):  # boxes in the order paid: "boxes 3, 1"
        value = ", ".join(str(v) for v in value)
    elif isinstance(value, str) and value in words:
        value = said(words[value])
    return f"{said(label) if label is not None else key} {value}"
