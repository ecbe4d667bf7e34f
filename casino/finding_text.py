"""The engine's findings and verdicts in the reader's language.

The rules engine stays language-free: a finding is a code (dealing/engine/findings.py's CODES) with
its structured fields and an English sentence built by the variant module, and a verdict (an owed
wager's `why`) is an English phrase. This module renders both on the Django side: per code, the
sentence shapes the engine writes are matched and rewritten through the catalogue, and the phrases
inside them (who, the verdict, a hand's value) are translated the same way. A sentence of a shape
not listed here falls back to the code's own translated description, so a page never shows the
engine's English in another language; in English the engine's sentence is shown as it is.
The shapes themselves, per code, are casino/finding_shapes.py.
"""

import re

from django.utils.translation import get_language, gettext, gettext_lazy as _, pgettext_lazy

from .finding_shapes import FINDINGS, PHRASES, VALUE_WORDS, WAGER_WORDS

SEVERITY_LABELS = {"critical": _("critical"), "major": _("major"), "minor": _("minor")}

# What each code means (the same words as drills/choices.py's CODE_LABELS): the sentence shown when
# the engine's wording is of a shape this module does not know.
CODE_SENTENCES = {
    "WRONG_AMOUNT": _("Paid the wrong amount"),
    "WRONG_RESULT": _("Paid, took or left the wrong way"),
    "MISSING_SETTLEMENT": _("A wager never settled"),
    "UNEXPECTED_SETTLEMENT": _("A wager settled twice, or one that does not exist"),
    "LATE_SETTLEMENT": _("An instant ochko or mnogo settled late"),
    "PAYMENT_ORDER": _("Payment out of order (6 → 1, dealer bets last)"),
    "DEAL_ORDER": _("Dealt out of order"),
    "DRAW_ORDER": _("A card to the wrong box, or drawn out of turn"),
    "ILLEGAL_ACTION": _("A move the rules do not allow"),
    "DEALER_DRAW_RULE": _("The dealer's drawing rule broken"),
    "BET_RANGE": _("A Bet outside 1–10× its Ante"),
    "ANTE_LIMITS": _("An Ante outside the table limits"),
    "BOX_PLAYERS": _("Too many players on a box"),
    "DEALER_BET_MIN": _("A dealer bet under the minimum"),
    "INCIDENT_UNAPPROVED": _("An incident without the pit boss"),
    "INCIDENT_RESOLUTION": _("An incident resolved the wrong way"),
    "BURN_COUNT": _("The wrong number of cards burned"),
    "BURN_FEE": _("The wrong fee for a paid burn"),
    "BET_LIMITS": _("A bet outside the table limits"),
    "INSURANCE_AMOUNT": _("Insurance over half the bet"),
    "RESHUFFLE_POINT": _("Reshuffled at the wrong point"),
    "BANK_SUCCESSION": _("The bank passed to the wrong player"),
    "CARD_INVALID": _("A card that is not in the pack"),
    "CARD_COUNT": _("Too many copies of a card"),
}

_OWED_WORDS = {
    "oa": _("paid %(a)s"), "ot": _("taken (%(a)s)"), "ol": _("left (%(a)s returned, not paid)"),
}
_HEADS = [
    (re.compile(r"Event (?P<n>\d+): (?P<rest>.+)", re.S), _("Event %(n)s: %(text)s")),
    (re.compile(r"Shoe item (?P<n>\d+)(?: \([^)]*\))?: (?P<rest>.+)", re.S), _("Shoe item %(n)s: %(text)s")),
]

_PHRASES = [(re.compile(pattern), msgid) for pattern, msgid in PHRASES]
_FINDINGS = {code: [(re.compile(pattern, re.S), msgid) for pattern, msgid in shapes] for code, shapes in FINDINGS.items()}


class _Unknown(Exception):
    """A phrase of a shape this module does not know."""


def _field(finding, name):
    if isinstance(finding, dict):
        return finding.get(name)
    return getattr(finding, name, None)


def _english() -> bool:
    language = get_language() or "en"
    return language == "en" or language.startswith("en-")


