"""Template helpers of the audit pages."""

from decimal import Decimal

from django import template
from django.utils.translation import gettext_lazy as _

from casino.templatetags.casino_tags import money

register = template.Library()

RESULTS = {"pay": _("paid"), "take": _("taken"), "leave": _("left")}


@register.filter
def signed_money(value):
    """+300 / −100 / 0: the player's side of an amount (over-paid positive, short-changed negative)."""
    if value in (None, ""):
        return "—"
    amount = Decimal(str(value))
    if amount > 0:
        return f"+{money(amount)}"
    if amount < 0:
        return f"−{money(-amount)}"
    return "0"


@register.filter
def delta_class(value) -> str:
    if value in (None, ""):
        return ""
    amount = Decimal(str(value))
    return "over" if amount > 0 else "under" if amount < 0 else ""


@register.filter
def result_word(value) -> str:
    return str(RESULTS.get(value, value or ""))


@register.filter
def settlement(value) -> str:
    """{"result": "pay", "amount": "300"} → "paid 300"."""
    if not isinstance(value, dict):
        return "—"
    word = str(RESULTS.get(value.get("result"), value.get("result") or ""))
    amount = value.get("amount")
    return f"{word} {money(amount)}".strip() if amount not in (None, "") else str(word)


@register.simple_tag(takes_context=True)
def query_with(context, **changes):
    """The current query string with some parameters replaced (None removes one)."""
    query = context["request"].GET.copy()
    for key, value in changes.items():
        query.pop(key, None)
        if value not in (None, ""):
            query[key] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"
