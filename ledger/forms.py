"""Forms of the ledger: start a night, one pass of the draw, a round, the end of the night.

The round form is filled as people remember a round of the home game — seat by seat, then the
bank — and `builder.build_round` puts it in the order of the rules. Everything the rules say is
left to the engine (shown before saving); the form only reads cards, amounts and play lines.
"""

import uuid
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from casino.forms import DecimalField
from casino.models import Table
from casino.roles import DEALER, PIT_BOSS, has_role, user_pits
from casino.validators import TextValidator
from dealing.games.veintiuno import builder

from . import selectors
from .choices import EndReason
from .draw import read_card

User = get_user_model()


class CardField(forms.CharField):
    """A card of the 40-card pack: AS, 7h, K♠ … → its code ("7H")."""

    default_error_messages = {"card": _("Not a card of the 40-card pack (A, 2–7, J, Q, K; e.g. AS, 7H, K♠).")}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 4)
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"class": "card-input", "autocomplete": "off", "spellcheck": "false", "size": 3, "placeholder": "··"}
        )

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return ""
        code = read_card(value)
        if code is None:
            raise forms.ValidationError(self.error_messages["card"], code="card")
        return code


class MoneyField(DecimalField):
    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 14)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal("0.01"))
        super().__init__(**kwargs)
        self.widget.attrs.setdefault("inputmode", "decimal")


