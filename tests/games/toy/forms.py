"""The toy game's round form (tests only): per box a player, a bet, the card and what was done with
the bet; the dealer's card. Built on `dealing.forms.RoundForm` like every game's form."""

from django import forms

from dealing.engine.base import PAY
from dealing.forms import AmountField, CardsField, ResultField, RoundForm, amount_json_text
from dealing.games.building import Log, Source, amount_json

from . import rules as toy_engine


class ToyRoundForm(RoundForm):
    variant = "toy"
    template_name = "toy/round_form.html"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.box_numbers = list(range(1, self.table.boxes + 1))
        for n in self.box_numbers:
            self.fields[f"s{n}_player"] = forms.CharField(required=False, max_length=80)
            self.fields[f"s{n}_bet"] = AmountField()
            self.fields[f"b{n}_card"] = CardsField(pack=toy_engine.PACK, pack_words="the toy pack", most=1)
            self.fields[f"s{n}_bet_result"] = ResultField()
            self.fields[f"s{n}_bet_amount"] = AmountField()
        self.fields["dealer_card"] = CardsField(pack=toy_engine.PACK, pack_words="the toy pack", most=1)

    def _used(self, n: int) -> bool:
        return bool(self.cleaned_data.get(f"s{n}_player") or self.cleaned_data.get(f"s{n}_bet"))

    def clean(self):
        data = super().clean()
        if not any(self._used(n) for n in self.box_numbers):
            raise forms.ValidationError("Enter a box.")
        for n in self.box_numbers:
            if self._used(n):
                self._clean_result(f"s{n}_", "bet", None)
        return data

    def build(self):
        data = self.cleaned_data
        used = [n for n in self.box_numbers if self._used(n)]
        log = Log(
            self.header(),
            [
                {"id": str(n), "box": n, "player": data[f"s{n}_player"], "bet": amount_json(data[f"s{n}_bet"])}
                for n in used
            ],
        )
        for n in used:
            log.add({"e": "deal", "to": n, "card": data[f"b{n}_card"][0]}, Source("card", n, str(n), index=0))
        log.add({"e": "deal", "to": "dealer", "card": data["dealer_card"][0]}, Source("dealer_card", index=0))
        for n in used:
            result = data.get(f"s{n}_bet_result")
            if result:
                event = {"e": result, "stake": str(n), "wager": "bet"}
                if data.get(f"s{n}_bet_amount") is not None:
                    event["amount"] = amount_json(data[f"s{n}_bet_amount"])
                log.add(event, Source("result", n, str(n), "bet"))
        return log.built()

    def field_of(self, source):
        if source is None:
            return None
        if source.part == "card":
            return f"b{source.box}_card"
        if source.part == "result":
            return f"s{source.box}_bet_result"
        return "dealer_card" if source.part == "dealer_card" else None

    def field_of_finding(self, finding):
        return f"s{finding.stake}_bet_result" if finding.stake else None

    def fill_owed(self, data) -> int:
        filled = 0
        for (sid, _wager), owed in self.result.owed.items():
            if not data.get(f"s{sid}_bet_result"):
                data[f"s{sid}_bet_result"] = owed.result
                data[f"s{sid}_bet_amount"] = amount_json_text(owed.amount if owed.result == PAY else owed.size)
                filled += 1
        return filled

    @classmethod
    def initial_from_document(cls, doc: dict) -> dict:
        return {"round_id": doc.get("id")}

    @classmethod
    def rebuild(cls, doc: dict) -> dict:
        return doc
