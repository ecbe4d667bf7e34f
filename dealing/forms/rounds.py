"""The round form every game's form is made of: the round's id, the dealer, the engine's check
laid over the fields, the rows of a wager's result.

A game's round form (`dealing/games/<variant>/forms.py`) is a plain Django form whose fields are
laid out as the table is. It turns what was entered into a `round/1` document with its builder
(`dealing/games/<variant>/builder.py`), asks the engine for its findings (`RoundForm.check`) and
maps each finding and each error back to the field that caused it. It never stores anything: the
view saves through `dealing.services.round_log`.

A new game adds a subclass of `RoundForm` (its fields, `build()`, `field_of()`, …), its template
`dealing/round_form_<variant>.html`, and names the form in its `dealing.games` entry
(docs/games.md); pages find it with `dealing.games.form_for(variant)`.
"""

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.roles import DEALER, has_role
from casino.validators import TextValidator
from dealing import chain, engine, games
from dealing.engine.base import PAY, TAKE
from dealing.games.building import Built, Source, amount_json

from .fields import amount_json_text, dealer_label

User = get_user_model()

# --- what the engine said, laid over the form ----------------------------------------------------

SETTLEMENT_CODES = {
    "WRONG_AMOUNT",
    "WRONG_RESULT",
    "MISSING_SETTLEMENT",
    "UNEXPECTED_SETTLEMENT",
    "LATE_SETTLEMENT",
    "PAYMENT_ORDER",
}


@dataclass
class FindingView:
    code: str
    severity: str
    message: str
    field: str | None  # the form field it belongs to, or None for the round as a whole
    expected: dict | None = None
    actual: dict | None = None
    params: dict | None = None  # the sentence's values: the page says it in the reader's language from them


@dataclass
class Check:
    """The engine's answer for the round as entered: the document, what was owed, the findings."""

    built: Built | None = None
    outcome: object = None  # engine Outcome
    error: str | None = None  # the engine could not read the document (mapped to a field when it can be)
    error_field: str | None = None
    findings: list[FindingView] = field(default_factory=list)
    token: str = ""
    # The dealer saves the round he checked: its signed token vouches that the check found every
    # wager settled, so the save is not replayed a second time (the service replays it to store it).
    vouched: bool = False

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
    def impossible(self) -> list[FindingView]:
        """The findings that make the round impossible (the engine's IMPOSSIBLE codes): such a round
        cannot have happened as entered, and is never saved — the entry is wrong, not the dealer."""
        return [f for f in self.findings if f.code in engine.IMPOSSIBLE]

    @property
    def may_save(self) -> bool:
        """Saved only once every wager has its result: the log says what the dealer did with each;
        never when the round cannot have happened."""
        if self.vouched:
            return self.ok
        return (
            self.ok
            and self.outcome is not None
            and self.outcome.wagers is not None
            and not self.unsettled
            and not self.impossible
        )

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


_TOKEN_SALT = "dealing.forms.rounds.checked"


def document_token(document: dict, *, may_save: bool) -> str:
    """The fingerprint of a checked document, signed with the site's secret: the round saved must be
    the round the dealer checked. The signature also carries whether that check found it ready to
    save, so that the save itself need not replay the round again to know."""
    digest = hashlib.sha256(chain.canonical_json(chain.json_safe(document)).encode("utf-8")).hexdigest()
    return salted_hmac(_TOKEN_SALT, f"{digest}:{'save' if may_save else 'check'}", algorithm="sha256").hexdigest()


# --- the round form ----------------------------------------------------------------------------


def pit_dealers(table):
    """Active users holding the dealer role who work in the table's pit, by username."""
    users = User.objects.filter(is_active=True, staff__pits=table.pit_id).order_by("username").distinct()
    return [u for u in users if has_role(u, DEALER)]


# A round saved this long after it was dealt is a late entry, which says why.
LATE_AFTER = dt.timedelta(minutes=15)