class SessionForm(forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), label=_("Table"))
    name = forms.CharField(
        label=_("Name of the night"),
        max_length=80,
        required=False,
        validators=[TextValidator()],
        widget=forms.TextInput(attrs={"placeholder": _("Friday at Ana's")}),
    )
    players = forms.CharField(
        label=_("Players, in the order they sit"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Ana\nBeto\nCaro\nDani"}),
        help_text=_(
            "One name a line, going round the table to the right: the deal goes from the bank to the "
            "next player in this order."
        ),
    )
    unit = MoneyField(
        label=_("Betting unit"), initial=5, help_text=_("Bets go in multiples of it (chips of 5, of 2, …).")
    )
    buy_in = MoneyField(
        label=_("Chips each (optional)"),
        required=False,
        help_text=_("When one player holds every chip the night ends by itself."),
    )
    dealer = forms.ModelChoiceField(
        queryset=User.objects.none(),
        label=_("Dealer"),
        required=False,
        help_text=_("The rounds are logged in this dealer's name."),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        pits = user_pits(user)
        self.fields["table"].queryset = selectors.startable_tables(user=user)
        tables = list(self.fields["table"].queryset)
        if len(tables) == 1:
            self.fields["table"].initial = tables[0].pk
        if has_role(user, PIT_BOSS):
            dealers = (
                User.objects.filter(is_active=True, groups__name=DEALER, staff__pits__in=pits)
                .distinct()
                .order_by("username")
            )
            self.fields["dealer"].queryset = dealers
            if has_role(user, DEALER):
                self.fields["dealer"].initial = user.pk
        else:
            del self.fields["dealer"]

    def player_list(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data["players"].splitlines() if line.strip()]


class DrawForm(forms.Form):
    """One pass of the draw: a card for each player still drawing."""

    def __init__(self, *args, contenders: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.contenders = contenders
        for k, player in enumerate(contenders):
            self.fields[f"card_{k}"] = CardField(label=player, required=False)

    def bound_cards(self):
        return [(player, self[f"card_{k}"]) for k, player in enumerate(self.contenders)]

    def clean(self):
        data = super().clean()
        if self.data.get("deal"):
            return data
        for k, _player in enumerate(self.contenders):
            if not data.get(f"card_{k}") and f"card_{k}" not in self.errors:
                self.add_error(f"card_{k}", _("Each player draws a card."))
        return data

    def cards(self) -> dict[str, str] | None:
        """{player: card}, or None when the cards are to be dealt here."""
        if self.data.get("deal"):
            return None
        return {p: self.cleaned_data[f"card_{k}"] for k, p in enumerate(self.contenders)}


class RoundForm(forms.Form):
    """A round of the home game, seat by seat (place 1 = pie de banco, at the bank's right)."""

    uid = forms.UUIDField(widget=forms.HiddenInput)
    min_bet = MoneyField(label=_("Minimum bet"))
    max_bet = MoneyField(label=_("Maximum bet"))
    bank_card_1 = CardField(label=_("Bank's first card"))
    bank_card_2 = CardField(label=_("Bank's second card"))
    puje = forms.BooleanField(
        label=_("Al puje"),
        required=False,
        help_text=_("The bank holds 20 in two cards and feeds every hand to 21 or over."),
    )
    bank_draws = forms.CharField(
        label=_("Bank draws"),
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "5C 2D", "class": "cards-input"}),
    )
    bank_to = forms.ChoiceField(label=_("The bank goes to"), required=False)

    def __init__(self, *args, bank: str, seated: list[tuple[int, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.bank = bank
        self.seated = seated
        self.fields["bank_to"].choices = [("", _("— not said —")), (bank, bank)] + [(p, p) for _k, p in seated]
        for place, _player in seated:
            p = f"s{place}_"
            self.fields[p + "out"] = forms.BooleanField(label=_("sits out"), required=False)
            self.fields[p + "bet"] = MoneyField(label=_("Bet"), required=False)
            self.fields[p + "c1"] = CardField(label=_("First card (face down)"), required=False)
            self.fields[p + "c2"] = CardField(label=_("Second card (face up)"), required=False)
            self.fields[p + "declare"] = forms.BooleanField(label=_("21 declared"), required=False)
            self.fields[p + "play"] = forms.CharField(
                label=_("Play"),
                required=False,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": "5C 2D stand",
                        "class": "play-input",
                        "autocomplete": "off",
                        "spellcheck": "false",
                    }
                ),
            )
        self.hands = self._hands_from_data()
        for hand in self.hands:
            self.fields[f"pay_{hand}_result"] = forms.ChoiceField(
                label=_("Hand %(hand)s") % {"hand": hand},
                required=False,
                choices=[("", "—"), (builder.PAY, _("pay")), (builder.TAKE, _("take")), (builder.LEAVE, _("leave"))],
            )
            self.fields[f"pay_{hand}_amount"] = MoneyField(label=_("amount"), required=False)

    @classmethod
    def initial_for(cls, *, limits) -> dict:
        initial = {"uid": uuid.uuid4(), "bank_to": ""}
        if limits:
            initial.update(min_bet=limits[0], max_bet=limits[1])
        return initial

    def _hands_from_data(self) -> list[str]:
        """The hands the play lines make (a split makes two): one payment row each."""
        if not self.is_bound:
            return []
        hands = []
        for place, _player in self.seated:
            if self.data.get(f"s{place}_out"):
                continue
            try:
                actions = builder.parse_play(self.data.get(f"s{place}_play", ""))
                entry = builder.SeatEntry(place, "", Decimal(1), ("", ""), play=actions)
                hands.extend(builder.seat_hands(entry))
            except (builder.PlayError, ValueError):
                hands.append(str(place))
        return hands

    def seat_rows(self):
        """For the template: each place with its bound fields and payment rows."""
        rows = []
        for place, player in self.seated:
            p = f"s{place}_"
            pays = [
                (h, self[f"pay_{h}_result"], self[f"pay_{h}_amount"])
                for h in self.hands
                if h.split(".")[0] == str(place)
            ]
            rows.append(
                {
                    "place": place,
                    "player": player,
                    "out": self[p + "out"],
                    "bet": self[p + "bet"],
                    "c1": self[p + "c1"],
                    "c2": self[p + "c2"],
                    "declare": self[p + "declare"],
                    "play": self[p + "play"],
                    "pays": pays,
                    "stake": builder.stake_id(place),
                }
            )
        return rows

    def clean(self):
        data = super().clean()
        seats = []
        for place, player in self.seated:
            p = f"s{place}_"
            if data.get(p + "out"):
                continue
            missing = [name for name in ("bet", "c1", "c2") if not data.get(p + name) and p + name not in self.errors]
            for name in missing:
                self.add_error(p + name, _("Needed, or tick “sits out”."))
            try:
                actions = builder.parse_play(data.get(p + "play", ""))
            except builder.PlayError as exc:
                self.add_error(p + "play", exc.message)
                continue
            if missing or any(p + name in self.errors for name in ("bet", "c1", "c2")):
                continue
            seats.append(
                builder.SeatEntry(
                    place,
                    player,
                    data[p + "bet"],
                    (data[p + "c1"], data[p + "c2"]),
                    declare=bool(data.get(p + "declare")),
                    play=actions,
                )
            )
        if not seats and not self.errors:
            raise forms.ValidationError(_("Nobody played: at least one player bets against the bank."))
        draws = []
        for _k, word in enumerate((data.get("bank_draws") or "").replace(",", " ").split(), start=1):
            code = read_card(word)
            if code is None:
                self.add_error("bank_draws", _("“%(card)s” is not a card of the 40-card pack.") % {"card": word})
            draws.append(code)
        payments = []
        for hand in self.hands:
            result = data.get(f"pay_{hand}_result")
            amount = data.get(f"pay_{hand}_amount")
            if result:
                if result == builder.PAY and amount is None:
                    self.add_error(f"pay_{hand}_amount", _("Say how much was paid."))
                payments.append(builder.Payment(hand, result, amount))
        if self.errors:
            return data
        self.sheet = builder.RoundSheet(
            bank=self.bank,
            limits=(data["min_bet"], data["max_bet"]),
            seats=seats,
            bank_cards=(data["bank_card_1"], data["bank_card_2"]),
            puje=bool(data.get("puje")),
            bank_draws=draws,
            payments=payments,
            bank_to=data.get("bank_to") or None,
            id=str(data["uid"]),
        )
        try:
            self.document = builder.build_round(self.sheet)
        except builder.PlayError as exc:
            raise forms.ValidationError(exc.message) from None
        return data


class EndForm(forms.Form):
    reason = forms.ChoiceField(
        label=_("How the night ends"), choices=EndReason.choices, initial=EndReason.AGREEMENT, widget=forms.RadioSelect
    )
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=2000,
        validators=[TextValidator()],
        widget=forms.TextInput(attrs={"placeholder": _("e.g. the split agreed at the end")}),
    )
