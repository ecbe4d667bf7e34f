"""blackjack's part of the strategy trainer (dealing.games.strategy): insurance (or even money)
against the dealer's ace, then hit, stand, double or split, each hand of a split played to the end
in turn; a blackjack against anything but an ace is paid at once and never dealt."""

from decimal import Decimal

from django.utils.translation import gettext as _

from dealing.engine.blackjack import math as bj_math
from dealing.engine.blackjack.simulator import cards as bj_cards
from dealing.games.figures import kept
from dealing.games.strategy import (
    DRAWS,
    PHASE_DONE,
    PHASE_INSURANCE,
    PHASE_PLAY,
    GameStrategy,
    asked,
    draw,
    gap,
    hands_of,
    seen_elsewhere,
)

KEYS = {"hit": "H", "stand": "S", "double": "D", "split": "P", "even_money": "E"}
PLAY = tuple(KEYS)  # insurance is a decision of its own, before the play
INSURANCE_KEYS = {"insurance": "I", "no_insurance": "N"}
INSURANCE_STAKE = Decimal("0.5")  # the insurance taken in full: half the bet (rules/blackjack.md)
EXTRA_DRAWS = 20  # more cards of the round's order, for split hands
PRESETS = ("salon", "online")


@kept(maxsize=4)
def chart(preset: str) -> dict:
    return bj_math.strategy(preset=preset)


def up_name(code: str) -> str:
    """A card as the charts name it: every ten-valued card is T."""
    return "T" if code[0] in "TJQK" else code[0]


def _summary(state: dict) -> dict:
    """The state with the hand in play mirrored in `cards`, and `end` the ends of every hand."""
    hands = state["hands"]
    state["cards"] = list(hands[min(state["hand"], len(hands) - 1)]["cards"])
    state["end"] = " · ".join(h["end"] for h in hands if h["end"]) if state["phase"] == PHASE_DONE else ""
    return state


