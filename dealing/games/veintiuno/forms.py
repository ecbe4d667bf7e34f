"""Veintiuno's round form (21 ecuatoriano, rules/veintiuno.md): the seats round the bank — who
plays, the bet, the two dealt cards, a natural declared, the play as a short line of words — and
the bank's place: who holds it, its limits, its two cards, al puje, its draws, who takes the bank
next. Drawn as the table (template `dealing/round_form_veintiuno.html`); the document is put in
the order of the rules by `builder.build_round`, which the home game's ledger uses too.
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.validators import PlayerNameValidator
from dealing.engine.base import LEAVE, PAY
from dealing.engine.veintiuno import PACK
from dealing.forms.fields import QUICK_WIDGETS, AmountField, CardsField, ResultField, amount_json_text
from dealing.forms.rounds import SETTLEMENT_CODES, RoundForm, WagerRow, header_of, text_of
from dealing.games.building import Built, Source, amount_json

from .builder import (
    Payment,
    PlayError,
    RoundSheet,
    SeatEntry,
    build_round,
    parse_play,
    play_text,
    seat_hands,
    sheet_from_document,
    stake_id,
)

# The seats a veintiuno table's form offers at most (casino.choices.MAX_BOXES).
MOST_SEATS = 8
BET_LABEL = gettext_lazy("Bet")
_SEAT_FIELD = re.compile(r"s(\d+)_(player|bet|cards|declare|play)\Z")
_HAND_FIELD = re.compile(r"h([\d-]+)_bet_(result|amount)\Z")


def hand_key(name: str) -> str:
    """A hand's name as it appears in field names and HTML ids: "2.1" → "2-1"."""
    return name.replace(".", "-")


@dataclass
class SeatView:
    number: int
    fields: dict
    rows: list[WagerRow]  # one per hand the play line makes
    used: bool
    verdicts: list[dict] = field(default_factory=list)  # hand_label, verdict (the |verdict filter says it), why

    def __getitem__(self, key):
        return self.fields[key]

    @property
    def in_play(self) -> bool:
        return self.used