def _value(text: str) -> str:
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        return text
    soft = re.fullmatch(r"soft (\d+)", text)
    if soft:
        return gettext("soft %(n)s") % {"n": soft.group(1)}
    if text in VALUE_WORDS:
        return str(VALUE_WORDS[text])
    raise _Unknown(text)


def _phrase(text: str) -> str:
    for pattern, msgid in _PHRASES:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        try:
            return str(msgid) % _render_groups(m.groupdict())
        except _Unknown:
            continue
    raise _Unknown(text)


def _render_groups(groups: dict) -> dict:
    out = {}
    for name, value in groups.items():
        if value is None:
            out[name] = ""
        elif name.startswith("p"):
            out[name] = _phrase(value)
        elif name.startswith("v"):
            out[name] = _value(value)
        elif name == "w":
            out[name] = str(WAGER_WORDS[value])
        else:
            out[name] = value
    return out


def verdict_text(why: str | None) -> str:
    """An owed wager's reason (Owed.why) in the reader's language; "" when it cannot be said in it."""
    if not why:
        return ""
    if _english():
        return why
    try:
        return _phrase(why)
    except _Unknown:
        pass
    # A form may put the hand in front ("1.2: …", one line per hand of an opened pair).
    hand = re.fullmatch(r"(\d+(?:\.\d+)*): (.+)", why)
    if hand:
        try:
            return f"{hand.group(1)}: {_phrase(hand.group(2))}"
        except _Unknown:
            pass
    return ""


def _settlement(code: str, m: re.Match) -> str:
    groups = m.groupdict()
    values = _render_groups({k: v for k, v in groups.items() if k in ("pwho", "w")})
    why = " — " + _phrase(groups["p"]) if groups.get("p") else ""
    owed = next(str(_OWED_WORDS[k]) % {"a": groups[k]} for k in ("oa", "ot", "ol") if groups.get(k) is not None)
    if code == "MISSING_SETTLEMENT":
        return gettext("%(who)s: %(wager)s was never settled; it should have been %(owed)s%(why)s.") % {
            "who": values["pwho"], "wager": values["w"], "owed": owed, "why": why}
    did = groups["did"]
    if groups.get("a") is not None:
        did = gettext("paid %(a)s") % {"a": groups["a"]}
    elif did == "taken":
        did = gettext("taken")
    else:
        did = gettext("left")
    return gettext("%(who)s: %(wager)s %(did)s; it should have been %(owed)s%(why)s.") % {
        "who": values["pwho"], "wager": values["w"], "did": did, "owed": owed, "why": why}


def _sentence(code: str, text: str) -> str:
    # The drills show a finding without its "Event n: " head and capitalised (drills/procedure.py's plain).
    texts = (text, text[:1].lower() + text[1:])
    for pattern, msgid in _FINDINGS.get(code, ()):
        m = pattern.fullmatch(texts[0]) or pattern.fullmatch(texts[1])
        if m is None:
            continue
        try:
            if msgid is None:
                return _settlement(code, m)
            groups = _render_groups(m.groupdict())
            if "p" in groups and groups["p"] and code in ("WRONG_AMOUNT",):
                groups["p"] = " — " + groups["p"]
            return str(msgid) % groups
        except _Unknown:
            continue
    raise _Unknown(text)


def finding_text(finding) -> str:
    """A finding's sentence in the reader's language (a Finding, an audit Finding row, or its dict)."""
    message = _field(finding, "message") or ""
    if _english():
        return message
    code = _field(finding, "code") or ""
    text, head = message.strip(), None
    for pattern, msgid in _HEADS:
        m = pattern.fullmatch(text)
        if m:
            text, head = m.group("rest"), (msgid, m.group("n"))
            break
    try:
        body = _sentence(code, text)
    except _Unknown:
        fallback = CODE_SENTENCES.get(code)
        if fallback is None:
            return message  # a code the engine added after this module: its own words rather than none
        body = f"{fallback}."
    body = body[:1].upper() + body[1:]
    if head is not None:
        msgid, n = head
        return str(msgid) % {"n": n, "text": body}
    return body


