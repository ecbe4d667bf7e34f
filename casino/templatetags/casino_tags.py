"""Template filters of the floor pages."""

import datetime
from decimal import Decimal, InvalidOperation

from django import template
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from casino.chips import colour_class
from casino.finding_labels import severity_label
from casino.finding_text import VALUE_OF_FIELD
from casino.finding_words import finding_text, verdict_text

register = template.Library()


@register.filter
def game_name(variant: str) -> str:
    """A variant's name as the pages show it (`{{ row.variant|game_name }}`), where only its key is
    at hand (a report's rows grouped by game); an unknown key shows as itself."""
    from casino.choices import Variant

    return gettext(dict(Variant.choices).get(variant, variant))


@register.filter
def money(value):
    """An amount as the floor reads it: grouped digits, cents only when there are any (5,000 / 7.50)."""
    if value in (None, ""):
        return ""
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        return value
    places = 0 if amount == amount.to_integral_value() else 2
    return number_format(amount, decimal_pos=places, use_l10n=True, force_grouping=True)


@register.filter
def chip_colour(value) -> str:
    """The class that paints a chip of this denomination: one colour on every page (casino/chips.py)."""
    return colour_class(value)


@register.filter
def chip_label(value):
    """A chip's face: thousands as K (1K, 25K) so the value fits on the chip; smaller as `money`."""
    amount = Decimal(str(value))
    if amount >= 1000 and amount % 1000 == 0:
        return f"{money(amount / 1000)}K"
    return money(amount)


@register.filter
def rule_value(value):
    """A house-rule value for display: true/false as yes/no, amounts like `money`."""
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if isinstance(value, Decimal):
        return money(value)
    if isinstance(value, str) and value in RULE_VALUES:
        return str(RULE_VALUES[value])
    return value


# The engines' house-rule options (dealing/engine/<variant>.py OPTIONS): the msgid is the option's
# name spaced for reading, as the English page has always shown it; the catalogue gives the floor's
# words for it in the other languages.
RULE_LABELS = {
    "dark_win_bet": gettext_lazy("dark win bet"),
    "dark_double_bust_bet": gettext_lazy("dark double bust bet"),
    "dealer_bet_min": gettext_lazy("dealer bet min"),
    "preset": gettext_lazy("preset"),
    "decks": gettext_lazy("decks"),
    "reshuffle": gettext_lazy("reshuffle"),
    "cut_remaining": gettext_lazy("cut remaining"),
    "boxes": gettext_lazy("boxes"),
    "max_hands": gettext_lazy("max hands"),
    "resplit_aces": gettext_lazy("resplit aces"),
    "hit_split_aces": gettext_lazy("hit split aces"),
    "double_after_split": gettext_lazy("double after split"),
    "jackpot": gettext_lazy("jackpot"),
    "jackpot_bet": gettext_lazy("jackpot bet"),
    "jackpot_amount": gettext_lazy("jackpot amount"),
    "suited_twelve_pays": gettext_lazy("suited twelve pays"),
    "packs": gettext_lazy("packs"),
}
# Option values that are words rather than amounts or names (the Bet taken or left, when a shoe ends).
RULE_VALUES = {
    "leave": gettext_lazy("leave"),
    "take": gettext_lazy("take"),
    "cut": pgettext_lazy("house rule", "cut"),
    "every_round": pgettext_lazy("house rule", "every round"),
}


@register.filter
def humanize_rule(name: str) -> str:
    """A house-rule option by its floor name; an option without one as its engine name, spaced for reading."""
    label = RULE_LABELS.get(str(name))
    return str(label) if label is not None else str(name).replace("_", " ")


@register.filter
def when(value):
    """A moment as every page shows it: the language's DATETIME_FORMAT, in the current time zone, named.

    casino/formats/<language>/formats.py holds the one format of each language; the zone (T) is part
    of it, so "14:05" never leaves the reader guessing which clock it is.
    """
    if value in (None, ""):
        return ""
    if isinstance(value, datetime.datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return date_format(value, "DATETIME_FORMAT")
    return date_format(value, "DATE_FORMAT")


@register.filter
def day(value):
    """A calendar day (a period's bounds, a certificate's date) in the language's DATE_FORMAT."""
    if value in (None, ""):
        return ""
    if isinstance(value, datetime.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, "DATE_FORMAT")


@register.filter(name="finding_text")
def finding_text_filter(finding):
    """A finding's sentence in the reader's language (casino/finding_text.py renders it by code)."""
    return finding_text(finding)


@register.filter
def finding_message(message, code):
    """A finding kept as its code and sentence only (a drill step's explanation) in the reader's language:
    its message in English, its code's label in another (casino/finding_words.py)."""
    return finding_text({"code": code, "message": message})


@register.filter
def verdict(owed):
    """An owed wager's reason in the reader's language, from its verdict (an Owed, its dict, or the
    verdict's params; casino/finding_words.py's verdict_text)."""
    return verdict_text(owed)


@register.filter(name="severity_label")
def severity_label_filter(severity):
    """critical / major / minor as the pills show them, in the reader's language."""
    return severity_label(severity)


@register.filter
def wager_label(name):
    """A round/1 wager name (ante, bet, dealer_bet, double…) as the reader's language names it."""
    label = VALUE_OF_FIELD["wager"].get(str(name))
    return str(label) if label is not None else name


@register.simple_tag
def oidc_provider():
    """The OpenID Connect provider's name for the login page's button; "" with OIDC off."""
    return settings.OIDC_PROVIDER_NAME if settings.OIDC_ENABLED else ""
