"""The engine's findings and verdicts in the reader's language, from their code and params.

A finding is its code and `params` (round-format.md, third wave; the engine declares each code's
sentences in dealing/engine/sentences.py and each game's <game>/sentences.py): ``params["rule"]``
names the sentence, the other keys are its values, and a value that is an object is a phrase (a
verdict, a hand's value) with a rule of its own. This module holds, for each of the engine's
sentences and phrases, its msgid with named placeholders — the catalogue translates it — and fills it
from the params; nothing here reads the English `message` back. In English a finding is the
engine's own template filled from the same params (equal to its `message`).

A finding stored before the engine gave params (an audit Finding row with ``params == {}``, a drill
step kept as code and message) is said by its code's label (casino/finding_labels.py); in English
its message is shown as it is.
"""

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from dealing import engine
from dealing.engine import sentences as _engine

from .finding_catalogue import PHRASES, SENTENCES, Unsaid
from .finding_labels import CODE_LABELS

# The wagers as each game names them in a sentence (the engine's WAGER_WORDS give the English word).
# A noun, in context: the same English word is a verb or a badge on other pages ("double").
WAGER_WORDS = {
    "Ante": pgettext_lazy("wager", "Ante"),
    "Bet": pgettext_lazy("wager", "Bet"),
    "bet": pgettext_lazy("wager", "bet"),
    "dealer bet": pgettext_lazy("wager", "dealer bet"),
    "double": pgettext_lazy("wager", "double"),
    "insurance": pgettext_lazy("wager", "insurance"),
    "jackpot bet": pgettext_lazy("wager", "jackpot bet"),
}

HEAD_EVENT = _("Event %(n)s: %(text)s")
HEAD_NIGHT_ROUND = _("Round %(n)d: %(said)s")  # a game night's finding about one of its rounds (the ledger)
HEAD_ITEM = _("Shoe item %(n)s: %(text)s")


def _english() -> bool:
    language = get_language() or "en"
    return language == "en" or language.startswith("en-")


def _field(finding, name):
    if isinstance(finding, dict):
        return finding.get(name)
    return getattr(finding, name, None)


def _values(params: dict) -> dict:
    """Each param in the reader's language: phrases said, words of a closed set said through their
    phrase ("who.box", "box_state.stood"…), the wager in its game's word, and the derived values."""
    out: dict = {}
    for key, value in params.items():
        if isinstance(value, dict):
            out[key] = phrase(value)
        elif isinstance(value, list):
            out[key] = ", ".join(phrase(v) for v in value)
        elif isinstance(value, str) and f"{key}.{value}" in PHRASES:
            out[key] = PHRASES[f"{key}.{value}"].say(params)
        else:
            out[key] = value
    game, wager = params.get("game"), params.get("wager")
    if isinstance(game, str) and isinstance(wager, str):
        english = _engine.WAGER_WORDS.get(game, {}).get(wager, wager)
        word = WAGER_WORDS.get(english)
        out["wager"] = str(word) if word is not None else english
    why = params.get("why")
    out["because"] = " — " + out["why"] if why is not None else ""
    if "card" in params:
        out["card_quoted"] = repr(params["card"])
    current = params.get("current")
    if isinstance(current, dict):
        out["current_hand"], out["current_name"] = current.get("hand"), current.get("name")
    return out


def phrase(params: dict) -> str:
    """A phrase (a verdict, a hand's value…) in the reader's language."""
    entry = PHRASES.get(params.get("rule", ""))
    if entry is None:
        raise Unsaid(params.get("rule"))
    return entry.say(_values(params))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def render(code: str, params: dict) -> str:
    """A finding's sentence from its code and params, in the reader's language (Unsaid when this
    module has no words for it)."""
    _games_loaded()
    night_round = params.get("night_round")
    if _english():
        entry = SENTENCES.get(code, {}).get(params.get("rule", ""))
        try:
            text = _engine.english(code, params)
        except KeyError as err:  # a sentence of the Django side's own (the ledger's): its msgid, in English
            if entry is None:
                raise Unsaid(code) from err
            text = entry.say(_values(params))
        except (IndexError, ValueError) as err:
            raise Unsaid(code) from err
        if night_round is not None:
            return str(HEAD_NIGHT_ROUND) % {"n": night_round, "said": text}
        # A sentence without its head (a drill's explanation) begins with a capital, as the engine's
        # sentences without a head do.
        return text if _engine.head(params) else _capital(text)
    entry = SENTENCES.get(code, {}).get(params.get("rule", ""))
    if entry is None:
        raise Unsaid(code)
    body = _capital(entry.say(_values(params)))
    if night_round is not None:
        return str(HEAD_NIGHT_ROUND) % {"n": night_round, "said": body}
    if params.get("event") is not None:
        return str(HEAD_EVENT) % {"n": params["event"], "text": body}
    if params.get("item") is not None:
        return str(HEAD_ITEM) % {"n": params["item"], "text": body}
    return body


def code_label(code: str | None) -> str:
    """What a code means, in the reader's language (the code itself when it is not known)."""
    label = CODE_LABELS.get(code or "")
    return str(label) if label is not None else (code or "")


def finding_text(finding) -> str:
    """A finding's sentence in the reader's language: an engine Finding, an audit Finding row or a
    finding's dict (settlement/1). From its code and params; a finding without params (stored before
    the engine gave them) is its message in English and its code's label in another language."""
    code = _field(finding, "code") or ""
    params = _field(finding, "params")
    if params:
        try:
            return render(code, params)
        except Unsaid:
            pass
    message = _field(finding, "message") or ""
    if _english():
        return message
    label = CODE_LABELS.get(code)
    if label is None:
        return message  # a code the engine added after this module: its own words rather than none
    return f"{label}."


def verdict_text(owed) -> str:
    """An owed wager's reason in the reader's language: from a verdict (a phrase's params, Owed.verdict),
    an Owed or a dict carrying one ("verdict"; with "hand", said in front: "1.2: …"). "" when there is
    none to say — an English `why` kept without its verdict is shown in English only."""
    if owed is None or owed == "":
        return ""
    if isinstance(owed, dict) and "rule" in owed:
        verdict, hand, why = owed, None, ""
    else:
        verdict, hand, why = _field(owed, "verdict"), _field(owed, "hand_label"), _field(owed, "why") or ""
        if isinstance(owed, str):
            why = owed
    _games_loaded()
    text = ""
    if verdict:
        try:
            text = _engine.phrase(verdict) if _english() else phrase(verdict)
        except (Unsaid, KeyError, IndexError, ValueError):
            text = ""
    if not text and _english():
        text = why
    if text and hand:
        return f"{hand}: {text}"
    return text


_LOADED: list[bool] = []


def _games_loaded() -> None:
    """Every game's sentences declared (a game declares them when its engine package is imported)."""
    if not _LOADED:
        for name in engine.VARIANTS:
            engine.variant(name)
        _LOADED.append(True)
