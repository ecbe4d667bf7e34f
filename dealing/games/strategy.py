"""What the strategy trainer needs of a game (the `strategy` slot of its GAME): the engine's `ev/1`
of a hand with the options the trainer offers, the chart's play, how a situation is said, how a
hand is dealt from the drill's seeded shoe and how it goes on after each choice.

The trainer itself (drills/strategy.py, a layer above dealing) weights the hands, grades a choice
and keeps the round's state; it asks the game's `GameStrategy` for everything particular to a
game and never names one. Each game fills one in `dealing/games/<variant>/strategy.py`.
"""

from decimal import Decimal

DRAWS = 10  # cards kept in the round's order for the hits
CENT = Decimal("0.01")
NO_DECISION = Decimal("0.002")  # the weight of a tie or a hand with one option: rarely dealt
GAP_SCALE = Decimal("0.02")  # a gap of 0.02 wagers weighs half of a gap of 0

PHASE_BET, PHASE_INSURANCE, PHASE_PLAY, PHASE_DONE = "bet", "insurance", "play", "done"


def weight(gap: Decimal | None) -> Decimal:
    """How likely a situation is kept: 1 / (GAP_SCALE + gap), almost nothing for a tie."""
    if gap is None or gap <= 0:
        return NO_DECISION
    return 1 / (GAP_SCALE + gap)


def gap(options: dict[str, str]) -> Decimal | None:
    """The EV margin between the best and the second-best option (None with one option)."""
    values = sorted((Decimal(v) for v in options.values()), reverse=True)
    return values[0] - values[1] if len(values) > 1 else None


def best(options: dict[str, str]) -> str:
    return max(options, key=lambda k: Decimal(options[k]))  # dicts keep the contract's tie order


def asked(options: dict[str, str], doc: dict) -> dict:
    """The trainer's answer of a question: the options offered, the best of them, the engine's best."""
    return {"options": options, "best": best(options), "engine_best": doc["best"]}


def draw(doc: dict, state: dict) -> str | None:
    """The next card of the round's order (None when none is left), counted in the state."""
    if state["drawn"] >= len(doc["draws"]):  # pragma: no cover - thirty cards without an end
        return None
    card = doc["draws"][state["drawn"]]
    state["drawn"] += 1
    return card


def hands_of(state: dict) -> list[dict]:
    """The hands of the box (one until a split)."""
    return state.get("hands") or [{"cards": state["cards"], "end": state["end"]}]


def seen_elsewhere(state: dict) -> tuple:
    """The cards of the box's other hands: out of the shoe for the hand in play."""
    return tuple(c for k, h in enumerate(hands_of(state)) if k != state.get("hand", 0) for c in h["cards"])


def rules_key(rules: dict | None) -> tuple:
    """House rules as a hashable key (the charts are cached by it)."""
    return tuple(sorted((rules or {}).items()))


class GameStrategy:
    """A game's part of the strategy trainer. Hands are dicts: `cards` (the player's first cards),
    `dealer` (the dealer's or bank's up card), `draws` (the cards a hit takes, in order)."""

    keys: dict[str, str] = {}  # option -> its key letter, at the play
    house_rules: tuple[str, ...] = ()  # the house rules a trainee may choose for the trainer's table
    # How the drill start page asks for each of them: (name, label, choices), the default first.
    house_rule_fields: tuple[tuple[str, object, tuple], ...] = ()

    def keys_of(self, phase: str) -> dict[str, str]:
        """The options' key letters in a phase of the hand."""
        return self.keys

    def ask(
        self,
        preset: str,
        cards: list[str],
        dealer: str | None,
        bet: int | None,
        *,
        hands: int = 1,
        removed: tuple = (),
        rules: dict | None = None,
    ) -> dict:
        """The engine's `ev/1` for the hand: {"options", "best", "engine_best"} (`asked`)."""
        raise NotImplementedError

    def ask_insurance(self, preset: str, cards: list[str], dealer: str) -> dict | None:
        """The insurance decision, in initial wagers; None when the game offers none."""
        return None

    def chart_action(
        self, preset: str, cards: list[str], dealer: str | None, bet: int | None, offered: dict, rules: dict | None
    ) -> str | None:
        """What the total-dependent chart (`strategy/1`) plays here; None where it has no cell."""
        return None

    def situation(self, cards: list[str], dealer: str | None, bet: int | None, phase: str, split: bool) -> str:
        raise NotImplementedError

    def candidate(self, preset: str, rng, rules: dict | None) -> tuple[dict, Decimal | None]:
        """One situation and the gap of its first decision played from the keyboard."""
        raise NotImplementedError

    def no_decision(self, hand: dict) -> bool:
        """A hand paid at once, nothing to decide: never dealt."""
        return False

    def dealt(self, preset: str, hand: dict, rng) -> dict:
        """The hand kept, with whatever more it needs of the round's order (blackjack: split hands)."""
        return hand

    def start_state(self, hand: dict) -> dict:
        return {"phase": PHASE_PLAY, "cards": list(hand["cards"]), "bet": None, "drawn": 0, "end": ""}

    def advance(self, preset: str, doc: dict, state: dict, chosen: str) -> dict:
        """The state after the option chosen."""
        raise NotImplementedError

    def clean_house_rules(self, raw) -> dict:
        """The trainer's house rules of this game, the defaults left out; ValueError for anything else."""
        if raw in (None, ""):
            return {}
        raise ValueError("house_rules")

    def warm(self) -> None:
        """Solve the charts the trainer compares with."""