class RoundForm(forms.Form):
    """What every game's round form shares: the round's id, the dealer, the engine's check."""

    variant = ""
    template_name = ""
    # What the page around the form says of the game (round_new.html): the word for the table's
    # limits, the order Tab goes in, the game's own keys, how cards are typed, its script if any.
    tab_help = gettext_lazy("next field: box 1 → 6, then your cards")
    key_help: tuple = ()
    cards_help = gettext_lazy(
        "Cards: rank and suit — TS, AH, 10D, 7c — separated by spaces. The first card of a box "
        "is the one dealt; then each card it drew."
    )
    script = ""  # a static file, e.g. "dealing/round_form_blackjack.js"
    # What the shared script (round_form.js) does for the game: draw each lettered stake's chips and
    # a box in play; empty a "leave"'s amount (a game that logs a leave without one).
    lettered_stakes = False
    leave_moves_nothing = False

    @property
    def limits_word(self):
        """The wager the table's limits are written in, as the game says it (games.word)."""
        return games.word(self.variant, "limits")

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
                label=_("Why is the round corrected?"),
                max_length=2000,
                required=False,
                validators=[TextValidator(lines=True)],
                widget=forms.Textarea(attrs={"rows": 2, "class": "reason-input"}),
            )
            self.extra_header = {k: v for k, v in amends.document.items() if k not in _HEADER_KEYS}
        if amends is None:
            # A round entered late keeps when it was dealt (round/1 `played_at`); a correction keeps
            # the time of the round it corrects (in its header).
            self.fields["played_at"] = forms.DateTimeField(
                label=_("Dealt at"),
                required=False,
                widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S"),
                help_text=_("Only for a round entered late: when it was dealt, on the floor's clock."),
            )
            self.fields["late_reason"] = forms.CharField(
                label=_("Why is it entered late?"),
                max_length=2000,
                required=False,
                widget=forms.Textarea(attrs={"rows": 2, "class": "reason-input"}),
            )
        self.dealer_fixed = not user.is_superuser and not _logs_for_others(user)
        if not self.dealer_fixed:
            choices = [(u.get_username(), dealer_label(u)) for u in pit_dealers(table)]
            self.fields["dealer"] = forms.ChoiceField(
                label=_("Dealer"), choices=[("", "—")] + choices, widget=forms.Select(attrs={"class": "dealer-select"})
            )

    def reason_missing(self) -> bool:
        """A correction is saved only with its reason; the error goes on the reason's field."""
        if self.amends is None or (self.cleaned_data.get("reason") or "").strip():
            return False
        self.add_error("reason", _("Say why the round is corrected: the pit boss reads it."))
        return True

    def late_reason_missing(self) -> bool:
        """A round dealt more than LATE_AFTER before it is saved is saved only with the reason it
        was entered late; the error goes on the reason's field."""
        played_at = self.cleaned_data.get("played_at")
        if played_at is None or timezone.now() - played_at <= LATE_AFTER:
            return False
        if (self.cleaned_data.get("late_reason") or "").strip():
            return False
        self.add_error("late_reason", _("Say why the round is entered late: the pit boss reads it."))
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
        return WagerRow(
            wager,
            label,
            self[r_name],
            self[f"{prefix}{wager}_amount"],
            owed,
            self.result.findings_for(r_name) if self.result else [],
            absent,
            **extra,
        )

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
        return [
            (name, self.field_place(name), str(self.errors[name][0])) for name in self.fields if name in self.errors
        ]

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
            **self._late_header(),
            **self.extra_header,
        }

    def _late_header(self) -> dict:
        played_at = self.cleaned_data.get("played_at")
        if played_at is None:
            return {}
        head = {"played_at": timezone.localtime(played_at).isoformat()}
        reason = (self.cleaned_data.get("late_reason") or "").strip()
        if reason:
            head["late_reason"] = reason  # in the record, so the chain keeps why it came late
        return head

    def check(self, *, checked: str | None = None) -> Check:
        """Build the document from the cleaned form and replay it: findings and errors on their fields.

        `checked`: the token of an earlier check the dealer is saving. When it vouches for the very
        document built now, found ready to save, the round is not replayed again."""
        built = self.build()
        if checked and constant_time_compare(checked, document_token(built.document, may_save=True)):
            self.result = Check(built=built, token=checked, vouched=True)
            return self.result
        result = Check(built=built)
        try:
            # The builder may have replayed this very document already (asking the engine how it went).
            outcome = built.outcome if built.outcome is not None else engine.replay(built.document)
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
                result.findings.append(FindingView(f.code, f.severity, f.message, name, f.expected, f.actual, f.params))
        result.token = document_token(built.document, may_save=result.may_save)
        self.result = result
        return result


# What `RoundForm.header` writes itself; anything else a stored log carries is kept by a correction.
_HEADER_KEYS = frozenset({"format", "id", "variant", "table", "rules", "dealer", "stakes", "events"})


def header_of(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("stakes", "events")}


def text_of(amount) -> str:
    return "" if amount is None else amount_json_text(amount)


def _logs_for_others(user) -> bool:
    """A pit boss logs rounds for the dealers of his pits; a dealer only his own."""
    from casino.roles import PIT_BOSS

    return has_role(user, PIT_BOSS)


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
