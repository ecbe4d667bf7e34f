"""Template helpers of the drill pages: chip stacks, percentages, times, results in words."""

from decimal import Decimal, InvalidOperation

from django import template
from django.utils.translation import gettext as _

from casino.chips import colour_class
from casino.finding_words import finding_text

from ..choices import CODE_LABELS

register = template.Library()

MAX_CHIPS_DRAWN = 7


def _decimal(value) -> Decimal | None:
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


@register.simple_tag
def chip_stack(amount, chips):
    """The chips a dealer would stack for `amount` from the table's denominations (largest first).

    Returns {"chips": [{"value", "colour"}], "more": n}: at most MAX_CHIPS_DRAWN chips are drawn,
    `more` counts the rest. An amount the chips cannot make exactly ends with the remainder left out.
    """
    value = _decimal(amount)
    denominations = sorted((d for d in (_decimal(c) for c in chips or []) if d), reverse=True)
    drawn = []
    if value is None or value <= 0 or not denominations:
        return {"chips": [], "more": 0}
    left = value
    for d in denominations:
        n = int(left // d)
        if n:
            drawn.extend([{"value": d, "colour": colour_class(d)}] * n)
            left -= d * n
    drawn.reverse()  # the biggest chips at the bottom of the stack
    more = max(0, len(drawn) - MAX_CHIPS_DRAWN)
    return {"chips": drawn[-MAX_CHIPS_DRAWN:] if more else drawn, "more": more}


@register.filter
def pct(value):
    """An accuracy as "96.4 %", or an en dash before there is one."""
    value = _decimal(value)
    if value is None:
        return "–"
    text = f"{value:.1f}".rstrip("0").rstrip(".") if value == value.to_integral_value() else f"{value:.1f}"
    return f"{text} %"


@register.filter
def seconds(ms):
    """Milliseconds as seconds for people: "8.4 s", "1 min 05 s"."""
    if ms in (None, ""):
        return "–"
    total = int(ms) / 1000
    if total < 60:
        return _("%(s).1f s") % {"s": total}
    minutes, secs = divmod(int(round(total)), 60)
    return _("%(m)d min %(s)02d s") % {"m": minutes, "s": secs}


@register.filter
def result_word(result):
    return {"pay": _("Pay"), "take": _("Take"), "leave": _("Leave")}.get(result, result or "–")


@register.filter
def step_findings(step) -> list[str]:
    """A graded step's explanations in the reader's language: each kept message said from its code and
    params (casino/finding_words.py); one kept without params is its message in English and its code's
    label in another language, as before."""
    codes, params = step.codes or [], step.params or []
    code = codes[0] if codes else ""
    return [
        finding_text({"code": code, "message": message, "params": params[k] if k < len(params) else None})
        for k, message in enumerate(step.messages or [])
    ]


@register.filter
def code_label(code):
    return CODE_LABELS.get(code, code)


@register.filter
def get(mapping, key):
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def minus(value, other):
    if isinstance(value, int) and isinstance(other, int):
        return value - other
    try:
        return Decimal(str(value)) - Decimal(str(other))
    except (InvalidOperation, TypeError):
        return None


@register.filter
def arc(index, count):
    """How far (px) a box sits below the centre of the table's curved edge: the boxes follow the arc."""
    try:
        n = int(count)
        i = int(index)
    except (TypeError, ValueError):
        return 0
    if n <= 1:
        return 0
    centre = (n - 1) / 2
    return round(((i - centre) / centre) ** 2 * 46)


@register.filter
def percent_of(part, whole):
    """`part` as a whole percentage of `whole` (for progress bars)."""
    try:
        whole = float(whole)
        return max(0, min(100, round(float(part) * 100 / whole))) if whole else 0
    except (TypeError, ValueError):
        return 0


@register.filter
def wager_name(name):
    from ..table import wager_label

    return wager_label(name)
