"""21 Ochko's round form: six boxes of up to three stakes, their cards and dark card, the dealer's
cards — drawn as the table (template `dealing/round_form_ochko.html`), built by `builder`."""

import re
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.validators import PlayerNameValidator
from dealing import engine
from dealing.engine.base import LEAVE, PAY
from dealing.forms.fields import QUICK_WIDGETS, AmountField, CardsField, ResultField, amount_json_text
from dealing.forms.rounds import SETTLEMENT_CODES, RoundForm, WagerRow, header_of, text_of

from .builder import BoxEntry, Built, OchkoEntry, Result, Source, StakeEntry, build_ochko, ochko_entry_from_document

OCHKO_PACK = engine.variant("ochko").PACK
STAKE_LETTERS = "abc"
OCHKO_WAGER_LABELS = {
    "bet": gettext_lazy("Bet"),
    "ante": gettext_lazy("Ante"),
    "dealer_bet": gettext_lazy("Dealer bet"),
}
# Settlement rows in the order a box is paid: Bet, Ante, then the dealer bet.
OCHKO_SETTLE_ORDER = ("bet", "ante", "dealer_bet")


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
    lettered_stakes = True  # boxes of stakes a, b, c, each with its chips (round_form.js)
    leave_moves_nothing = True  # a wager left where it is is logged without an amount

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.box_numbers = list(range(1, min(self.table.boxes, 6) + 1))
        f = self.fields
        for n in self.box_numbers:
            f[f"b{n}_cards"] = CardsField(
                pack=OCHKO_PACK, pack_words=self.pack_words, label=_("Box %(n)d cards") % {"n": n}
            )
            f[f"b{n}_dark"] = CardsField(
                pack=OCHKO_PACK, pack_words=self.pack_words, most=1, label=_("Box %(n)d dark card") % {"n": n}
            )
            for letter in STAKE_LETTERS:
                p = f"s{n}{letter}_"
                f[p + "player"] = forms.CharField(
                    required=False,
                    max_length=80,
                    label=_("Player"),
                    validators=[PlayerNameValidator()],
                    widget=forms.TextInput(attrs={"autocomplete": "off", "class": "player"}),
                )
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
        data = {"round_id": doc.get("id"), "dealer": doc.get("dealer"), "dealer_cards": " ".join(entry.dealer_cards)}
        for box in entry.boxes:
            n = box.number
            data[f"b{n}_cards"] = " ".join(box.cards)
            data[f"b{n}_dark"] = box.dark or ""
            for letter, stake in zip(STAKE_LETTERS, box.stakes):
                p = f"s{n}{letter}_"
                data.update(
                    {
                        p + "player": stake.player,
                        p + "ante": text_of(stake.ante),
                        p + "dealer_bet": text_of(stake.dealer_bet),
                        p + "bet": text_of(stake.bet),
                    }
                )
                if stake.folded:
                    data[p + "fold"] = "on"
                for wager, entered in stake.results.items():
                    if wager in OCHKO_SETTLE_ORDER:
                        data[f"{p}{wager}_result"] = entered.result
                        data[f"{p}{wager}_amount"] = text_of(entered.amount)
        return {k: v for k, v in data.items() if v not in (None, "")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        return build_ochko(ochko_entry_from_document(doc), header=header_of(doc)).document

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
            f"{w}_{part}" for w in OCHKO_SETTLE_ORDER for part in ("result", "amount")
        ]
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
            raise forms.ValidationError(_("Enter at least one stake: a player and an Ante on a box."), code="no_stakes")
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
                stakes.append(
                    StakeEntry(
                        id=f"{n}{letter}",
                        box=n,
                        player=data[p + "player"].strip(),
                        ante=data[p + "ante"],
                        dealer_bet=data.get(p + "dealer_bet"),
                        bet=None if data.get(p + "fold") else data.get(p + "bet"),
                        results=results,
                    )
                )
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
        return {
            "BET_RANGE": f"s{sid}_bet",
            "ANTE_LIMITS": f"s{sid}_ante",
            "DEALER_BET_MIN": f"s{sid}_dealer_bet",
            "BOX_PLAYERS": f"s{sid}_player",
        }.get(code)

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
            data[p + "_amount"] = (
                "" if owed.result == LEAVE else amount_json_text(owed.amount if owed.result == PAY else owed.size)
            )
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
                absent = {
                    "dealer_bet": "" if fields["dealer_bet"].value() else "data-needs-db",
                    "bet": "data-folded" if fields["fold"].value() else "",
                }
                wagers = [
                    self._wager_row(
                        wager,
                        OCHKO_WAGER_LABELS[wager],
                        p,
                        owed.get((sid, wager)),
                        absent=absent.get(wager, ""),
                        leave_amount=False,
                    )
                    for wager in OCHKO_SETTLE_ORDER
                ]
                used = any(
                    self[p + k].value() not in (None, "", False)
                    for k in ("player", "ante", "dealer_bet", "bet", "fold")
                )
                stakes.append(StakeView(sid, letter, fields, wagers, used))
            verdict = next((w.owed for s in stakes for w in s.wagers if w.owed is not None and w.wager == "bet"), "")
            views.append(BoxView(n, self[f"b{n}_cards"], self[f"b{n}_dark"], stakes, verdict))
        return views

    @property
    def dealer_cards(self):
        return self["dealer_cards"]
