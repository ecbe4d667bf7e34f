"""ochko's part of the strategy trainer (dealing.games.strategy): the Bet decision on the first card
(before the dealer opens his), then stand, hit or a dark card against the dealer's card; the
table's two dark-card house rules change the box's EVs and the charts."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dealing.engine.cards import RANK_NAMES
from dealing.engine.ochko import math as ochko_math
from dealing.engine.ochko import rules as ochko_rules
from dealing.engine.ochko import simulator as ochko_cards
from dealing.games.figures import kept
from dealing.games.strategy import DRAWS, PHASE_BET, PHASE_DONE, PHASE_PLAY, GameStrategy, asked, gap, rules_key

# The keys of the options (S H D, and the Bet: F, 1–9, 0 for 10).
KEYS = {"stand": "S", "hit": "H", "dark": "D"}
BET_KEYS = {"fold": "F", **{f"bet:{k}": str(k % 10) for k in range(1, 11)}}
RULES = ("dark_win_bet", "dark_double_bust_bet")  # the house rules that change the box's EVs
BET_RESULTS = (("leave", gettext_lazy("returned (leave)")), ("take", gettext_lazy("taken")))
RULE_FIELDS = (
    ("dark_win_bet", gettext_lazy("The Bet of a dark card that wins"), BET_RESULTS),
    ("dark_double_bust_bet", gettext_lazy("The Bet of a dark card that busts with the dealer"), BET_RESULTS),
)


@kept(maxsize=64)
def chart(bet: int, rules: tuple = ()) -> dict:
    return ochko_math.strategy(bet, rules=dict(rules))


class OchkoStrategy(GameStrategy):
    keys = KEYS
    house_rules = RULES
    house_rule_fields = RULE_FIELDS

    def keys_of(self, phase: str) -> dict[str, str]:
        return BET_KEYS if phase == PHASE_BET else KEYS

    def ask(self, preset, cards, dealer, bet, *, hands=1, removed=(), rules=None) -> dict:
        doc = ochko_math.ev(cards, dealer=dealer, bet=bet, rules=dict(rules or {}))
        return asked(dict(doc["options"]), doc)

    def chart_action(self, preset, cards, dealer, bet, offered, rules):
        """The Bet decision is the chart's `bet_decision`; the play its row of the hand's total."""
        if dealer is None:
            return chart(1, rules_key(rules))["bet_decision"][cards[0][0]]["action"]
        found = chart(bet, rules_key(rules))
        key = ("one_card", cards[0][0]) if len(cards) == 1 else ("total", str(ochko_cards.total(cards)))
        row = next((r for r in found["rows"] if (r["kind"], r["hand"]) == key), None)
        cell = row["cells"].get(dealer[0]) if row else None
        return cell["action"] if cell else None

    def situation(self, cards, dealer, bet, phase=PHASE_PLAY, split=False) -> str:
        """ "15 vs 9 (Bet 3)", "first card 8: fold/bet"."""
        if dealer is None:
            return _("first card %(rank)s: fold/bet") % {"rank": RANK_NAMES.get(cards[0][0], cards[0][0])}
        return _("%(total)s vs %(up)s (Bet %(bet)s)") % {
            "total": ochko_cards.total(cards),
            "up": RANK_NAMES.get(dealer[0], dealer[0]),
            "bet": bet,
        }

    def pack(self, preset: str) -> list[str]:
        return [r + s for r in ochko_cards.RANKS for s in "SHDC"] * ochko_cards.DECKS

    def candidate(self, preset, rng, rules):
        """The first card and the dealer's; the gap is the smaller real one of the Bet and the play."""
        drawn = rng.sample(self.pack(preset), 3 + DRAWS)
        hand = {"cards": drawn[:1], "dealer": drawn[1], "draws": drawn[2:]}
        first = self.ask(preset, hand["cards"], None, None, rules=rules)
        gaps = [gap(first["options"])]
        if first["best"] != "fold":
            bet = int(first["best"].split(":")[1])
            gaps.append(gap(self.ask(preset, hand["cards"], hand["dealer"], bet, rules=rules)["options"]))
        real = [g for g in gaps if g is not None and g > 0]
        return hand, min(real) if real else None

    def start_state(self, hand: dict) -> dict:
        return {**super().start_state(hand), "phase": PHASE_BET}

    def advance(self, preset, doc, state, chosen) -> dict:
        """The Bet or a fold; then a hit takes the next card and the hand goes on; it ends on a
        stand, a dark card, mnogo or ochko."""
        state = {**state, "cards": list(state["cards"])}
        if state["phase"] == PHASE_BET:
            if chosen == "fold":
                return {**state, "phase": PHASE_DONE, "end": "fold"}
            return {**state, "phase": PHASE_PLAY, "bet": int(chosen.split(":")[1])}
        if chosen != "hit":
            return {**state, "phase": PHASE_DONE, "end": chosen}
        state["cards"].append(doc["draws"][state["drawn"]])
        state["drawn"] += 1
        score = ochko_cards.score(state["cards"])
        if score is None:
            return {**state, "phase": PHASE_DONE, "end": "mnogo"}
        if score == 21:
            return {**state, "phase": PHASE_DONE, "end": "ochko"}
        if state["drawn"] >= len(doc["draws"]):  # pragma: no cover - ten small cards in a row
            return {**state, "phase": PHASE_DONE, "end": "stand"}
        return state

    def clean_house_rules(self, raw) -> dict:
        """The dark-card house rules (`RULES`, each leave or take), the defaults left out."""
        if raw in (None, ""):
            return {}
        if not isinstance(raw, dict) or set(raw) - set(RULES):
            raise ValueError("house_rules")
        out = {}
        for name in RULES:
            if name in raw:
                option = ochko_rules.OPTIONS[name]
                if raw[name] not in option.choices:
                    raise ValueError(name)
                if raw[name] != option.default:
                    out[name] = raw[name]
        return out

    def warm(self) -> None:
        """The charts of the ten Bets under the default rules."""
        for bet in range(1, 11):
            chart(bet)


STRATEGY = OchkoStrategy()
