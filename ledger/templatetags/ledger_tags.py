"""Template helpers of the ledger: cards drawn as cards, the colour of a signed amount, dictionary
lookups. (Signed amounts themselves: `dealing_tags.signed`.)"""

from decimal import Decimal

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext as _

from dealing.engine.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS

register = template.Library()

_SUIT_WORDS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@register.simple_tag
def card(code, hidden=False, drawn=False, small=False):
    """A playing card: rank and suit symbol, red for hearts and diamonds. `hidden`: a tapo y quedo
    card (shown, marked as the hidden one); `drawn`: drawn by the bank after the deal."""
    code = str(code or "")
    classes = ["pc"]
    if small:
        classes.append("pc-sm")
    if hidden:
        classes.append("pc-tapo")
    if drawn:
        classes.append("pc-drawn")
    if len(code) != 2 or code[1] not in SUIT_SYMBOLS:
        classes.append("pc-bad")
        return format_html(
            '<span class="{}" title="{}"><b>{}</b></span>', " ".join(classes), _("not a card of the pack"), code or "?"
        )
    rank, suit = RANK_NAMES.get(code[0], code[0]), code[1]
    if suit in "HD":
        classes.append("pc-red")
    title = f"{rank}{SUIT_SYMBOLS[suit]}"
    if hidden:
        title += " — " + _("tapo y quedo (face down until the end)")
    return format_html(
        '<span class="{}" title="{}" data-card="{}"><b>{}</b><i aria-label="{}">{}</i>'
        '<u aria-hidden="true">{}</u></span>',
        " ".join(classes),
        title,
        code,
        rank,
        SUIT_NAMES[suit],
        SUIT_SYMBOLS[suit],
        SUIT_SYMBOLS[suit],
    )


@register.filter
def sign_class(value):
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    return "pos" if amount > 0 else "neg" if amount < 0 else "zero"


@register.filter
def get(mapping, key):
    if mapping is None:
        return None
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def suit(code):
    return _SUIT_WORDS.get(str(code)[-1:], "")


@register.filter
def as_json(value):
    """A stored document as indented JSON (amounts are already exact in it)."""
    import json

    return json.dumps(value, indent=1, ensure_ascii=False, default=str)
