"""The toy game's part of the strategy trainer (dealing.games.strategy, tests only): the box's card
against the dealer's, both face up; play (win or lose the bet) or fold (lose half of it)."""

from decimal import Decimal

from dealing.games.strategy import DRAWS, PHASE_DONE, GameStrategy, gap

from . import rules as toy_rules

FOLD = Decimal("-0.5")


def _rank(card: str) -> int:
    return toy_rules.RANKS.index(card[0])


class ToyStrategy(GameStrategy):
    keys = {"play": "P", "fold": "F"}

    def ask(self, preset, cards, dealer, bet, *, hands=1, removed=(), rules=None) -> dict:
        play = Decimal(1) if _rank(cards[0]) > _rank(dealer) else Decimal(-1)
        options = {"play": str(play), "fold": str(FOLD)}
        return {"options": options, "best": "play" if play > FOLD else "fold", "engine_best": "play"}

    def situation(self, cards, dealer, bet, phase, split) -> str:
        return f"{cards[0]} vs {dealer}"

    def candidate(self, preset, rng, rules):
        drawn = rng.sample(list(toy_rules.PACK), 2 + DRAWS)
        hand = {"cards": drawn[:1], "dealer": drawn[1], "draws": drawn[2:]}
        return hand, gap(self.ask(preset, hand["cards"], hand["dealer"], None)["options"])

    def advance(self, preset, doc, state, chosen) -> dict:
        return {**state, "phase": PHASE_DONE, "end": chosen}


STRATEGY = ToyStrategy()
