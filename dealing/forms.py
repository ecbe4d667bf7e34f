"""Forms of the dealing pages: the dealer's round form (one class per game), incidents, the shoe.

The round form is a plain Django form whose fields are laid out as the table is: boxes, their
stakes and cards, the dealer's place. It turns what was entered into a `round/1` document with
`dealing.round_builder`, asks the engine for its findings (`RoundForm.check`) and maps each
finding and each error back to the field that caused it. It never stores anything: the view saves
through `dealing.services.round_log`.

A new game adds a subclass of `RoundForm` (its fields, `entry()`, `build()`, `field_of()`) and
its template `dealing/round_form_<variant>.html`; `ROUND_FORMS` says which form a table uses.
"""

import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.forms.renderers import DjangoTemplates
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.roles import DEALER, has_role
from casino.validators import PlayerNameValidator
from dealing import chain, engine
from dealing.choices import BurnReason, Decision, IncidentKind, Resolution
from dealing.engine import cards as engine_cards
from dealing.engine.base import LEAVE, PAY, TAKE
from dealing.round_builder import (
    BoxEntry, Built, OchkoEntry, Result, Source, StakeEntry, amount_json, build_ochko, ochko_entry_from_document,
)
from dealing.round_builder_blackjack import BlackjackEntry, HandEntry, blackjack_entry_from_document, build_blackjack
from dealing.round_builder_blackjack import BoxEntry as BjBoxEntry
from dealing.round_builder_blackjack import StakeEntry as BjStakeEntry

User = get_user_model()

# --- fields ------------------------------------------------------------------------------------

_AMOUNT = re.compile(r"\d{1,12}(?:\.\d{1,2})?\Z")
_DECIMALS = re.compile(r"\d+\.(\d{3,})\Z")
_SPLIT = re.compile(r"[\s,;]+")


def parse_amount_text(text: str) -> Decimal:
    """An amount as typed: digits, optionally a point and one or two decimals; spaces and the
    thousands' commas of "5,000" are ignored. Raises ValidationError with the reason."""
    cleaned = re.sub(r"[\s\u00a0\u202f]", "", text)
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", cleaned):
        cleaned = cleaned.replace(",", "")
    elif "," in cleaned and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")  # 7,50 as written in Russian
    many = _DECIMALS.match(cleaned)
    if many:
        raise forms.ValidationError(
            _("%(amount)s has %(n)d decimals; an amount has at most 2 (e.g. 7.50).")
            % {"amount": text.strip(), "n": len(many.group(1))}, code="decimals")
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
        kwargs.setdefault("widget", forms.TextInput(attrs={
            "inputmode": "decimal", "autocomplete": "off", "class": "amount", "size": 7}))
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return None
        return parse_amount_text(text)


def parse_cards(text: str, pack: frozenset[str], *, pack_words: str) -> list[str]:
    """Cards as typed ("TS 7h, 10D") in canonical codes; ValidationError naming the cards that are not."""
    codes, unknown, outside = [], [], []
    for token in _SPLIT.split(text.strip()):
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
        errors.append(forms.ValidationError(
            _("%(cards)s: not a card. Write rank and suit: TS, AH, 10D.") % {"cards": ", ".join(unknown)},
            code="card"))
    if outside:
        errors.append(forms.ValidationError(
            _("%(cards)s: not in %(pack)s.") % {"cards": ", ".join(outside), "pack": pack_words}, code="pack"))
    if errors:
        raise forms.ValidationError(errors)
    return codes


class CardsField(forms.CharField):
    """Cards in order, as the dealer typed them; cleaned to a list of codes."""

    def __init__(self, *, pack: frozenset[str], pack_words: str, most: int | None = None, **kwargs):
        self.pack, self.pack_words, self.most = pack, pack_words, most
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.TextInput(attrs={
            "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false", "class": "cards-input"}))
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
        super().__init__(choices=RESULT_CHOICES, required=False,
                         widget=forms.Select(attrs={"class": "result"}), **kwargs)


class QuickWidgets(DjangoTemplates):
    """Renders the round form's text inputs, checkboxes and selects straight from Python.

    The form has about two hundred of them; through a template each, the page took half a second to
    draw. The HTML is the same as Django's widget templates give; anything else goes to them.
    """

    INPUTS = {"django/forms/widgets/text.html", "django/forms/widgets/hidden.html",
              "django/forms/widgets/checkbox.html", "django/forms/widgets/number.html"}

    def render(self, template_name, context, request=None):
        widget = context.get("widget") if isinstance(context, dict) else None
        if widget is not None and template_name in self.INPUTS:
            value = widget.get("value")
            value = "" if value is None else format_html(' value="{}"', value)
            return mark_safe(format_html('<input type="{}" name="{}"', widget["type"], widget["name"]) + value
                             + _attrs(widget["attrs"]) + ">")
        if widget is not None and template_name == "django/forms/widgets/select.html" and not widget.get("optgroups") \
                is None:
            options = []
            for group, choices, _index in widget["optgroups"]:
                if group:
                    return super().render(template_name, context, request)
                for option in choices:
                    options.append(format_html('<option value="{}"', option["value"]) + _attrs(option["attrs"])
                                   + format_html(">{}</option>", option["label"]))
            return mark_safe(format_html('<select name="{}"', widget["name"]) + _attrs(widget["attrs"]) + ">"
                             + "".join(options) + "</select>")
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


# --- what the engine said, laid over the form ----------------------------------------------------

SETTLEMENT_CODES = {"WRONG_AMOUNT", "WRONG_RESULT", "MISSING_SETTLEMENT", "UNEXPECTED_SETTLEMENT",
                    "LATE_SETTLEMENT", "PAYMENT_ORDER"}


@dataclass
class FindingView:
    code: str
    severity: str
    message: str
    field: str | None  # the form field it belongs to, or None for the round as a whole
    expected: dict | None = None
    actual: dict | None = None


@dataclass
class Check:
    """The engine's answer for the round as entered: the document, what was owed, the findings."""

    built: Built | None = None
    outcome: object = None  # engine Outcome
    error: str | None = None  # the engine could not read the document (mapped to a field when it can be)
    error_field: str | None = None
    findings: list[FindingView] = field(default_factory=list)
    token: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None and self.built is not None

    @property
    def clean(self) -> bool:
        return self.ok and not self.findings

    @property
    def owed(self) -> dict:
        """What each wager was owed by (stake, wager) — a game without hands (ochko)."""
        wagers = getattr(self.outcome, "wagers", None) or []
        return {(w.stake, w.wager): w for w in wagers}

    @property
    def owed_by_hand(self) -> dict:
        """What each wager was owed by (stake, hand, wager); the hand is None where a game has none."""
        wagers = getattr(self.outcome, "wagers", None) or []
        return {(w.stake, w.hand, w.wager): w for w in wagers}

    @property
    def unsettled(self) -> list:
        """Owed wagers the dealer entered no result for."""
        done = {(s.stake, s.hand, s.wager) for s in getattr(self.outcome, "settled", None) or []}
        return [w for key, w in self.owed_by_hand.items() if key not in done]

    @property
    def may_save(self) -> bool:
        """Saved only once every wager has its result: the log says what the dealer did with each."""
        return self.ok and self.outcome is not None and self.outcome.wagers is not None and not self.unsettled

    @property
    def float_owed(self):
        return getattr(self.outcome, "float", None)

    @property
    def float_logged(self):
        """Σ take − Σ pay as entered (a take without an amount moves the wager itself)."""
        if self.outcome is None:
            return None
        owed = self.owed_by_hand
        total = Decimal(0)
        for s in self.outcome.settled:
            if s.result == TAKE:
                w = owed.get((s.stake, s.hand, s.wager))
                total += s.amount if s.amount is not None else (w.size if w else 0)
            elif s.result == PAY and s.amount is not None:
                total -= s.amount
        return total

    def findings_for(self, name: str) -> list[FindingView]:
        return [f for f in self.findings if f.field == name]

    @property
    def general_findings(self) -> list[FindingView]:
        return [f for f in self.findings if f.field is None]


