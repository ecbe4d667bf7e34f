"""The strategy trainer: a hand dealt from the drill's seeded shoe, each decision graded against the
engine's exact `ev/1` for that hand (composition-dependent, docs/analytics-format.md), with the cost
of a mistake in money at the table's stakes.

Every figure comes from the engine's game math (`dealing.engine.math`), asked through the game's
`strategy` slot (dealing.games: `dealing/games/<variant>/strategy.py`, a `GameStrategy`), which
deals its hands, says its situations and plays its options on; this module weights the hands,
keeps the decision in play and grades a choice, and names no game.

Weighting (documented in docs/strategy-trainer.md): each round draws CANDIDATES situations from its
own generator and keeps one with probability proportional to `weight(gap)`, where `gap` is the EV
margin (in initial wagers) between the best and the second-best option of the first decision that
is played from the keyboard. A close but real decision weighs most; a tie (nothing to learn) or a
hand with no decision weighs almost nothing. Same seed, same candidates, same choice: same hands.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from dealing import games
from dealing.engine.math.questions import QuestionError
from dealing.games.strategy import (
    CENT,
    DRAWS,
    GAP_SCALE,
    NO_DECISION,
    PHASE_BET,
    PHASE_DONE,
    PHASE_INSURANCE,
    PHASE_PLAY,
    GameStrategy,
    hands_of,
    seen_elsewhere,
    weight,
)

CANDIDATES = 6


def game(variant: str) -> GameStrategy | None:
    """A game's part of the trainer, or None for a game the trainer does not deal."""
    return games.slot_of(variant, "strategy")


def _game(variant: str) -> GameStrategy:
    found = game(variant)
    if found is None:
        raise KeyError(variant)
    return found


def strategy_games() -> tuple[str, ...]:
    """The games the strategy trainer deals (each has exact option values in the engine)."""
    return tuple(g.variant for g, _s in games.filled("strategy"))


# --- the engine's answers -------------------------------------------------------------------------


def ask(
    variant: str,
    preset: str,
    cards: list[str],
    dealer: str | None,
    bet: int | None,
    *,
    hands: int = 1,
    removed: tuple = (),
    rules: dict | None = None,
) -> dict:
    """The engine's `ev/1` for the hand, with the options the trainer offers at the play (insurance
    is asked apart; `hands` > 1: a hand made by splitting, the other hands' cards `removed`); the
    table's house `rules`."""
    return _game(variant).ask(preset, cards, dealer, bet, hands=hands, removed=removed, rules=rules)


def chart_action(
    variant: str,
    preset: str,
    cards: list[str],
    dealer: str | None,
    bet: int | None,
    offered: dict,
    rules: dict | None = None,
) -> str | None:
    """What the total-dependent chart (`strategy/1`) plays here, or None where it has no cell
    (insurance and even money have none, nor a game without a chart)."""
    if "insurance" in offered or "even_money" in offered:
        return None
    return _game(variant).chart_action(preset, cards, dealer, bet, offered, rules)


def situation(
    variant: str, cards: list[str], dealer: str | None, bet: int | None, phase: str = PHASE_PLAY, split: bool = False
) -> str:
    """The situation as a trainee's mistakes are listed: "soft 18 vs 9", "pair of 8s vs 10",
    "hard 11 vs 6 (split)", "insurance (hard 16)", "blackjack vs A: even money",
    "15 vs 9 (Bet 3)", "first card 8: fold/bet"."""
    return _game(variant).situation(cards, dealer, bet, phase, split)


# --- dealing --------------------------------------------------------------------------------------


def deal(variant: str, preset: str, rng, *, weighted: bool = True, rules: dict | None = None) -> dict:
    """The round's hand: one of CANDIDATES situations, kept by `weight` (uniform when not `weighted`),
    with whatever more the game needs of the round's order (blackjack: cards for split hands)."""
    strategy = _game(variant)
    candidates = [strategy.candidate(preset, rng, rules) for _k in range(CANDIDATES)]
    weights = [
        0.0 if strategy.no_decision(hand) else float(weight(gap)) if weighted else 1.0 for hand, gap in candidates
    ]
    if not any(weights):  # pragma: no cover - six blackjacks in a row
        weights = [1.0] * len(candidates)
    hand, gap = rng.choices(candidates, weights=weights)[0]
    hand = strategy.dealt(preset, hand, rng)
    return {**hand, "gap": None if gap is None else str(gap)}


def start_state(variant: str, hand: dict) -> dict:
    """What the round's script keeps while the hand is played (blackjack: every hand of the box, the
    one in play; a split adds hands)."""
    return _game(variant).start_state(hand)


# --- the decision in play -------------------------------------------------------------------------


