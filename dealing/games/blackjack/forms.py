"""Blackjack's round form (presets salon and online): boxes, their hands as they split, doubles,
insurance and even money, the jackpot; the dealer's up card, hole card and draws — drawn as the
table (template `dealing/round_form_blackjack.html`), built by `builder`."""

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.validators import PlayerNameValidator
from dealing import engine
from dealing.engine import cards as engine_cards
from dealing.engine.base import PAY
from dealing.forms.fields import QUICK_WIDGETS, AmountField, CardsField, ResultField, amount_json_text
from dealing.forms.rounds import SETTLEMENT_CODES, RoundForm, header_of, text_of

from .builder import BlackjackEntry, Built, HandEntry, Result, Source, blackjack_entry_from_document, build_blackjack
from .builder import BoxEntry as BjBoxEntry
from .builder import StakeEntry as BjStakeEntry
from .hands import (
    HAND_NAME,
    BlackjackBoxView,
    HandView,
    hand_key,
    hand_names,
    parse_splits,
    same_value,
    tokens,
)

BLACKJACK_PACK = engine.variant("blackjack").PACK
BJ_WAGER_LABELS = {
    "bet": gettext_lazy("Bet"),
    "double": gettext_lazy("Double"),
    "insurance": gettext_lazy("Insurance"),
    "jackpot": gettext_lazy("Jackpot"),
}


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
    script = "dealing/round_form_blackjack.js"
    tab_help = gettext_lazy("next field: box by box, each hand in play order, then your cards")
    key_help = (
        (
            ("H", "S", "D", "P"),
            gettext_lazy(
                "in a hand's cards, before a card: H hit (type the card), S stand (next hand), D double (the next card is the "
                "double), P split the pair"
            ),
        ),
    )
    cards_help = gettext_lazy(
        "Cards: rank and suit — TS, AH, 10D, 7c — separated by spaces. A box's first two cards "
        "are the ones dealt; then each card it drew. After a split, each hand takes the cards it "
        "drew after the split."
    )

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
            f[p + "player"] = forms.CharField(
                required=False,
                max_length=80,
                label=_("Player"),
                validators=[PlayerNameValidator()],
                widget=forms.TextInput(attrs={"autocomplete": "off", "class": "player"}),
            )
            f[p + "bet"] = AmountField(label=_("Bet"))
            if self.offers_jackpot:
                f[p + "jackpot"] = AmountField(label=_("Jackpot"))
                f[p + "jackpot"].widget.attrs["placeholder"] = amount_json_text(self.rules["jackpot_bet"])
            f[p + "insurance"] = AmountField(label=_("Insurance"))
            f[p + "even_money"] = forms.BooleanField(required=False, label=_("even money"))
            for name in hand_names(n, self.splits[n]):
                k = f"h{hand_key(name)}_"
                f[k + "cards"] = CardsField(
                    pack=BLACKJACK_PACK, pack_words=self.pack_words, label=_("Hand %(hand)s cards") % {"hand": name}
                )
                # Examples of what goes here (card codes read the same in every language).
                f[k + "cards"].widget.attrs["placeholder"] = (
                    "8S 8H …" if name == str(n) else "8D" if name in self.splits[n] else "3C …"
                )
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
        if verb not in ("split", "unsplit") or not HAND_NAME.match(name):
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
        data = {
            "round_id": doc.get("id"),
            "dealer": doc.get("dealer"),
            "dealer_up": entry.dealer_up or "",
            "dealer_hole": entry.dealer_hole or "",
            "dealer_draws": " ".join(entry.dealer_draws),
        }
        for box in entry.boxes:
            n, s = box.number, box.stake
            p = f"s{n}_"
            data.update(
                {
                    p + "id": s.id,
                    p + "player": s.player,
                    p + "bet": text_of(s.bet),
                    p + "jackpot": text_of(s.jackpot),
                    p + "insurance": text_of(s.insurance),
                }
            )
            if s.even_money:
                data[p + "even_money"] = "on"
            for wager, entered in s.results.items():
                data[f"{p}{wager}_result"] = entered.result
                data[f"{p}{wager}_amount"] = text_of(entered.amount)
            data[f"b{n}_splits"] = " ".join(h.name for h in box.walk() if h.split)
            for hand in box.walk():
                k = f"h{hand_key(hand.name)}_"
                data[k + "cards"] = " ".join(hand.cards)
                if hand.double_at is not None:
                    data[k + "double"] = "on"
                for wager, entered in hand.results.items():
                    data[f"{k}{wager}_result"] = entered.result
                    data[f"{k}{wager}_amount"] = text_of(entered.amount)
        return {k: v for k, v in data.items() if v not in (None, "")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        entry = blackjack_entry_from_document(doc)
        for box in entry.boxes:  # the form marks a double on the hand's last card
            for hand in box.hands.values():
                if hand.double_at is not None:
                    hand.double_at = len(hand.cards) - 1
                hand.double_amount = None
        return build_blackjack(entry, header=header_of(doc)).document

    # --- where a field is -------------------------------------------------------------------------

    def field_place(self, name: str) -> str:
        m = re.fullmatch(r"h([\d-]+)_(cards|double|bet_result|bet_amount|double_result|double_amount)", name)
        if m:
            hand = m.group(1).replace("-", ".")
            part = m.group(2)
            what = {
                "cards": _("cards"),
                "double": _("double"),
                "bet_result": _("Bet paid, taken or left"),
                "bet_amount": _("Bet amount"),
                "double_result": _("Double paid, taken or left"),
                "double_amount": _("Double amount"),
            }[part]
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
        keys = [
            p + k
            for k in (
                "player",
                "bet",
                "jackpot",
                "insurance",
                "even_money",
                "insurance_result",
                "insurance_amount",
                "jackpot_result",
                "jackpot_amount",
            )
        ]
        for name in self._hands(n)[1:]:
            keys.append(f"h{hand_key(name)}_cards")
        for name in self._hands(n):
            k = f"h{hand_key(name)}_"
            keys += [k + "double", k + "bet_result", k + "bet_amount", k + "double_result", k + "double_amount"]
        if any(data.get(k) not in (None, "", False, []) for k in keys):
            return True
        return any(k.startswith((p, f"h{n}-")) or k in (f"h{n}_bet_result", f"h{n}_bet_amount") for k in self.errors)

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
            for key, message in (
                ("dealer_up", _("Enter your up card.")),
                ("dealer_hole", _("Enter your hole card (face down until you turn it).")),
            ):
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
                    self.add_error(
                        k + "cards",
                        (
                            _(
                                "Hand %(hand)s was split: its pair only here; the cards after the split go on %(hand)s.1 "
                                "and %(hand)s.2."
                            )
                            if root
                            else _(
                                "Hand %(hand)s was split again: only its second card here; the cards after the split go "
                                "on %(hand)s.1 and %(hand)s.2."
                            )
                        )
                        % {"hand": name},
                    )
                if root and data.get(p + "even_money"):
                    self.add_error(p + "even_money", _("Even money is paid at once: the box plays no further."))
            elif root and len(cards) < 2:
                self.add_error(k + "cards", _("Enter the box's two cards, then each card it drew."))
            elif not root and not cards:
                self.add_error(
                    k + "cards", _("Enter hand %(hand)s's second card, then each card it drew.") % {"hand": name}
                )
            elif data.get(k + "double") and len(cards) < (3 if root else 2):
                self.add_error(k + "cards", _("A double gets one more card: enter it last."))
            if name not in splits:
                self._clean_result(k, "bet", None)
                self._clean_result(
                    k, "double", None if data.get(k + "double") else _("This hand did not double: nothing to settle.")
                )
        self._clean_result(
            p,
            "insurance",
            None
            if data.get(p + "insurance") is not None or p + "insurance" in self.errors
            else _("This box took no insurance."),
        )
        if self.offers_jackpot:
            self._clean_result(
                p,
                "jackpot",
                None
                if data.get(p + "jackpot") is not None or p + "jackpot" in self.errors
                else _("This box placed no jackpot bet."),
            )

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
            stake = BjStakeEntry(
                sid,
                n,
                data[p + "player"].strip(),
                data[p + "bet"],
                jackpot=data.get(p + "jackpot"),
                insurance=data.get(p + "insurance"),
                even_money=bool(data.get(p + "even_money")),
                results=results,
            )
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
            stake_rows = [
                self._wager_row(
                    wager,
                    BJ_WAGER_LABELS[wager],
                    p,
                    owed.get((sid, str(n), wager)),
                    absent="" if fields[wager].value() else f"data-needs-{wager}",
                )
                for wager in ("insurance", "jackpot")
                if f"{p}{wager}_result" in self.fields
            ]
            used = any(self[p + k].value() not in (None, "", False) for k in ("player", "bet"))
            views.append(BlackjackBoxView(n, fields, self._hand_view(n, str(n), sid, owed, [], 0), stake_rows, used))
        return views

    def _hand_view(self, n: int, name: str, sid: str, owed: dict, inherited: list[str], depth: int) -> HandView:
        k = f"h{hand_key(name)}_"
        splits = self.splits[n]
        typed = tokens(self[k + "cards"].value())
        rows, verdict = [], ""
        split = name in splits
        if not split:
            doubled = self[k + "double"].value()
            rows = [
                self._wager_row(
                    wager,
                    BJ_WAGER_LABELS[wager],
                    k,
                    owed.get((sid, name, wager)),
                    absent="data-needs-double" if wager == "double" and not doubled else "",
                )
                for wager in ("bet", "double")
            ]
            bet_owed = owed.get((sid, name, "bet"))
            verdict = bet_owed if bet_owed is not None else ""  # an Owed: its verdict, said by |verdict
        whole = inherited + typed
        children = []
        if split:
            pair = whole[:2]
            for side in (1, 2):
                first = pair[side - 1 : side]
                children.append(self._hand_view(n, f"{name}.{side}", sid, owed, first, depth + 1))
        can_split = (
            not split and len(whole) == 2 and same_value(whole[0], whole[1]) and len(splits) + 1 < self.max_hands
        )
        return HandView(
            name,
            hand_key(name),
            self[k + "cards"],
            self[k + "double"],
            inherited,
            split,
            children,
            rows,
            can_split,
            verdict,
            depth,
        )

    @property
    def dealer_fields(self):
        return [self["dealer_up"], self["dealer_hole"], self["dealer_draws"]]

    @property
    def ace_up(self) -> bool:
        """The dealer's up card is an ace: insurance and even money are offered."""
        cards = tokens(self["dealer_up"].value())
        code = engine_cards.normalize(cards[0]) or engine_cards.normalize(cards[0].upper()) if cards else None
        return bool(code) and code[0] == "A"