def document_token(document: dict) -> str:
    """A fingerprint of a built document: the round saved must be the round the dealer checked."""
    return hashlib.sha256(chain.canonical_json(chain.json_safe(document)).encode("utf-8")).hexdigest()


# --- the round form ----------------------------------------------------------------------------

def pit_dealers(table):
    """Active users holding the dealer role who work in the table's pit, by username."""
    users = User.objects.filter(is_active=True, staff__pits=table.pit_id).order_by("username").distinct()
    return [u for u in users if has_role(u, DEALER)]


class RoundForm(forms.Form):
    """What every game's round form shares: the round's id, the dealer, the engine's check."""

    variant = ""
    template_name = ""

    round_id = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args, table, user, amends=None, **kwargs):
        """`amends`: the stored round this form corrects (a reason is then required, and whatever the
        stored log carries beyond what the form shows — its shoe, say — is kept in the header)."""
        super().__init__(*args, **kwargs)
        self.table = table
        self.user = user
        self.amends = amends
        self.result: Check | None = None
        self.extra_header: dict = {}
        if amends is not None:
            # Asked for when the correction is saved (a check needs none): see `reason_missing`.
            self.fields["reason"] = forms.CharField(
                label=_("Why is the round corrected?"), max_length=2000, required=False,
                widget=forms.Textarea(attrs={"rows": 2, "class": "reason-input"}))
            self.extra_header = {k: v for k, v in amends.document.items() if k not in _HEADER_KEYS}
        self.dealer_fixed = not user.is_superuser and not _logs_for_others(user)
        if not self.dealer_fixed:
            choices = [(u.get_username(), _dealer_label(u)) for u in pit_dealers(table)]
            self.fields["dealer"] = forms.ChoiceField(label=_("Dealer"), choices=[("", "—")] + choices,
                                                      widget=forms.Select(attrs={"class": "dealer-select"}))

    def reason_missing(self) -> bool:
        """A correction is saved only with its reason; the error goes on the reason's field."""
        if self.amends is None or (self.cleaned_data.get("reason") or "").strip():
            return False
        self.add_error("reason", _("Say why the round is corrected: the pit boss reads it."))
        return True

    # What a game's form provides.
    @classmethod
    def initial_from_document(cls, doc: dict) -> dict:
        """The form's fields as they would be filled for a stored round (to correct it)."""
        raise NotImplementedError

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        """The document the form gives back for a stored round, left as it is (header kept)."""
        raise NotImplementedError

    @classmethod
    def layout_action(cls, data, action: str) -> str | None:
        """A change of the form's layout asked by a button (blackjack: split a hand). Changes `data`
        and returns the field to focus next; None when the form has no such action."""
        return None

    def build(self) -> Built:
        raise NotImplementedError

    def field_of(self, source: Source | None) -> str | None:
        raise NotImplementedError

    def field_of_finding(self, finding) -> str | None:
        raise NotImplementedError

    def field_of_path(self, path: str | None, built: Built) -> str | None:
        return None

    # Shared by the games' forms.
    def _clean_result(self, prefix: str, wager: str, refusal: str | None) -> None:
        """A wager's result and amount, when either was entered: `refusal` when the wager cannot be
        settled at all, else a result, and an amount for a payment."""
        data = self.cleaned_data
        r_key, a_key = f"{prefix}{wager}_result", f"{prefix}{wager}_amount"
        result, amount = data.get(r_key), data.get(a_key)
        if not result and amount is None:
            return
        if refusal:
            self.add_error(r_key, refusal)
        elif not result:
            self.add_error(r_key, _("Paid, taken or left?"))
        elif result == PAY and amount is None and a_key not in self.errors:
            self.add_error(a_key, _("How much was paid?"))

    def _wager_row(self, wager: str, label, prefix: str, owed, *, absent: str = "", **extra) -> "WagerRow":
        """The row of one wager's result and amount (fields `<prefix><wager>_result` / `_amount`)."""
        r_name = f"{prefix}{wager}_result"
        return WagerRow(wager, label, self[r_name], self[f"{prefix}{wager}_amount"], owed,
                        self.result.findings_for(r_name) if self.result else [], absent, **extra)

    @staticmethod
    def _stake_of_path(path: str | None, built: Built) -> tuple[dict, str | None] | None:
        """The stake a refusal's JSON path (`$.stakes[2].ante`) points at, with the key named."""
        m = re.match(r"\$\.stakes\[(\d+)\](?:\.(\w+))?", path or "")
        if not m:
            return None
        stakes = built.document["stakes"]
        k = int(m.group(1))
        return (stakes[k], m.group(2)) if k < len(stakes) else None

    def fill_owed(self, data) -> int:
        """Put what the engine says was owed into the blank results of `data`; how many were filled."""
        raise NotImplementedError

    def field_place(self, name: str) -> str:
        """Where a field is, in words ("Box 3, stake 3a: Bet")."""
        field = self.fields.get(name)
        return str(field.label) if field is not None else name

    def problems(self) -> list[tuple[str, str, str]]:
        """The fields that did not clean, as (field name, where, first error) in the order of the form."""
        return [(name, self.field_place(name), str(self.errors[name][0])) for name in self.fields
                if name in self.errors]

    # Shared.
    def dealer_username(self) -> str:
        if self.dealer_fixed:
            return self.user.get_username()
        return self.cleaned_data["dealer"]

    def header(self) -> dict:
        table = self.table
        return {
            "format": "round/1",
            "id": str(self.cleaned_data["round_id"]),
            "variant": self.variant,
            "table": {"name": table.name, "min": amount_json(table.min_bet), "max": amount_json(table.max_bet)},
            "rules": dict(table.rules or {}),
            "dealer": self.dealer_username(),
            **self.extra_header,
        }

    def check(self) -> Check:
        """Build the document from the cleaned form and replay it: findings and errors on their fields."""
        built = self.build()
        result = Check(built=built, token=document_token(built.document))
        try:
            outcome = engine.replay(built.document)
        except engine.RoundError as exc:
            name = self.field_of(built.source_of(exc.event)) or self.field_of_path(exc.path, built)
            result.error, result.error_field = exc.message, name
            if name is not None and name in self.fields:
                self.add_error(name, exc.message)
            else:
                self.add_error(None, exc.message)
        else:
            result.outcome = outcome
            for f in outcome.findings:
                name = self.field_of_finding(f) or self.field_of(built.source_of(f.event))
                result.findings.append(FindingView(f.code, f.severity, f.message, name, f.expected, f.actual))
        self.result = result
        return result


