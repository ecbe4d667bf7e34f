"""veintiuno's part of the strategy trainer (dealing.games.strategy): two cards against the bank's,
stand, hit, tapo y quedo or withdraw; a natural is paid at once and never dealt. The game has no
total-dependent chart."""

from django.utils.translation import gettext as _

from dealing.engine.cards import RANK_NAMES
from dealing.engine.veintiuno import rules as veintiuno_rules
from dealing.engine.veintiuno.math import ev as veintiuno_ev
from dealing.games.strategy import DRAWS, PHASE_DONE, PHASE_PLAY, GameStrategy, asked, draw, gap

KEYS = {"stand": "S", "hit": "H", "tapo": "T", "withdraw": "W"}


def total(cards: list[str]) -> tuple[int, bool]:
    """(count, soft) of a veintiuno hand counted card by card (J, Q, K are 10; an ace 1 or 11)."""
    hard = sum(10 if c[0] in "JQK" else 1 if c[0] == "A" else int(c[0]) for c in cards)
    if "A" in (c[0] for c in cards) and hard <= 11:
        return hard + 10, True
    return hard, False


def natural(cards: list[str]) -> bool:
    return len(cards) == 2 and sorted(c[0] in "JQK" and "P" or c[0] for c in cards) == ["A", "P"]


class VeintiunoStrategy(GameStrategy):
    keys = KEYS

    def ask(self, preset, cards, dealer, bet, *, hands=1, removed=(), rules=None) -> dict:
        doc = veintiuno_ev.ev(cards, bank=dealer, rules=dict(rules or {}))
        return asked(dict(doc["options"]), doc)

    def situation(self, cards, dealer, bet, phase=PHASE_PLAY, split=False) -> str:
        """ "13 in two cards vs 7", "soft 17 vs K"."""
        best, soft = total(cards)
        if len(cards) == 2 and best == 13:
            return _("13 in two cards vs %(up)s") % {"up": RANK_NAMES.get(dealer[0], dealer[0])}
        return f"{_('soft') if soft else _('hard')} {best} vs {RANK_NAMES.get(dealer[0], dealer[0])}"

    def pack(self, preset: str) -> list[str]:
        return list(veintiuno_rules.PACK)

    def candidate(self, preset, rng, rules):
        drawn = rng.sample(self.pack(preset), 3 + DRAWS)
        hand = {"cards": drawn[:2], "dealer": drawn[2], "draws": drawn[3:]}
        if natural(hand["cards"]):
            return hand, None
        return hand, gap(self.ask(preset, hand["cards"], hand["dealer"], None, rules=rules)["options"])

    def no_decision(self, hand: dict) -> bool:
        return natural(hand["cards"])

    def advance(self, preset, doc, state, chosen) -> dict:
        """A hit takes the next card and the hand goes on until it is over 21 or the engine offers
        only the stand (21, seven cards); tapo y quedo takes one card face down and stands."""
        state = {**state, "cards": list(state["cards"])}
        if chosen not in ("hit", "tapo"):
            return {**state, "phase": PHASE_DONE, "end": chosen}  # stand, withdraw
        card = draw(doc, state)
        if card is None:  # pragma: no cover - thirty small cards
            return {**state, "phase": PHASE_DONE, "end": "stand"}
        state["cards"].append(card)
        if chosen == "tapo":
            return {**state, "phase": PHASE_DONE, "end": "tapo"}
        count, _soft = total(state["cards"])
        if count > 21:
            return {**state, "phase": PHASE_DONE, "end": "bust"}
        options = self.ask("", state["cards"], doc["dealer"], None, rules=doc.get("rules"))["options"]
        if len(options) == 1:
            return {
                **state,
                "phase": PHASE_DONE,
                "end": "trillona" if len(state["cards"]) == 7 and count == 21 else "21",
            }
        return state


STRATEGY = VeintiunoStrategy()