def severity_label(severity: str | None) -> str:
    """critical / major / minor in the reader's language (the pills show it; the CSS class keeps the code)."""
    label = SEVERITY_LABELS.get(severity or "")
    return str(label) if label is not None else (severity or "")


# --- the events of a round log as the audit replay lists them -----------------------------------
# round/1's event names and fields (../shared/round-format.md) stay the format's own; the replay
# shows them in the reader's words.
EVENT_WORDS = {
    "deal": pgettext_lazy("event", "deal"), "dark": pgettext_lazy("event", "dark card"),
    "hit": pgettext_lazy("event", "hit"), "draw": pgettext_lazy("event", "draw"),
    "stand": pgettext_lazy("event", "stand"), "bet": pgettext_lazy("event", "bet"),
    "fold": pgettext_lazy("event", "fold"), "open": pgettext_lazy("event", "open"),
    "reveal": pgettext_lazy("event", "reveal"), "pay": pgettext_lazy("event", "pay"),
    "take": pgettext_lazy("event", "take"), "leave": pgettext_lazy("event", "leave"),
    "split": pgettext_lazy("event", "split"), "double": pgettext_lazy("event", "double"),
    "peek": pgettext_lazy("event", "peek"), "insurance": pgettext_lazy("event", "insurance"),
    "even_money": pgettext_lazy("event", "even money"), "burn": pgettext_lazy("event", "burn"),
    "incident": pgettext_lazy("event", "incident"), "bank_to": pgettext_lazy("event", "bank to"),
    "declare": pgettext_lazy("event", "declare"), "withdraw": pgettext_lazy("event", "withdraw"),
    "void": pgettext_lazy("event", "void"), "tapo": pgettext_lazy("event", "tapo"),
    "al_puje": pgettext_lazy("event", "al puje"), "shuffle": pgettext_lazy("event", "shuffle"),
    "dealer_change": pgettext_lazy("event", "dealer change"), "round": pgettext_lazy("event", "round"),
}
FIELD_WORDS = {
    "to": pgettext_lazy("event field", "to"), "box": pgettext_lazy("event field", "box"),
    "hand": pgettext_lazy("event field", "hand"), "stake": pgettext_lazy("event field", "stake"),
    "wager": pgettext_lazy("event field", "wager"), "amount": pgettext_lazy("event field", "amount"),
    "reason": pgettext_lazy("event field", "reason"), "player": pgettext_lazy("event field", "player"),
    "kind": pgettext_lazy("event field", "kind"), "resolution": pgettext_lazy("event field", "resolution"),
    "reported_by": pgettext_lazy("event field", "reported by"), "approved_by": pgettext_lazy("event field", "approved by"),
}
# Field values that are words of the format rather than names or amounts.
VALUE_OF_FIELD = {
    "wager": {"ante": pgettext_lazy("wager", "Ante"), "bet": pgettext_lazy("wager", "bet"),
              "dealer_bet": pgettext_lazy("wager", "dealer bet"), "double": pgettext_lazy("wager", "double"),
              "insurance": pgettext_lazy("wager", "insurance"), "jackpot": pgettext_lazy("wager", "jackpot bet")},
    "to": {"dealer": pgettext_lazy("event field", "dealer"), "bank": pgettext_lazy("event field", "bank")},
    "resolution": {"burned": _("burned"), "under_shoe": _("put under the shoe")},
    "kind": {"dealer_card_exposed": _("dealer's card exposed"), "misdrawn_card": _("card drawn by mistake")},
}


def event_word(name) -> str:
    """A round/1 event name (deal, hit, pay…) in the reader's words; an unknown one as it is."""
    word = EVENT_WORDS.get(str(name))
    return str(word) if word is not None else str(name)


def event_field(key: str, value) -> str:
    """One field of an event, "stake 3a", in the reader's words."""
    label = FIELD_WORDS.get(key)
    words = VALUE_OF_FIELD.get(key, {})
    if isinstance(value, dict):
        value = ", ".join(f"{FIELD_WORDS.get(k, k)} {words.get(v, v)}" for k, v in value.items())
    else:
        value = words.get(value, value) if isinstance(value, str) else value
    return f"{label if label is not None else key} {value}"
