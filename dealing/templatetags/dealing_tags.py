"""Template helpers of the dealing pages: cards drawn as cards, findings next to their fields."""

from dataclasses import dataclass
from decimal import Decimal

from django import template
from django.utils.translation import gettext

from dealing.engine import cards as engine_cards
from dealing.forms.fields import SEPARATORS

register = template.Library()


@register.filter
def procedure_findings(incident) -> list[dict]:
    """An incident record's departures from the procedure (dealing.selectors.incident_procedure)."""
    from dealing.selectors import incident_procedure

    return incident_procedure(incident)


RED_SUITS = {"H", "D"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass(frozen=True)
class CardFace:
    """A card as drawn: rank and suit symbol; `valid` False for text that is not a card at all. A
    suit-less card (the terminal logs "6*" where the suit does not matter) is a card of its rank."""

    text: str
    code: str | None

    @property
    def valid(self) -> bool:
        return self.code is not None

    @property
    def rank(self) -> str:
        if not self.code:
            return self.text
        return engine_cards.RANK_NAMES.get(self.code[0], self.code[0])

    @property
    def suitless(self) -> bool:
        return bool(self.code) and self.code[1] == engine_cards.SUITLESS

    @property
    def suit(self) -> str:
        if self.suitless:
            return ""
        return engine_cards.SUIT_SYMBOLS[self.code[1]] if self.code else "?"

    @property
    def pip(self) -> str:
        """What the middle of the card shows: its suit, or its rank when the suit was not logged."""
        return self.rank if self.suitless else self.suit

    @property
    def colour(self) -> str:
        if not self.code:
            return "bad"
        if self.suitless:
            return "suitless"
        return "red" if self.code[1] in RED_SUITS else "black"

    @property
    def label(self) -> str:
        return engine_cards.label(self.code) if self.code else self.text


def _face(text) -> CardFace:
    text = str(text or "").strip()
    upper = text.upper()
    return CardFace(
        text,
        engine_cards.normalize(text)
        or engine_cards.normalize(upper)
        or engine_cards.suitless(text)
        or engine_cards.suitless(upper),
    )


@register.filter
def card_faces(value) -> list[CardFace]:
    """Cards from a list of codes or from text as typed ("TS 7h 10D")."""
    if value in (None, ""):
        return []
    if isinstance(value, (list, tuple)):
        return [_face(v) for v in value if v]
    return [_face(t) for t in SEPARATORS.split(str(value).strip()) if t]


@register.filter
def card_face(value) -> CardFace | None:
    return _face(value) if value else None


@register.filter
def field_findings(bound_field) -> list:
    """The engine's findings that belong to this field (after the form was checked)."""
    result = getattr(bound_field.form, "result", None)
    if result is None:
        return []
    return result.findings_for(bound_field.name)


@register.filter
def has_problem(bound_field) -> bool:
    return bool(bound_field.errors) or bool(field_findings(bound_field))


@register.filter
def result_word(value) -> str:
    return {"pay": gettext("pay"), "take": gettext("take"), "leave": gettext("leave")}.get(value, value or "—")


@register.filter
def signed(value) -> str:
    """An amount with its sign for the float: +310, −310."""
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    from casino.templatetags.casino_tags import money

    if amount > 0:
        return f"+{money(amount)}"
    if amount < 0:
        return f"−{money(-amount)}"
    return "0"


@register.filter
def game_word(variant: str, name: str):
    """`{{ table.variant|game_word:"limits" }}`: the game's own word on a shared page (games.word)."""
    from dealing import games

    return games.word(variant, name)