@dataclass
class Decision:
    situation: str
    cards: list[str]
    dealer: str | None  # ochko's Bet is chosen before the dealer opens his card
    bet: int | None
    options: dict[str, str]  # option → EV in initial wagers, as the engine writes it
    keys: dict[str, str]  # option → key letter
    best: str
    chart: str | None
    phase: str = PHASE_PLAY
    hand: int = 0  # blackjack: the hand in play (0 until a split, then 0, 1, …)
    hands: int = 1


def decision(variant: str, preset: str, doc: dict, state: dict, *, with_chart: bool = False) -> Decision | None:
    """The decision in play; `with_chart` looks the chart's play up too (grading: a chart is solved
    once per rule set and Bet, seconds cold, so showing the hand does not wait for it)."""
    strategy = _game(variant)
    phase = state["phase"]
    if phase == PHASE_DONE:
        return None
    rules = doc.get("rules") or None
    if phase == PHASE_INSURANCE:
        asked = strategy.ask_insurance(preset, state["cards"], doc["dealer"])
        return Decision(
            strategy.situation(state["cards"], doc["dealer"], None, phase, False),
            list(state["cards"]),
            doc["dealer"],
            None,
            asked["options"],
            dict(strategy.keys_of(phase)),
            asked["best"],
            None,
            phase,
        )
    bet_phase = phase == PHASE_BET
    dealer = None if bet_phase else doc["dealer"]
    bet = None if bet_phase else state.get("bet")
    hands = len(hands_of(state))
    asked = strategy.ask(
        preset,
        state["cards"],
        dealer,
        bet,
        hands=hands,
        removed=seen_elsewhere(state) if hands > 1 else (),
        rules=rules,
    )
    keys = strategy.keys_of(phase)
    chart = None
    if with_chart and hands == 1:  # the chart has no cells for split hands' own rules
        chart = chart_action(variant, preset, state["cards"], dealer, bet, asked["options"], rules)
    return Decision(
        strategy.situation(state["cards"], dealer, bet, phase, hands > 1),
        list(state["cards"]),
        dealer,
        bet,
        asked["options"],
        {k: keys[k] for k in asked["options"]},
        asked["best"],
        chart,
        phase,
        state.get("hand", 0),
        hands,
    )


def choose(d: Decision, choice: str) -> str | None:
    """The option named by `choice` (its key letter, case-insensitive, or its name), or None."""
    text = str(choice).strip()
    if text in d.options:
        return text
    return next((o for o, k in d.keys.items() if k.upper() == text.upper()), None)


def cost(d: Decision, chosen: str, wager: Decimal) -> Decimal:
    """(EV(best) − EV(chosen)) × the initial wager, to the cent."""
    gap = Decimal(d.options[d.best]) - Decimal(d.options[chosen])
    return (gap * wager).quantize(CENT, rounding=ROUND_HALF_UP)


def advance(variant: str, doc: dict, state: dict, chosen: str, preset: str = "") -> dict:
    """The state after the option chosen: a hit takes the next card of the round's order and the
    hand goes on; a blackjack hand ends on stand, double (one card), even money, a bust or 21, a
    split plays each hand in turn; ochko ends on a stand, a dark card, a fold, mnogo or ochko."""
    return _game(variant).advance(preset, doc, state, chosen)


def house_rules_of(variant: str) -> tuple[str, ...]:
    """The house rules a trainee may choose for the trainer's table of a game (none for most)."""
    found = game(variant)
    return found.house_rules if found is not None else ()


def house_rule_groups() -> list[tuple[str, list[str]]]:
    """(game, the names of its house-rule fields) of every game whose trainer table has house rules."""
    return [
        (found.variant, [name for name, _label, _choices in strategy.house_rule_fields])
        for found, strategy in games.filled("strategy")
        if strategy.house_rule_fields
    ]


def house_rule_fields() -> list[tuple[str, object, tuple]]:
    """(name, label, choices) of every house rule a trainee may choose, of every game (the default first)."""
    return [field for _found, strategy in games.filled("strategy") for field in strategy.house_rule_fields]


def clean_house_rules(variant: str, raw) -> dict:
    """A game's house rules for the trainer, the defaults left out; ValueError for anything else."""
    return _game(variant).clean_house_rules(raw)


__all__ = [
    "QuestionError",
    "Decision",
    "advance",
    "choose",
    "cost",
    "deal",
    "decision",
    "situation",
    "weight",
    "CENT",
    "DRAWS",
    "GAP_SCALE",
    "NO_DECISION",
    "PHASE_BET",
    "PHASE_DONE",
    "PHASE_INSURANCE",
    "PHASE_PLAY",
]