# What `RoundForm.header` writes itself; anything else a stored log carries is kept by a correction.
_HEADER_KEYS = frozenset({"format", "id", "variant", "table", "rules", "dealer", "stakes", "events"})


def _header_of(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("stakes", "events")}


def _text(amount) -> str:
    return "" if amount is None else amount_json_text(amount)


def _logs_for_others(user) -> bool:
    """A pit boss logs rounds for the dealers of his pits; a dealer only his own."""
    from casino.roles import PIT_BOSS

    return has_role(user, PIT_BOSS)


def _dealer_label(user) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


OCHKO_PACK = engine.variant("ochko").PACK
STAKE_LETTERS = "abc"
OCHKO_WAGER_LABELS = {"bet": gettext_lazy("Bet"), "ante": gettext_lazy("Ante"), "dealer_bet": gettext_lazy("Dealer bet")}
# Settlement rows in the order a box is paid: Bet, Ante, then the dealer bet.
OCHKO_SETTLE_ORDER = ("bet", "ante", "dealer_bet")


@dataclass
class WagerRow:
    wager: str
    label: str
    result: forms.BoundField
    amount: forms.BoundField
    owed: object = None  # engine Owed
    findings: list = field(default_factory=list)
    # The data attribute of a blank row whose wager is not on the table (no dealer bet, a fold, no
    # double…): the script hides the row until the wager appears.
    absent: str = ""
    leave_amount: bool = True  # the game's leave carries the wager's amount (blackjack; not ochko)

    @property
    def absent_marker(self) -> str:
        if not self.absent or self.result.value() or self.result.errors or self.amount.value():
            return ""
        return self.absent

    @property
    def state(self) -> str:
        if self.findings:
            return "wrong"
        if self.owed is not None and self.result.value():
            return "ok"
        return ""

    @property
    def owed_amount(self) -> str:
        if self.owed is None:
            return ""
        return amount_json_text(self.owed.amount if self.owed.result == PAY else self.owed.size)


def amount_json_text(amount: Decimal) -> str:
    return str(amount_json(amount))


@dataclass
class StakeView:
    id: str
    letter: str
    fields: dict
    wagers: list[WagerRow]
    used: bool
    findings: list = field(default_factory=list)

    def __getitem__(self, key):
        return self.fields[key]


@dataclass
class BoxView:
    number: int
    cards: forms.BoundField
    dark: forms.BoundField
    stakes: list[StakeView]
    verdict: str = ""  # the engine's reason for the box's result, once checked

    @property
    def in_play(self) -> bool:
        return any(s.used for s in self.stakes)

    @property
    def wager_rows(self) -> list[tuple[StakeView, WagerRow]]:
        return [(s, w) for s in self.stakes for w in s.wagers]