class BlackjackStrategy(GameStrategy):
    keys = KEYS

    def keys_of(self, phase: str) -> dict[str, str]:
        return INSURANCE_KEYS if phase == PHASE_INSURANCE else KEYS

    def ask(self, preset, cards, dealer, bet, *, hands=1, removed=(), rules=None) -> dict:
        """`hands` > 1: a hand made by splitting, the other hands' cards `removed`."""
        doc = bj_math.ev(cards, dealer=dealer, preset=preset or "salon", hands=hands, removed=list(removed))
        return asked({k: v for k, v in doc["options"].items() if k in PLAY}, doc)

    def ask_insurance(self, preset, cards, dealer) -> dict | None:
        """Insurance against the dealer's ace, in initial wagers: the engine's EV per unit of insurance
        times the stake insured (half the bet), against 0 for declining. None when not offered."""
        doc = bj_math.ev(cards, dealer=dealer, preset=preset or "salon")
        if "insurance" not in doc["options"]:
            return None
        per_unit = Decimal(doc["options"]["insurance"])
        options = {"insurance": str(per_unit * INSURANCE_STAKE), "no_insurance": "0"}
        best = "insurance" if per_unit > 0 else "no_insurance"  # a tie declines: nothing to gain
        return {"options": options, "best": best, "per_unit": doc["options"]["insurance"]}

    def chart_action(self, preset, cards, dealer, bet, offered, rules):
        found = chart(preset or "salon")
        column = found["up_cards"].index(up_name(dealer))
        values = [bj_cards.VALUE[c[0]] for c in cards]
        if len(cards) == 2 and values[0] == values[1]:
            name = up_name(cards[0])
            row = next(r for r in found["pairs"] if r["hand"] == f"{name},{name}")
            if row["cells"][column]["action"] == "split":
                return "split"
        best, soft = bj_cards.total(cards)
        row = next((r for r in found["soft" if soft else "hard"] if r["total"] == best), None)
        if row is None:
            return None
        cell = row["cells"][column]
        return cell["action"] if cell["action"] in offered and cell["action"] != "split" else cell["fallback"]

    def situation(self, cards, dealer, bet, phase=PHASE_PLAY, split=False) -> str:
        """ "soft 18 vs 9", "pair of 8s vs 10", "hard 11 vs 6 (split)", "insurance (hard 16)",
        "blackjack vs A: even money"."""
        up = up_name(dealer)
        if bj_cards.natural(cards) and not split:
            return _("blackjack vs %(up)s: even money") % {"up": up}
        if phase == PHASE_INSURANCE:
            return _("insurance vs A (%(hand)s)") % {"hand": self.situation(cards, dealer, bet).split(" vs ")[0]}
        if split:
            return _("%(situation)s (split)") % {"situation": self.situation(cards, dealer, bet)}
        values = [bj_cards.VALUE[c[0]] for c in cards]
        if len(cards) == 2 and values[0] == values[1]:
            name = up_name(cards[0])
            return _("pair of %(rank)ss vs %(up)s") % {"rank": name, "up": up}
        best, soft = bj_cards.total(cards)
        kind = _("soft") if soft else _("hard")
        return f"{kind} {best} vs {up}"

    def pack(self, preset: str) -> list[str]:
        decks = bj_math.read_rules(preset or "salon", None)["decks"]
        return [r + s for r in bj_cards.RANKS for s in "SHDC"] * decks

    def candidate(self, preset, rng, rules):
        """The gap of the play, or of even money; insurance is almost always declined and would crowd
        the aces in."""
        drawn = rng.sample(self.pack(preset), 3 + DRAWS)
        hand = {"cards": drawn[:2], "dealer": drawn[2], "draws": drawn[3:]}
        if self.no_decision(hand):
            return hand, None
        return hand, gap(self.ask(preset, hand["cards"], hand["dealer"], None)["options"])

    def no_decision(self, hand: dict) -> bool:
        return bj_cards.natural(hand["cards"]) and up_name(hand["dealer"]) != "A"

    def dealt(self, preset, hand, rng) -> dict:
        """EXTRA_DRAWS more cards of the round's order follow, for the hands of a split."""
        rest = self.pack(preset)
        for card in [*hand["cards"], hand["dealer"], *hand["draws"]]:
            rest.remove(card)
        return {**hand, "draws": hand["draws"] + rng.sample(rest, EXTRA_DRAWS)}

    def start_state(self, hand: dict) -> dict:
        """Every hand of the box, the one in play; a split adds hands."""
        state = super().start_state(hand)
        if up_name(hand["dealer"]) == "A" and not bj_cards.natural(hand["cards"]):
            state["phase"] = PHASE_INSURANCE
        state.update(hands=[{"cards": list(hand["cards"]), "end": ""}], hand=0, insured=None)
        return state

    def _ask_state(self, preset: str, doc: dict, state: dict) -> dict:
        hands = len(hands_of(state))
        return self.ask(
            preset, state["cards"], doc["dealer"], None, hands=hands, removed=seen_elsewhere(state) if hands > 1 else ()
        )

    def _play_on(self, preset: str, doc: dict, state: dict) -> dict:
        """From the hand in play on: a split hand takes its second card when its turn comes (rules/
        blackjack.md: a split hand is played to the end before the next); a hand with one legal option
        (21, split aces that take one card) plays it without asking; when every hand is over, the
        round is."""
        hands = state["hands"]
        while state["hand"] < len(hands):
            current = hands[state["hand"]]
            if not current["end"]:
                if len(current["cards"]) == 1:
                    card = draw(doc, state)
                    if card is None:  # pragma: no cover
                        current["end"] = "stand"
                        continue
                    current["cards"].append(card)
                state["cards"] = list(current["cards"])
                options = self._ask_state(preset, doc, state)["options"]
                if len(options) > 1:
                    return _summary(state)
                current["end"] = "21" if bj_cards.total(current["cards"])[0] == 21 else next(iter(options))
            state["hand"] += 1
        state["phase"] = PHASE_DONE
        state["hand"] = len(hands) - 1
        return _summary(state)

    def advance(self, preset, doc, state, chosen) -> dict:
        """A hand ends on stand, double (one card), even money, a bust or 21; a split plays each
        hand in turn."""
        if state["phase"] == PHASE_INSURANCE:
            # the dealer peeks: the model's play values are those of no dealer blackjack, so the hand goes on
            return {**state, "phase": PHASE_PLAY, "insured": chosen == "insurance"}
        # a round dealt before splits were played on keeps its one hand in `cards` alone
        state = {
            "hand": 0,
            "insured": None,
            **state,
            "hands": [{"cards": list(h["cards"]), "end": h["end"]} for h in hands_of(state)],
        }
        current = state["hands"][state["hand"]]
        if chosen == "split":
            first, second = current["cards"]
            current["cards"] = [first]
            state["hands"].insert(state["hand"] + 1, {"cards": [second], "end": ""})
        elif chosen in ("hit", "double"):
            card = draw(doc, state)
            if card is not None:
                current["cards"].append(card)
            total, _soft = bj_cards.total(current["cards"])
            if total > 21:
                current["end"] = "bust"
            elif chosen == "double" or card is None:
                current["end"] = chosen if card is not None else "stand"
            elif total == 21:
                current["end"] = "21"
        else:
            current["end"] = chosen  # stand, even money
        return self._play_on(preset, doc, state)

    def warm(self) -> None:
        """The charts of both presets."""
        for preset in PRESETS:
            chart(preset)


STRATEGY = BlackjackStrategy()
