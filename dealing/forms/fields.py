"""The fields of the dealing forms: amounts of money, cards as typed, a wager's result, a user by
username, and the quick renderer of the round form's many inputs."""

import re
from decimal import Decimal

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.validators import digits_problem
from dealing.engine import cards as engine_cards
from dealing.engine.base import LEAVE, PAY, TAKE
from dealing.games.building import amount_json

# The digits 0-9 only (`\d` would also match ٣ or ３, which Decimal() reads as 3).
_AMOUNT = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,2})?\Z")
_DECIMALS = re.compile(r"[0-9]+\.([0-9]{3,})\Z")
SEPARATORS = re.compile(r"[\s,;]+")


def parse_amount_text(text: str) -> Decimal:
    """An amount as typed: digits, optionally a point and one or two decimals; spaces and the
    thousands' commas of "5,000" are ignored. Raises ValidationError with the reason."""
    cleaned = re.sub(r"[\s\u00a0\u202f]", "", text)
    problem = digits_problem(cleaned)
    if problem is not None:
        raise forms.ValidationError(problem, code="digits")
    if re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?", cleaned):
        cleaned = cleaned.replace(",", "")
    elif "," in cleaned and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")  # 7,50 as written in Russian
    many = _DECIMALS.match(cleaned)
    if many:
        raise forms.ValidationError(
            _("%(amount)s has %(n)d decimals; an amount has at most 2 (e.g. 7.50).")
            % {"amount": text.strip(), "n": len(many.group(1))},
            code="decimals",
        )
    if not _AMOUNT.match(cleaned):
        raise forms.ValidationError(_("Enter an amount such as 150 or 7.50."), code="amount")
    amount = Decimal(cleaned)
    if not amount:
        raise forms.ValidationError(_("The amount must be more than zero."), code="zero")
    return amount


class AmountField(forms.CharField):
    """An amount of money: Decimal, at most 2 decimals, more than zero."""

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "widget",
            forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off", "class": "amount", "size": 7}),
        )
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return None
        return parse_amount_text(text)


def parse_cards(text: str, pack: frozenset[str], *, pack_words: str) -> list[str]:
    """Cards as typed ("TS 7h, 10D") in canonical codes; ValidationError naming the cards that are not."""
    codes, unknown, outside = [], [], []
    for token in SEPARATORS.split(text.strip()):
        if not token:
            continue
        code = engine_cards.normalize(token) or engine_cards.normalize(token.upper())
        if code is None:
            unknown.append(token)
        elif code not in pack:
            outside.append(token)
        else:
            codes.append(code)
    errors = []
    if unknown:
        errors.append(
            forms.ValidationError(
                _("%(cards)s: not a card. Write rank and suit: TS, AH, 10D.") % {"cards": ", ".join(unknown)},
                code="card",
            )
        )
    if outside:
        errors.append(
            forms.ValidationError(
                _("%(cards)s: not in %(pack)s.") % {"cards": ", ".join(outside), "pack": pack_words}, code="pack"
            )
        )
    if errors:
        raise forms.ValidationError(errors)
    return codes


class CardsField(forms.CharField):
    """Cards in order, as the dealer typed them; cleaned to a list of codes."""

    def __init__(self, *, pack: frozenset[str], pack_words: str, most: int | None = None, **kwargs):
        self.pack, self.pack_words, self.most = pack, pack_words, most
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={
                    "autocomplete": "off",
                    "autocapitalize": "characters",
                    "spellcheck": "false",
                    "class": "cards-input",
                }
            ),
        )
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value)
        codes = parse_cards(text or "", self.pack, pack_words=self.pack_words)
        if self.most is not None and len(codes) > self.most:
            raise forms.ValidationError(_("Only one card here."), code="too_many")
        return codes


RESULT_CHOICES = [("", "—"), (PAY, gettext_lazy("pay")), (TAKE, gettext_lazy("take")), (LEAVE, gettext_lazy("leave"))]


class ResultField(forms.ChoiceField):
    def __init__(self, **kwargs):
        super().__init__(
            choices=RESULT_CHOICES, required=False, widget=forms.Select(attrs={"class": "result"}), **kwargs
        )


class QuickWidgets(DjangoTemplates):
    """Renders the round form's text inputs, checkboxes and selects straight from Python.

    The form has about two hundred of them; through a template each, the page took half a second to
    draw. The HTML is the same as Django's widget templates give; anything else goes to them.
    """

    INPUTS = {
        "django/forms/widgets/text.html",
        "django/forms/widgets/hidden.html",
        "django/forms/widgets/checkbox.html",
        "django/forms/widgets/number.html",
    }

    def render(self, template_name, context, request=None):
        widget = context.get("widget") if isinstance(context, dict) else None
        if widget is not None and template_name in self.INPUTS:
            value = widget.get("value")
            value = "" if value is None else format_html(' value="{}"', value)
            return mark_safe(
                format_html('<input type="{}" name="{}"', widget["type"], widget["name"])
                + value
                + _attrs(widget["attrs"])
                + ">"
            )
        if (
            widget is not None
            and template_name == "django/forms/widgets/select.html"
            and widget.get("optgroups") is not None
        ):
            options = []
            for group, choices, _index in widget["optgroups"]:
                if group:
                    return super().render(template_name, context, request)
                for option in choices:
                    options.append(
                        format_html('<option value="{}"', option["value"])
                        + _attrs(option["attrs"])
                        + format_html(">{}</option>", option["label"])
                    )
            return mark_safe(
                format_html('<select name="{}"', widget["name"])
                + _attrs(widget["attrs"])
                + ">"
                + "".join(options)
                + "</select>"
            )
        return super().render(template_name, context, request)


def _attrs(attrs: dict) -> str:
    out = []
    for name, value in attrs.items():
        if value is True:
            out.append(format_html(" {}", name))
        elif value is not False and value is not None:
            out.append(format_html(' {}="{}"', name, value))
    return "".join(out)


QUICK_WIDGETS = QuickWidgets()


class CardField(forms.CharField):
    """One card in any spelling (TS, 10h, ah) → its code; whether the table's pack holds it is the service's call."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={
                    "autocomplete": "off",
                    "autocapitalize": "characters",
                    "spellcheck": "false",
                    "class": "card-input",
                    "placeholder": "TS",
                    "size": 4,
                }
            ),
        )
        super().__init__(**kwargs)

    def clean(self, value):
        text = (super().clean(value) or "").strip()
        if not text:
            return ""
        code = engine_cards.normalize(text) or engine_cards.normalize(text.upper())
        if code is None:
            raise forms.ValidationError(
                _("%(card)s is not a card. Write a rank and a suit, e.g. TS, AH, 10D.") % {"card": text}, code="card"
            )
        return code


class UserChoiceField(forms.ChoiceField):
    """A user chosen by username from a given list; cleaned to the user."""

    def __init__(self, *, users=(), **kwargs):
        super().__init__(**kwargs)
        self.users = users

    @property
    def users(self):
        return self._users

    @users.setter
    def users(self, users):
        self._users = {u.get_username(): u for u in users}
        self.choices = [("", "—")] + [(name, dealer_label(u)) for name, u in self._users.items()]

    def clean(self, value):
        name = super().clean(value)
        return self._users.get(name) if name else None


def dealer_label(user) -> str:
    """A user as the dealer selects show him: "Full Name (username)", or the username alone."""
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


def amount_json_text(amount: Decimal) -> str:
    """An amount as the round log writes it, as text for a field ("150", "7.50")."""
    return str(amount_json(amount))