class OchkoRoundForm(RoundForm):
    """21 Ochko: six boxes of up to three stakes, their cards and dark card, the dealer's cards."""

    variant = "ochko"
    template_name = "dealing/round_form_ochko.html"
    default_renderer = QUICK_WIDGETS
    pack_words = gettext_lazy("the 36-card pack (6 to A)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.box_numbers = list(range(1, min(self.table.boxes, 6) + 1))
        f = self.fields
        for n in self.box_numbers:
            f[f"b{n}_cards"] = CardsField(pack=OCHKO_PACK, pack_words=self.pack_words,
                                          label=_("Box %(n)d cards") % {"n": n})
            f[f"b{n}_dark"] = CardsField(pack=OCHKO_PACK, pack_words=self.pack_words, most=1,
                                         label=_("Box %(n)d dark card") % {"n": n})
            for letter in STAKE_LETTERS:
                p = f"s{n}{letter}_"
                f[p + "player"] = forms.CharField(required=False, max_length=80, label=_("Player"),
                                                  validators=[PlayerNameValidator()],
                                                  widget=forms.TextInput(attrs={"autocomplete": "off",
                                                                                "class": "player"}))
                f[p + "ante"] = AmountField(label=_("Ante"))
                f[p + "dealer_bet"] = AmountField(label=_("Dealer bet"))
                f[p + "bet"] = AmountField(label=_("Bet"))
                f[p + "fold"] = forms.BooleanField(required=False, label=_("fold"))
                for wager in OCHKO_SETTLE_ORDER:
                    f[f"{p}{wager}_result"] = ResultField(label=OCHKO_WAGER_LABELS[wager])
                    f[f"{p}{wager}_amount"] = AmountField(label=_("amount"))
        f["dealer_cards"] = CardsField(pack=OCHKO_PACK, pack_words=self.pack_words, label=_("Dealer's cards"))
        # The dealer's place comes after the boxes; the dealer select (pit bosses) last of all.
        if "dealer" in f:
            f["dealer"] = f.pop("dealer")

    @classmethod
    def initial_from_document(cls, doc: dict) -> dict:
        entry = ochko_entry_from_document(doc)
        data = {"round_id": doc.get("id"), "dealer": doc.get("dealer"),
                "dealer_cards": " ".join(entry.dealer_cards)}
        for box in entry.boxes:
            n = box.number
            data[f"b{n}_cards"] = " ".join(box.cards)
            data[f"b{n}_dark"] = box.dark or ""
            for letter, stake in zip(STAKE_LETTERS, box.stakes):
                p = f"s{n}{letter}_"
                data.update({p + "player": stake.player, p + "ante": _text(stake.ante),
                             p + "dealer_bet": _text(stake.dealer_bet), p + "bet": _text(stake.bet)})
                if stake.folded:
                    data[p + "fold"] = "on"
                for wager, entered in stake.results.items():
                    if wager in OCHKO_SETTLE_ORDER:
                        data[f"{p}{wager}_result"] = entered.result
                        data[f"{p}{wager}_amount"] = _text(entered.amount)
        return {k: v for k, v in data.items() if v not in (None, "")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        return build_ochko(ochko_entry_from_document(doc), header=_header_of(doc)).document

    def field_place(self, name: str) -> str:
        m = re.fullmatch(r"b(\d)_(cards|dark)", name)
        if m:
            what = _("cards") if m.group(2) == "cards" else _("dark card")
            return _("Box %(n)s: %(what)s") % {"n": m.group(1), "what": what}
        m = re.fullmatch(r"s((\d)[abc])_(\w+?)(_result|_amount)?", name)
        if m:
            key, part = m.group(3), m.group(4)
            label = OCHKO_WAGER_LABELS.get(key) or self.fields[name].label
            if part == "_result":
                label = _("%(wager)s paid, taken or left") % {"wager": OCHKO_WAGER_LABELS[key]}
            elif part == "_amount":
                label = _("%(wager)s amount") % {"wager": OCHKO_WAGER_LABELS[key]}
            return _("Box %(n)s, stake %(id)s: %(what)s") % {"n": m.group(2), "id": m.group(1), "what": label}
        if name == "dealer_cards":
            return _("Your cards")
        return super().field_place(name)

    # --- validation ------------------------------------------------------------------------

    def _stake_used(self, p: str) -> bool:
        data = self.cleaned_data
        keys = ["player", "ante", "dealer_bet", "bet", "fold"] + [
            f"{w}_{part}" for w in OCHKO_SETTLE_ORDER for part in ("result", "amount")]
        return any(data.get(p + k) not in (None, "", False) for k in keys)

    def clean(self):
        data = super().clean()
        any_stake = False
        for n in self.box_numbers:
            box_used = False
            for letter in STAKE_LETTERS:
                p = f"s{n}{letter}_"
                # A field that did not clean is not in cleaned_data, but its stake is in use.
                if self._stake_used(p) or any(k.startswith(p) for k in self.errors):
                    box_used = True
                    self._clean_stake(p)
            cards_key, dark_key = f"b{n}_cards", f"b{n}_dark"
            if box_used:
                any_stake = True
                if cards_key not in self.errors and not data.get(cards_key):
                    self.add_error(cards_key, _("Enter the box's cards: the card dealt first, then each card drawn."))
            elif data.get(cards_key) or data.get(dark_key):
                name = cards_key if data.get(cards_key) else dark_key
                self.add_error(name, _("Nobody plays box %(n)d: enter a player and an Ante first.") % {"n": n})
            if data.get(dark_key) and not data.get(cards_key) and cards_key not in self.errors and box_used:
                pass  # the missing first card is already reported on the cards field
        if not any_stake and not any(k.startswith("s") for k in self.errors):
            raise forms.ValidationError(_("Enter at least one stake: a player and an Ante on a box."),
                                        code="no_stakes")
        if any_stake and "dealer_cards" not in self.errors and not data.get("dealer_cards"):
            self.add_error("dealer_cards", _("Enter your cards: the face-down card first, then each card drawn."))
        return data

    def _clean_stake(self, p: str) -> None:
        data = self.cleaned_data
        if not (data.get(p + "player") or "").strip() and p + "player" not in self.errors:
            self.add_error(p + "player", _("Who plays this stake?"))
        if data.get(p + "ante") is None and p + "ante" not in self.errors:
            self.add_error(p + "ante", _("Enter the Ante."))
        folded, bet = data.get(p + "fold"), data.get(p + "bet")
        if p + "bet" not in self.errors:
            if folded and bet is not None:
                self.add_error(p + "bet", _("A stake folds or places a Bet, not both."))
            elif not folded and bet is None:
                self.add_error(p + "bet", _("Enter the Bet, or tick fold."))
        for wager in OCHKO_SETTLE_ORDER:
            refusal = None
            if wager == "dealer_bet" and data.get(p + "dealer_bet") is None and p + "dealer_bet" not in self.errors:
                refusal = _("This stake has no dealer bet to settle.")
            elif wager == "bet" and folded:
                refusal = _("This stake folded: it has no Bet to settle.")
            self._clean_result(p, wager, refusal)

    # --- the document ------------------------------------------------------------------------

    def entry(self) -> OchkoEntry:
        data = self.cleaned_data
        boxes = []
        for n in self.box_numbers:
            stakes = []
            for letter in STAKE_LETTERS:
                p = f"s{n}{letter}_"
                if not self._stake_used(p):
                    continue
                results = {}
                for wager in OCHKO_SETTLE_ORDER:
                    result = data.get(f"{p}{wager}_result")
                    if result:
                        results[wager] = Result(result, data.get(f"{p}{wager}_amount"))
                stakes.append(StakeEntry(
                    id=f"{n}{letter}", box=n, player=data[p + "player"].strip(), ante=data[p + "ante"],
                    dealer_bet=data.get(p + "dealer_bet"), bet=None if data.get(p + "fold") else data.get(p + "bet"),
                    results=results))
            dark = data.get(f"b{n}_dark") or []
            boxes.append(BoxEntry(n, stakes, list(data.get(f"b{n}_cards") or []), dark[0] if dark else None))
        return OchkoEntry(boxes, list(data.get("dealer_cards") or []))

    def build(self) -> Built:
        return build_ochko(self.entry(), header=self.header())

    def field_of(self, source: Source | None) -> str | None:
        if source is None:
            return None
        part = source.part
        if part in ("card", "stand"):
            return f"b{source.box}_cards"
        if part in ("dark", "reveal"):
            return f"b{source.box}_dark"
        if part == "decision":
            return f"s{source.stake}_{'bet' if source.wager else 'fold'}"
        if part == "result":
            return f"s{source.stake}_{source.wager}_result"
        if part == "dealer_card":
            return "dealer_cards"
        return None

    def field_of_finding(self, finding) -> str | None:
        sid, wager, code = finding.stake, finding.wager, finding.code
        if sid is None or not re.fullmatch(r"[1-6][abc]", sid):
            return None
        if code in SETTLEMENT_CODES and wager in OCHKO_SETTLE_ORDER:
            return f"s{sid}_{wager}_result"
        return {"BET_RANGE": f"s{sid}_bet", "ANTE_LIMITS": f"s{sid}_ante",
                "DEALER_BET_MIN": f"s{sid}_dealer_bet", "BOX_PLAYERS": f"s{sid}_player"}.get(code)

    def field_of_path(self, path: str | None, built: Built) -> str | None:
        found = self._stake_of_path(path, built)
        if found is None:
            return None
        stake, key = found
        return f"s{stake['id']}_{key if key in ('player', 'ante', 'dealer_bet') else 'player'}"

    def fill_owed(self, data) -> int:
        filled = 0
        if self.result is None or not self.result.ok:
            return 0
        for (sid, wager), owed in self.result.owed.items():
            p = f"s{sid}_{wager}"
            if data.get(p + "_result"):
                continue
            data[p + "_result"] = owed.result
            data[p + "_amount"] = "" if owed.result == LEAVE else amount_json_text(
                owed.amount if owed.result == PAY else owed.size)
            filled += 1
        return filled

    # --- layout for the template ------------------------------------------------------------------

    def boxes(self) -> list[BoxView]:
        result = self.result
        owed = result.owed if result else {}
        views = []
        for n in self.box_numbers:
            stakes = []
            for letter in STAKE_LETTERS:
                sid, p = f"{n}{letter}", f"s{n}{letter}_"
                fields = {k: self[p + k] for k in ("player", "ante", "dealer_bet", "bet", "fold")}
                absent = {"dealer_bet": "" if fields["dealer_bet"].value() else "data-needs-db",
                          "bet": "data-folded" if fields["fold"].value() else ""}
                wagers = [self._wager_row(wager, OCHKO_WAGER_LABELS[wager], p, owed.get((sid, wager)),
                                          absent=absent.get(wager, ""), leave_amount=False)
                          for wager in OCHKO_SETTLE_ORDER]
                used = any(self[p + k].value() not in (None, "", False) for k in ("player", "ante", "dealer_bet", "bet",
                                                                                   "fold"))
                stakes.append(StakeView(sid, letter, fields, wagers, used))
            verdict = next((w.owed.why for s in stakes for w in s.wagers
                            if w.owed is not None and w.wager == "bet"), "")
            views.append(BoxView(n, self[f"b{n}_cards"], self[f"b{n}_dark"], stakes, verdict))
        return views

    @property
    def dealer_cards(self):
        return self["dealer_cards"]


# --- blackjack ------------------------------------------------------------------------------------

BLACKJACK_PACK = engine.variant("blackjack").PACK
BJ_WAGER_LABELS = {"bet": gettext_lazy("Bet"), "double": gettext_lazy("Double"),
                   "insurance": gettext_lazy("Insurance"), "jackpot": gettext_lazy("Jackpot")}
# Hands one box may be split into on the form (the engine judges against the table's `max_hands`).
BJ_MOST_HANDS = 8
_HAND_NAME = re.compile(r"[1-9]\d?(?:\.[12]){0,6}\Z")


def hand_key(name: str) -> str:
    """A hand's name as it appears in field names and HTML ids: "2.1" → "2-1"."""
    return name.replace(".", "-")


def parse_splits(text, number: int) -> list[str]:
    """The hands of box `number` that were split, from the form's hidden list ("2 2.1"): only hands
    that exist (the box's hand, or a hand made by an earlier split), at most `BJ_MOST_HANDS` hands."""
    wanted = {t for t in _SPLIT.split(str(text or "").strip()) if _HAND_NAME.match(t)}
    splits: list[str] = []
    leaves = 1

    def visit(name: str) -> None:
        nonlocal leaves
        if name in wanted and leaves < BJ_MOST_HANDS:
            splits.append(name)
            leaves += 1
            visit(name + ".1")
            visit(name + ".2")

    visit(str(number))
    return splits


def hand_names(number: int, splits) -> list[str]:
    """Every hand of a box in the order it is played (depth first), split hands included."""
    out: list[str] = []

    def visit(name: str) -> None:
        out.append(name)
        if name in splits:
            visit(name + ".1")
            visit(name + ".2")

    visit(str(number))
    return out


@dataclass
class HandView:
    """One hand of a box on the form: its cards (those it holds from before a split drawn, not
    typed), its double, its split, its two halves side by side, its settlement rows."""

    name: str
    key: str
    cards: forms.BoundField
    double: forms.BoundField
    inherited: list[str]
    split: bool
    children: list["HandView"]
    rows: list[WagerRow]
    can_split: bool
    verdict: str = ""
    depth: int = 0

    @property
    def is_root(self) -> bool:
        return "." not in self.name

    @property
    def leaves(self) -> int:
        return sum(c.leaves for c in self.children) if self.split else 1

    @property
    def typed_count(self) -> int:
        return len(_tokens(self.cards.value()))


def _tokens(value) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v]
    return [t for t in _SPLIT.split(str(value or "").strip()) if t]


@dataclass
class BlackjackBoxView:
    number: int
    fields: dict
    hand: HandView
    stake_rows: list[WagerRow]
    used: bool

    def __getitem__(self, key):
        return self.fields[key]

    @property
    def in_play(self) -> bool:
        return self.used

    @property
    def leaves(self) -> int:
        return self.hand.leaves

    @property
    def hands(self) -> list[HandView]:
        """Every hand, depth first."""
        out = []

        def visit(h: HandView) -> None:
            out.append(h)
            for c in h.children:
                visit(c)

        visit(self.hand)
        return out

    @property
    def leaf_hands(self) -> list[HandView]:
        return [h for h in self.hands if not h.split]


class BlackjackRoundForm(RoundForm):
    """Blackjack (presets salon and online): one player per box with his bet (and the jackpot bet
    where the table offers it), insurance or even money against an ace, the box's hand and the hands
    it splits into, doubles; the dealer's up card, hole card and draws.

    Which hands were split is a hidden list per box (`b<n>_splits`); a split is a button
    (`action=split:<hand>`) the view applies with `layout_action` before drawing the form again.
    """

    variant = "blackjack"
    template_name = "dealing/round_form_blackjack.html"
    default_renderer = QUICK_WIDGETS
    pack_words = gettext_lazy("the 52-card pack")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = engine.house_rules("blackjack", self.table.rules)
        self.max_hands = self.rules["max_hands"]
        self.offers_jackpot = bool(self.rules["jackpot"])
        self.box_numbers = list(range(1, min(self.table.boxes, engine.variant("blackjack").MAX_TABLE_BOXES) + 1))
        source = self.data if self.is_bound else self.initial
        self.splits = {n: parse_splits(source.get(f"b{n}_splits"), n) for n in self.box_numbers}
        self.stake_boxes: dict[str, int] = {}
        f = self.fields
        for n in self.box_numbers:
            p = f"s{n}_"
            f[p + "id"] = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
            f[f"b{n}_splits"] = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
            f[p + "player"] = forms.CharField(required=False, max_length=80, label=_("Player"),
                                              validators=[PlayerNameValidator()],
                                              widget=forms.TextInput(attrs={"autocomplete": "off", "class": "player"}))
            f[p + "bet"] = AmountField(label=_("Bet"))
            if self.offers_jackpot:
                f[p + "jackpot"] = AmountField(label=_("Jackpot"))
                f[p + "jackpot"].widget.attrs["placeholder"] = amount_json_text(self.rules["jackpot_bet"])
            f[p + "insurance"] = AmountField(label=_("Insurance"))
            f[p + "even_money"] = forms.BooleanField(required=False, label=_("even money"))
            for name in hand_names(n, self.splits[n]):
                k = f"h{hand_key(name)}_"
                f[k + "cards"] = CardsField(pack=BLACKJACK_PACK, pack_words=self.pack_words,
                                            label=_("Hand %(hand)s cards") % {"hand": name})
                # Examples of what goes here (card codes read the same in every language).
                f[k + "cards"].widget.attrs["placeholder"] = (
                    "8S 8H …" if name == str(n) else "8D" if name in self.splits[n] else "3C …")
                f[k + "double"] = forms.BooleanField(required=False, label=_("double"))
                if name not in self.splits[n]:
                    for wager in ("bet", "double"):
                        f[f"{k}{wager}_result"] = ResultField(label=BJ_WAGER_LABELS[wager])
                        f[f"{k}{wager}_amount"] = AmountField(label=_("amount"))
            for wager in ("insurance", "jackpot"):
                if wager == "jackpot" and not self.offers_jackpot:
                    continue
                f[f"{p}{wager}_result"] = ResultField(label=BJ_WAGER_LABELS[wager])
                f[f"{p}{wager}_amount"] = AmountField(label=_("amount"))
        f["dealer_up"] = CardsField(pack=BLACKJACK_PACK, pack_words=self.pack_words, most=1, label=_("Up card"))
        f["dealer_hole"] = CardsField(pack=BLACKJACK_PACK, pack_words=self.pack_words, most=1, label=_("Hole card"))
        f["dealer_draws"] = CardsField(pack=BLACKJACK_PACK, pack_words=self.pack_words, label=_("Draws"))
        f["dealer_draws"].widget.attrs["placeholder"] = _("each card you drew, in order")
        if "dealer" in f:
            f["dealer"] = f.pop("dealer")

    # --- splitting a hand ------------------------------------------------------------------------

    @classmethod
    def layout_action(cls, data, action: str) -> str | None:
        """`split:<hand>` adds the hand to its box's splits; `unsplit:<hand>` takes it (and the
        splits below it) back. Returns the field to focus: the first half's cards, or the hand's."""
        verb, _sep, name = action.partition(":")
        if verb not in ("split", "unsplit") or not _HAND_NAME.match(name):
            return None
        number = int(name.split(".")[0])
        key = f"b{number}_splits"
        splits = parse_splits(data.get(key), number)
        if verb == "split":
            if name not in hand_names(number, splits) or name in splits:
                return None
            splits.append(name)
            focus = f"h{hand_key(name + '.1')}_cards"
        else:
            splits = [s for s in splits if s != name and not s.startswith(name + ".")]
            focus = f"h{hand_key(name)}_cards"
        data[key] = " ".join(parse_splits(" ".join(splits), number))
        return focus

    # --- reading a stored round back ------------------------------------------------------------

    @classmethod
    def initial_from_document(cls, doc: dict) -> dict:
        entry = blackjack_entry_from_document(doc)
        data = {"round_id": doc.get("id"), "dealer": doc.get("dealer"), "dealer_up": entry.dealer_up or "",
                "dealer_hole": entry.dealer_hole or "", "dealer_draws": " ".join(entry.dealer_draws)}
        for box in entry.boxes:
            n, s = box.number, box.stake
            p = f"s{n}_"
            data.update({p + "id": s.id, p + "player": s.player, p + "bet": _text(s.bet),
                         p + "jackpot": _text(s.jackpot), p + "insurance": _text(s.insurance)})
            if s.even_money:
                data[p + "even_money"] = "on"
            for wager, entered in s.results.items():
                data[f"{p}{wager}_result"] = entered.result
                data[f"{p}{wager}_amount"] = _text(entered.amount)
            data[f"b{n}_splits"] = " ".join(h.name for h in box.walk() if h.split)
            for hand in box.walk():
                k = f"h{hand_key(hand.name)}_"
                data[k + "cards"] = " ".join(hand.cards)
                if hand.double_at is not None:
                    data[k + "double"] = "on"
                for wager, entered in hand.results.items():
                    data[f"{k}{wager}_result"] = entered.result
                    data[f"{k}{wager}_amount"] = _text(entered.amount)
        return {k: v for k, v in data.items() if v not in (None, "")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        entry = blackjack_entry_from_document(doc)
        for box in entry.boxes:  # the form marks a double on the hand's last card
            for hand in box.hands.values():
                if hand.double_at is not None:
                    hand.double_at = len(hand.cards) - 1
                hand.double_amount = None
        return build_blackjack(entry, header=_header_of(doc)).document

    # --- where a field is -------------------------------------------------------------------------

    def field_place(self, name: str) -> str:
        m = re.fullmatch(r"h([\d-]+)_(cards|double|bet_result|bet_amount|double_result|double_amount)", name)
        if m:
            hand = m.group(1).replace("-", ".")
            part = m.group(2)
            what = {"cards": _("cards"), "double": _("double"),
                    "bet_result": _("Bet paid, taken or left"), "bet_amount": _("Bet amount"),
                    "double_result": _("Double paid, taken or left"), "double_amount": _("Double amount")}[part]
            return _("Box %(n)s, hand %(hand)s: %(what)s") % {"n": hand.split(".")[0], "hand": hand, "what": what}
        m = re.fullmatch(r"s(\d)_(\w+?)(_result|_amount)?", name)
        if m:
            key, part = m.group(2), m.group(3)
            label = BJ_WAGER_LABELS.get(key) or self.fields[name].label
            if part == "_result":
                label = _("%(wager)s paid, taken or left") % {"wager": BJ_WAGER_LABELS[key]}
            elif part == "_amount":
                label = _("%(wager)s amount") % {"wager": BJ_WAGER_LABELS[key]}
            return _("Box %(n)s: %(what)s") % {"n": m.group(1), "what": label}
        if name in ("dealer_up", "dealer_hole", "dealer_draws"):
            return _("Your cards: %(what)s") % {"what": self.fields[name].label}
        return super().field_place(name)

    # --- validation ----------------------------------------------------------------------------

    def _hands(self, n: int) -> list[str]:
        return hand_names(n, self.splits[n])

    def _box_used(self, n: int) -> bool:
        data, p = self.cleaned_data, f"s{n}_"
        keys = [p + k for k in ("player", "bet", "jackpot", "insurance", "even_money", "insurance_result",
                                "insurance_amount", "jackpot_result", "jackpot_amount")]
        for name in self._hands(n)[1:]:
            keys.append(f"h{hand_key(name)}_cards")
        for name in self._hands(n):
            k = f"h{hand_key(name)}_"
            keys += [k + "double", k + "bet_result", k + "bet_amount", k + "double_result", k + "double_amount"]
        if any(data.get(k) not in (None, "", False, []) for k in keys):
            return True
        return any(k.startswith((p, f"h{n}-")) or k in (f"h{n}_bet_result", f"h{n}_bet_amount")
                   for k in self.errors)

    def clean(self):
        data = super().clean()
        any_box = False
        for n in self.box_numbers:
            root_cards = f"h{n}_cards"
            if self._box_used(n):
                any_box = True
                self._clean_box(n)
            elif data.get(root_cards):
                self.add_error(root_cards, _("Nobody plays box %(n)d: enter a player and a bet first.") % {"n": n})
        if not any_box and not any(k.startswith(("s", "h")) for k in self.errors):
            raise forms.ValidationError(_("Enter at least one box: a player and a bet."), code="no_stakes")
        if any_box:
            for key, message in (("dealer_up", _("Enter your up card.")),
                                 ("dealer_hole", _("Enter your hole card (face down until you turn it)."))):
                if key not in self.errors and not data.get(key):
                    self.add_error(key, message)
        return data

    def _clean_box(self, n: int) -> None:
        data, p = self.cleaned_data, f"s{n}_"
        if not (data.get(p + "player") or "").strip() and p + "player" not in self.errors:
            self.add_error(p + "player", _("Who plays this box?"))
        if data.get(p + "bet") is None and p + "bet" not in self.errors:
            self.add_error(p + "bet", _("Enter the bet."))
        if data.get(p + "even_money") and data.get(p + "insurance") is not None and p + "insurance" not in self.errors:
            self.add_error(p + "insurance", _("A box takes even money or insurance, not both."))
        splits = self.splits[n]
        for name in self._hands(n):
            k = f"h{hand_key(name)}_"
            if k + "cards" in self.errors:
                continue
            cards = data.get(k + "cards") or []
            root = name == str(n)
            if name in splits:
                wanted = 2 if root else 1
                if len(cards) != wanted:
                    self.add_error(k + "cards", (
                        _("Hand %(hand)s was split: its pair only here; the cards after the split go on %(hand)s.1 "
                          "and %(hand)s.2.") if root else
                        _("Hand %(hand)s was split again: only its second card here; the cards after the split go "
                          "on %(hand)s.1 and %(hand)s.2.")) % {"hand": name})
                if root and data.get(p + "even_money"):
                    self.add_error(p + "even_money", _("Even money is paid at once: the box plays no further."))
            elif root and len(cards) < 2:
                self.add_error(k + "cards", _("Enter the box's two cards, then each card it drew."))
            elif not root and not cards:
                self.add_error(k + "cards", _("Enter hand %(hand)s's second card, then each card it drew.")
                               % {"hand": name})
            elif data.get(k + "double") and len(cards) < (3 if root else 2):
                self.add_error(k + "cards", _("A double gets one more card: enter it last."))
            if name not in splits:
                self._clean_result(k, "bet", None)
                self._clean_result(k, "double", None if data.get(k + "double")
                                   else _("This hand did not double: nothing to settle."))
        self._clean_result(p, "insurance", None if data.get(p + "insurance") is not None or p + "insurance" in
                           self.errors else _("This box took no insurance."))
        if self.offers_jackpot:
            self._clean_result(p, "jackpot", None if data.get(p + "jackpot") is not None or p + "jackpot" in
                               self.errors else _("This box placed no jackpot bet."))

    # --- the document -------------------------------------------------------------------------------

    def entry(self) -> BlackjackEntry:
        data = self.cleaned_data
        boxes = []
        self.stake_boxes = {}
        for n in self.box_numbers:
            if not self._box_used(n):
                continue
            p = f"s{n}_"
            results = {}
            for wager in ("insurance", "jackpot"):
                if data.get(f"{p}{wager}_result"):
                    results[wager] = Result(data[f"{p}{wager}_result"], data.get(f"{p}{wager}_amount"))
            sid = (data.get(p + "id") or "").strip() or str(n)
            self.stake_boxes[sid] = n
            stake = BjStakeEntry(sid, n, data[p + "player"].strip(), data[p + "bet"], jackpot=data.get(p + "jackpot"),
                                 insurance=data.get(p + "insurance"), even_money=bool(data.get(p + "even_money")),
                                 results=results)
            hands = {}
            for name in self._hands(n):
                k = f"h{hand_key(name)}_"
                cards = list(data.get(k + "cards") or [])
                hand = HandEntry(name, cards, split=name in self.splits[n])
                if data.get(k + "double") and cards and not hand.split:
                    hand.double_at = len(cards) - 1
                for wager in ("bet", "double"):
                    if data.get(f"{k}{wager}_result"):
                        hand.results[wager] = Result(data[f"{k}{wager}_result"], data.get(f"{k}{wager}_amount"))
                hands[name] = hand
            boxes.append(BjBoxEntry(n, stake, hands))
        draws = list(data.get("dealer_draws") or [])
        up, hole = data.get("dealer_up") or [], data.get("dealer_hole") or []
        return BlackjackEntry(boxes, up[0] if up else None, hole[0] if hole else None, draws)

    def build(self) -> Built:
        return build_blackjack(self.entry(), header=self.header())

    def _box_of_stake(self, sid) -> int | None:
        return self.stake_boxes.get(sid)

    def field_of(self, source: Source | None) -> str | None:
        if source is None:
            return None
        part = source.part
        if part in ("card", "double", "split", "stand") and source.hand:
            return f"h{hand_key(source.hand)}_cards"
        if part == "result":
            if source.wager in ("bet", "double") and source.hand:
                name = f"h{hand_key(source.hand)}_{source.wager}_result"
                return name if name in self.fields else f"h{hand_key(source.hand)}_cards"
            return f"s{source.box}_{source.wager}_result"
        if part == "insurance":
            return f"s{source.box}_insurance"
        if part == "even_money":
            return f"s{source.box}_even_money"
        if part == "peek":
            return "dealer_hole"
        if part == "dealer_card":
            return ("dealer_up", "dealer_hole")[source.index] if source.index in (0, 1) else "dealer_draws"
        return None

    def field_of_finding(self, finding) -> str | None:
        n = self._box_of_stake(finding.stake)
        code, wager = finding.code, finding.wager
        if code == "DEALER_DRAW_RULE":
            return "dealer_draws"
        if n is None:
            return None
        if code in SETTLEMENT_CODES and wager in ("bet", "double") and finding.hand:
            name = f"h{hand_key(finding.hand)}_{wager}_result"
            return name if name in self.fields else None
        if code in SETTLEMENT_CODES and wager in ("insurance", "jackpot"):
            name = f"s{n}_{wager}_result"
            return name if name in self.fields else None
        if code == "BET_LIMITS":
            return f"s{n}_jackpot" if wager == "jackpot" and self.offers_jackpot else f"s{n}_bet"
        if code == "INSURANCE_AMOUNT":
            return f"s{n}_insurance"
        if code == "BOX_PLAYERS":
            return f"s{n}_player"
        return None

    def field_of_path(self, path: str | None, built: Built) -> str | None:
        found = self._stake_of_path(path, built)
        if found is None:
            return None
        stake, key = found
        name = f"s{stake['box']}_{key}"
        return name if name in self.fields else f"s{stake['box']}_player"

    def fill_owed(self, data) -> int:
        filled = 0
        if self.result is None or not self.result.ok:
            return 0
        for (sid, hand, wager), owed in self.result.owed_by_hand.items():
            n = self._box_of_stake(sid)
            if n is None:
                continue
            p = f"h{hand_key(hand)}_{wager}" if wager in ("bet", "double") else f"s{n}_{wager}"
            if p + "_result" not in self.fields or data.get(p + "_result"):
                continue
            data[p + "_result"] = owed.result
            data[p + "_amount"] = amount_json_text(owed.amount if owed.result == PAY else owed.size)
            filled += 1
        return filled

    # --- layout for the template ----------------------------------------------------------------

    def boxes(self) -> list[BlackjackBoxView]:
        result = self.result
        owed = result.owed_by_hand if result and result.ok else {}
        sids = {n: sid for sid, n in self.stake_boxes.items()}
        views = []
        for n in self.box_numbers:
            p = f"s{n}_"
            sid = sids.get(n) or (self[p + "id"].value() or str(n))
            keys = ["id", "player", "bet", "insurance", "even_money"] + (["jackpot"] if self.offers_jackpot else [])
            fields = {k: self[p + k] for k in keys}
            fields["splits"] = self[f"b{n}_splits"]
            stake_rows = [self._wager_row(wager, BJ_WAGER_LABELS[wager], p, owed.get((sid, str(n), wager)),
                                          absent="" if fields[wager].value() else f"data-needs-{wager}")
                          for wager in ("insurance", "jackpot") if f"{p}{wager}_result" in self.fields]
            used = any(self[p + k].value() not in (None, "", False) for k in ("player", "bet"))
            views.append(BlackjackBoxView(n, fields, self._hand_view(n, str(n), sid, owed, [], 0), stake_rows, used))
        return views

    def _hand_view(self, n: int, name: str, sid: str, owed: dict, inherited: list[str], depth: int) -> HandView:
        k = f"h{hand_key(name)}_"
        splits = self.splits[n]
        typed = _tokens(self[k + "cards"].value())
        rows, verdict = [], ""
        split = name in splits
        if not split:
            doubled = self[k + "double"].value()
            rows = [self._wager_row(wager, BJ_WAGER_LABELS[wager], k, owed.get((sid, name, wager)),
                                    absent="data-needs-double" if wager == "double" and not doubled else "")
                    for wager in ("bet", "double")]
            bet_owed = owed.get((sid, name, "bet"))
            verdict = bet_owed.why if bet_owed is not None else ""
        whole = inherited + typed
        children = []
        if split:
            pair = whole[:2]
            for side in (1, 2):
                first = pair[side - 1:side]
                children.append(self._hand_view(n, f"{name}.{side}", sid, owed, first, depth + 1))
        can_split = (not split and len(whole) == 2 and _same_value(whole[0], whole[1])
                     and len(splits) + 1 < self.max_hands)
        return HandView(name, hand_key(name), self[k + "cards"], self[k + "double"], inherited, split, children,
                        rows, can_split, verdict, depth)

    @property
    def dealer_fields(self):
        return [self["dealer_up"], self["dealer_hole"], self["dealer_draws"]]

    @property
    def ace_up(self) -> bool:
        """The dealer's up card is an ace: insurance and even money are offered."""
        cards = _tokens(self["dealer_up"].value())
        code = engine_cards.normalize(cards[0]) or engine_cards.normalize(cards[0].upper()) if cards else None
        return bool(code) and code[0] == "A"


def _same_value(a: str, b: str) -> bool:
    """Two cards of equal value (K♥ 10♣ is a pair): what the split button offers; the engine judges."""
    codes = [engine_cards.normalize(c) or engine_cards.normalize(str(c).upper()) for c in (a, b)]
    if None in codes:
        return False
    value = [10 if c[0] in "TJQK" else c[0] for c in codes]
    return value[0] == value[1]


ROUND_FORMS: dict[str, type[RoundForm]] = {"ochko": OchkoRoundForm, "blackjack": BlackjackRoundForm}


# --- incidents and the shoe ----------------------------------------------------------------------

class CardField(forms.CharField):
    """One card in any spelling (TS, 10h, ah) → its code; whether the table's pack holds it is the service's call."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={
            "autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false", "class": "card-input",
            "placeholder": "TS", "size": 4}))
        super().__init__(**kwargs)

    def clean(self, value):
        text = (super().clean(value) or "").strip()
        if not text:
            return ""
        code = engine_cards.normalize(text) or engine_cards.normalize(text.upper())
        if code is None:
            raise forms.ValidationError(_("%(card)s is not a card. Write a rank and a suit, e.g. TS, AH, 10D.")
                                        % {"card": text}, code="card")
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
        self.choices = [("", "—")] + [(name, _dealer_label(u)) for name, u in self._users.items()]

    def clean(self, value):
        name = super().clean(value)
        return self._users.get(name) if name else None


class IncidentForm(forms.Form):
    """An inspector's (or pit boss's) report of an exposed dealer card or a card drawn by mistake."""

    table = forms.ModelChoiceField(queryset=None, to_field_name="name", label=gettext_lazy("Table"), empty_label="—")
    kind = forms.ChoiceField(choices=IncidentKind.choices, label=gettext_lazy("What happened"),
                             widget=forms.RadioSelect)
    card = CardField(label=gettext_lazy("Card"))
    exposed = forms.BooleanField(required=False, label=gettext_lazy("The card was seen (exposed)"))
    resolution = forms.ChoiceField(choices=Resolution.choices, label=gettext_lazy("Resolution"),
                                   widget=forms.RadioSelect)
    to_box = forms.IntegerField(required=False, min_value=1, max_value=6, label=gettext_lazy("On box"),
                                widget=forms.NumberInput(attrs={"size": 3}))
    dealer = UserChoiceField(label=gettext_lazy("Dealer"))
    round = forms.IntegerField(required=False, min_value=1, label=gettext_lazy("Round (optional)"),
                               help_text=gettext_lazy("The round's number, as its page shows it (Round 57)."),
                               widget=forms.NumberInput(attrs={"size": 8}))
    evidence = forms.CharField(required=False, max_length=120, label=gettext_lazy("Evidence"),
                               help_text=gettext_lazy("A surveillance clip id or another reference."))
    note = forms.CharField(required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}),
                           label=gettext_lazy("Note"))

    def __init__(self, *args, tables, dealers, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["table"].queryset = tables
        self.fields["dealer"].users = dealers

    def clean(self):
        from dealing.selectors import rounds_visible

        data = super().clean()
        if data.get("resolution") == Resolution.TO_BOX:
            if not data.get("to_box") and "to_box" not in self.errors:
                self.add_error("to_box", _("On which box did the pit boss place the card?"))
        else:
            data["to_box"] = None
        table, card = data.get("table"), data.get("card")
        if table is not None and card and card not in engine.variant(table.variant).PACK:
            self.add_error("card", _("%(card)s is not in the %(game)s pack.")
                           % {"card": engine_cards.label(card), "game": table.get_variant_display()})
        number = data.get("round")
        data["round"] = None
        if number:
            record = rounds_visible(self.user).filter(pk=number).select_related("table").first()
            if record is None:
                self.add_error("round", _("There is no round %(n)d that you may see.") % {"n": number})
            elif data.get("table") and record.table_id != data["table"].pk:
                self.add_error("round", _("Round %(n)d was dealt at %(table)s.") % {"n": number,
                                                                                    "table": record.table.name})
            else:
                data["round"] = record
        return data


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=Decision.choices)
    comment = forms.CharField(required=False, max_length=2000, label=gettext_lazy("Comment"),
                              widget=forms.Textarea(attrs={"rows": 2}))


class ShoeStartForm(forms.Form):
    decks = forms.IntegerField(min_value=1, max_value=16, label=gettext_lazy("Packs"),
                               widget=forms.NumberInput(attrs={"size": 3}))


class BurnForm(forms.Form):
    """A burn between rounds; a paid burn's fee is prefilled with half the table minimum."""

    reason = forms.ChoiceField(choices=BurnReason.choices, label=gettext_lazy("Reason"))
    card = CardField(label=gettext_lazy("Card"))
    fee = AmountField(label=gettext_lazy("Fee (paid burn)"))

    def __init__(self, *args, table, **kwargs):
        kwargs.setdefault("initial", {})
        kwargs["initial"].setdefault("fee", amount_json_text(table.min_bet / 2))
        super().__init__(*args, **kwargs)
        self.table = table

    def clean(self):
        data = super().clean()
        if data.get("reason") != BurnReason.PAID:
            data["fee"] = None
        elif data.get("fee") is None and "fee" not in self.errors:
            self.add_error("fee", _("A paid burn costs the player half the table minimum (%(fee)s).")
                           % {"fee": amount_json_text(self.table.min_bet / 2)})
        return data


class DealerChangeForm(forms.Form):
    dealer = UserChoiceField(label=gettext_lazy("New dealer"))

    def __init__(self, *args, dealers, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].users = dealers