class VeintiunoRoundForm(RoundForm):
    """One round against the bank: seats 1 … n (1 is pie de banco, at the bank's right), the bank."""

    variant = "veintiuno"
    template_name = "dealing/round_form_veintiuno.html"
    default_renderer = QUICK_WIDGETS
    pack_words = gettext_lazy("the 40-card pack (A, 2–7, J, Q, K)")
    tab_help = gettext_lazy("next field: seat by seat from pie de banco, then the bank")
    cards_help = gettext_lazy(
        "Cards: rank and suit — AS, 7H, K♠ — separated by spaces (no 8, 9 or 10). A seat's two "
        "cards are the ones dealt; its play line says what it drew and did."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seat_numbers = list(range(1, min(self.table.boxes, MOST_SEATS) + 1))
        f = self.fields
        text = {"autocomplete": "off", "spellcheck": "false"}
        for n in self.seat_numbers:
            p = f"s{n}_"
            f[p + "player"] = forms.CharField(
                required=False,
                max_length=80,
                label=_("Player"),
                validators=[PlayerNameValidator()],
                widget=forms.TextInput(attrs={**text, "class": "player"}),
            )
            f[p + "bet"] = AmountField(label=_("Bet"))
            f[p + "cards"] = CardsField(
                pack=PACK, pack_words=self.pack_words, label=_("Seat %(n)d: the two dealt cards") % {"n": n}
            )
            f[p + "cards"].widget.attrs["placeholder"] = "AS KD"
            f[p + "declare"] = forms.BooleanField(required=False, label=_("21 declared"))
            f[p + "play"] = forms.CharField(
                required=False,
                max_length=400,
                label=_("Play"),
                widget=forms.TextInput(attrs={**text, "class": "play-input", "placeholder": "5C 2D stand"}),
            )
        source = self.data if self.is_bound else self.initial
        self.hands = {n: self._hands_of(source, n) for n in self.seat_numbers}
        for n in self.seat_numbers:
            for hand in self.hands[n]:
                k = f"h{hand_key(hand)}_"
                f[k + "bet_result"] = ResultField(label=_("Hand %(hand)s") % {"hand": hand})
                f[k + "bet_amount"] = AmountField(label=_("amount"))
        f["bank"] = forms.CharField(
            max_length=80, label=_("Who holds the bank"), widget=forms.TextInput(attrs={**text, "class": "player"})
        )
        f["bank_min"] = AmountField(label=_("The bank's minimum bet"))
        f["bank_max"] = AmountField(label=_("The bank's maximum bet"))
        f["bank_min"].widget.attrs["placeholder"] = amount_json_text(self.table.min_bet)
        f["bank_max"].widget.attrs["placeholder"] = amount_json_text(self.table.max_bet)
        f["bank_cards"] = CardsField(pack=PACK, pack_words=self.pack_words, label=_("The bank's two cards"))
        f["puje"] = forms.BooleanField(required=False, label=_("al puje"))
        f["bank_draws"] = CardsField(pack=PACK, pack_words=self.pack_words, label=_("The bank's draws"))
        f["bank_draws"].widget.attrs["placeholder"] = _("each card the bank drew, in order")
        f["bank_to"] = forms.CharField(
            required=False,
            max_length=80,
            label=_("The bank goes to"),
            widget=forms.TextInput(attrs={**text, "class": "player"}),
        )
        if "dealer" in f:
            f["dealer"] = f.pop("dealer")

    @staticmethod
    def _hands_of(data, n: int) -> list[str]:
        """The hands seat `n`'s play line makes (an opening makes two): a result row each."""
        try:
            actions = parse_play(str(data.get(f"s{n}_play") or ""))
            return seat_hands(SeatEntry(n, "", Decimal(1), ("", ""), play=actions))
        except (PlayError, ValueError):
            return [str(n)]

    # --- reading a stored round back ------------------------------------------------------------

    @classmethod
    def initial_from_document(cls, doc: dict) -> dict:
        sheet = sheet_from_document(doc)
        data = {
            "round_id": doc.get("id"),
            "dealer": doc.get("dealer"),
            "bank": sheet.bank,
            "bank_min": text_of(sheet.limits[0]) if sheet.limits[0] else "",
            "bank_max": text_of(sheet.limits[1]) if sheet.limits[1] else "",
            "bank_cards": " ".join(c for c in sheet.bank_cards if c),
            "bank_draws": " ".join(sheet.bank_draws),
            "bank_to": sheet.bank_to or "",
        }
        if sheet.puje:
            data["puje"] = "on"
        for seat in sheet.seats:
            p = f"s{seat.seat}_"
            data.update(
                {
                    p + "player": seat.player,
                    p + "bet": text_of(seat.bet),
                    p + "cards": " ".join(c for c in seat.cards if c),
                    p + "play": play_text(seat.play),
                }
            )
            if seat.declare:
                data[p + "declare"] = "on"
        for payment in sheet.payments:
            k = f"h{hand_key(payment.hand)}_"
            data[k + "bet_result"] = payment.result
            data[k + "bet_amount"] = text_of(payment.amount)
        return {k: v for k, v in data.items() if v not in (None, "")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        try:
            rebuilt = build_round(sheet_from_document(doc))
        except PlayError as exc:
            raise ValueError(exc.message) from None
        header = header_of(doc)
        return {**header, **{k: v for k, v in rebuilt.items() if k not in header or k in ("stakes", "events")}}

    # --- where a field is -------------------------------------------------------------------------

    def field_place(self, name: str) -> str:
        m = _SEAT_FIELD.match(name)
        if m:
            return _("Seat %(n)s: %(what)s") % {"n": m.group(1), "what": self.fields[name].label}
        m = _HAND_FIELD.match(name)
        if m:
            what = _("Bet paid, taken or left") if m.group(2) == "result" else _("Bet amount")
            return _("Hand %(hand)s: %(what)s") % {"hand": m.group(1).replace("-", "."), "what": what}
        return super().field_place(name)

    # --- validation ----------------------------------------------------------------------------

    def _seat_used(self, n: int) -> bool:
        data, p = self.cleaned_data, f"s{n}_"
        keys = [p + k for k in ("player", "bet", "cards", "declare", "play")]
        keys += [f"h{hand_key(h)}_bet_{part}" for h in self.hands[n] for part in ("result", "amount")]
        if any(data.get(k) not in (None, "", False, []) for k in keys):
            return True
        return any(k.startswith(p) or _hand_of_field(k) in self.hands[n] for k in self.errors)

    def clean(self):
        data = super().clean()
        self.plays: dict[int, list] = {}
        any_seat = False
        for n in self.seat_numbers:
            if self._seat_used(n):
                any_seat = True
                self._clean_seat(n)
        if not any_seat and not any(k.startswith(("s", "h")) for k in self.errors):
            raise forms.ValidationError(
                _("Enter at least one seat: a player, the bet and the two cards."), code="no_stakes"
            )
        if any_seat and "bank_cards" not in self.errors and len(data.get("bank_cards") or []) != 2:
            self.add_error("bank_cards", _("Enter the bank's two cards: the one face down, then the one face up."))
        low, high = data.get("bank_min"), data.get("bank_max")
        if low is not None and high is not None and low > high and "bank_max" not in self.errors:
            self.add_error("bank_max", _("The bank's maximum is below its minimum."))
        return data

    def _clean_seat(self, n: int) -> None:
        data, p = self.cleaned_data, f"s{n}_"
        player = (data.get(p + "player") or "").strip()
        if not player and p + "player" not in self.errors:
            self.add_error(p + "player", _("Who sits here?"))
        elif player == (data.get("bank") or "").strip():
            self.add_error(
                p + "player", _("%(player)s holds the bank this round: the bank plays no seat.") % {"player": player}
            )
        if data.get(p + "bet") is None and p + "bet" not in self.errors:
            self.add_error(p + "bet", _("Enter the bet."))
        if p + "cards" not in self.errors and len(data.get(p + "cards") or []) != 2:
            self.add_error(p + "cards", _("Enter the two dealt cards: the one face down, then the one face up."))
        if p + "play" not in self.errors:
            try:
                actions = parse_play(data.get(p + "play") or "")
                seat_hands(SeatEntry(n, "", Decimal(1), ("", ""), play=actions))
            except PlayError as exc:
                self.add_error(p + "play", exc.message)
            else:
                self.plays[n] = actions
        for hand in self.hands[n]:
            self._clean_result(f"h{hand_key(hand)}_", "bet", None)

    # --- the document -------------------------------------------------------------------------------

    def sheet(self) -> RoundSheet:
        data = self.cleaned_data
        seats, payments = [], []
        for n in self.seat_numbers:
            if not self._seat_used(n):
                continue
            cards = data[f"s{n}_cards"]
            seats.append(
                SeatEntry(
                    n,
                    data[f"s{n}_player"].strip(),
                    data[f"s{n}_bet"],
                    (cards[0], cards[1]),
                    declare=bool(data.get(f"s{n}_declare")),
                    play=self.plays.get(n, []),
                )
            )
            for hand in self.hands[n]:
                k = f"h{hand_key(hand)}_"
                if data.get(k + "bet_result"):
                    payments.append(Payment(hand, data[k + "bet_result"], data.get(k + "bet_amount")))
        limits = (data.get("bank_min") or self.table.min_bet, data.get("bank_max") or self.table.max_bet)
        bank_cards = data.get("bank_cards") or []
        return RoundSheet(
            bank=data["bank"].strip(),
            limits=limits,
            seats=seats,
            bank_cards=(bank_cards[0], bank_cards[1]),
            puje=bool(data.get("puje")),
            bank_draws=list(data.get("bank_draws") or []),
            payments=payments,
            bank_to=(data.get("bank_to") or "").strip() or None,
            id=str(data["round_id"]),
        )

    def build(self) -> Built:
        sheet = self.sheet()
        doc = build_round(sheet)
        header = self.header()
        header["table"] = {**header["table"], "min": amount_json(sheet.limits[0]), "max": amount_json(sheet.limits[1])}
        header["bank"] = sheet.bank
        document = {**header, "stakes": doc["stakes"], "events": _plain_amounts(doc["events"])}
        return Built(document, [_source_of(ev) for ev in document["events"]])

    def _seat_of_stake(self, sid) -> int | None:
        for n in self.seat_numbers:
            if stake_id(n) == sid:
                return n
        return None

    def field_of(self, source: Source | None) -> str | None:
        if source is None:
            return None
        part, n = source.part, source.box
        if part == "card":
            return f"s{n}_cards"
        if part == "decision":
            return f"s{n}_bet"
        if part == "declare":
            return f"s{n}_declare" if source.hand == str(n) else f"s{n}_play"
        if part == "play":
            return f"s{n}_play"
        if part == "result":
            name = f"h{hand_key(source.hand or '')}_bet_result"
            return name if name in self.fields else f"s{n}_play"
        if part == "dealer_card":
            return "bank_cards" if (source.index or 0) < 2 else "bank_draws"
        return {"puje": "puje", "bank_to": "bank_to"}.get(part)

    def field_of_finding(self, finding) -> str | None:
        code = finding.code
        if code == "BANK_SUCCESSION":
            return "bank_to"
        n = self._seat_of_stake(finding.stake)
        if n is None:
            return None
        if code in SETTLEMENT_CODES and finding.hand:
            name = f"h{hand_key(finding.hand)}_bet_result"
            return name if name in self.fields else None
        if code == "BET_LIMITS":
            return f"s{n}_bet"
        return None

    def field_of_path(self, path: str | None, built: Built) -> str | None:
        found = self._stake_of_path(path, built)
        if found is not None:
            return f"s{found[0]['seat']}_player"
        if (path or "").startswith("$.table"):
            return "bank_min"
        if path == "$.bank":
            return "bank"
        return None

    def fill_owed(self, data) -> int:
        """The owed results into the blank payments, and the engine's next bank when none was said."""
        filled = 0
        if self.result is None or not self.result.ok:
            return 0
        for (_sid, hand, _wager), owed in self.result.owed_by_hand.items():
            k = f"h{hand_key(hand)}_bet"
            if k + "_result" not in self.fields or data.get(k + "_result"):
                continue
            data[k + "_result"] = owed.result
            data[k + "_amount"] = amount_json_text(owed.amount if owed.result == PAY else owed.size)
            filled += 1
        nxt = (self.result.outcome.extra or {}).get("bank_next")
        if nxt and not (data.get("bank_to") or "").strip():
            data["bank_to"] = nxt
            filled += 1
        return filled

    # --- layout for the template ----------------------------------------------------------------

    def seats(self) -> list[SeatView]:
        result = self.result
        owed = result.owed_by_hand if result and result.ok else {}
        views = []
        for n in self.seat_numbers:
            p, sid = f"s{n}_", stake_id(n)
            fields = {k: self[p + k] for k in ("player", "bet", "cards", "declare", "play")}
            rows, verdicts = [], []
            for hand in self.hands[n]:
                w = owed.get((sid, hand, "bet"))
                rows.append(self._wager_row("bet", _("Hand %(hand)s") % {"hand": hand}, f"h{hand_key(hand)}_", w))
                if w is not None and w.why:
                    verdicts.append(
                        {"hand_label": hand if len(self.hands[n]) > 1 else None, "verdict": w.verdict, "why": w.why}
                    )
            used = any(fields[k].value() not in (None, "", False) for k in ("player", "bet", "cards"))
            views.append(SeatView(n, fields, rows, used, verdicts))
        return views

    @property
    def bank_next(self) -> str:
        """Who the engine says takes the bank next, once checked."""
        outcome = self.result.outcome if self.result and self.result.ok else None
        return (getattr(outcome, "extra", None) or {}).get("bank_next") or ""


def _hand_of_field(name: str) -> str | None:
    m = _HAND_FIELD.match(name)
    return m.group(1).replace("-", ".") if m else None


def _plain_amounts(events: list[dict]) -> list[dict]:
    """Amounts as the other forms write them (150, "7.50"), not as Decimal objects."""
    out = []
    for ev in events:
        if "amount" in ev and ev["amount"] is not None:
            ev = {**ev, "amount": amount_json(ev["amount"])}
        out.append(ev)
    return out


def _seat_of_hand(hand) -> int | None:
    head = str(hand or "").split(".")[0]
    return int(head) if head.isdigit() else None


def _source_of(ev: dict) -> Source:
    """Where on the form an event of the built document came from (the builder keeps no sources:
    every event names its seat, its hand or the bank)."""
    e = ev.get("e")
    if e == "deal":
        if ev.get("to") == "bank":
            return Source("dealer_card", index=0)
        return Source("card", ev.get("to"))
    if e == "bet":
        return Source("decision", _seat_of_hand(str(ev.get("stake", ""))[1:]), ev.get("stake"), "bet")
    if e == "declare":
        return Source("declare", _seat_of_hand(ev.get("hand")), hand=ev.get("hand"))
    if e in ("hit", "stand", "tapo", "split", "withdraw", "void"):
        return Source("play", _seat_of_hand(ev.get("hand")), hand=ev.get("hand"))
    if e == "draw":
        return Source("dealer_card", index=2)
    if e in (PAY, "take", LEAVE):
        return Source("result", _seat_of_hand(ev.get("hand")), ev.get("stake"), "bet", hand=ev.get("hand"))
    return Source(e if e in ("puje", "bank_to") else "other")
