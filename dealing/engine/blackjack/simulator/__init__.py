"""Blackjack rounds for both seed rulesets (rules/blackjack.md): house-played seats following a
basic strategy, with now and then a player's wrong (but legal) decision; insurance, even money,
splits to the preset's limit, doubles and, online, the jackpot side bet.

The dealer never errs unless asked to: `simulate_round(rng, mistake="dealer_hits_soft_17")` deals
a round in which the dealer makes that one mistake and reports the finding code (and, for money
mistakes, the `player_delta`) the audit must find. Settlements here are worked out with this
package's own arithmetic, independent of the engine's replay.

The package: rules.py (the presets and the mistakes), cards.py (the arithmetic and basic strategy),
round.py (one round); here, a round asked for and a shoe.
"""

from decimal import Decimal

from ...simulators import Simulated
from ...simulators.injection import until_written
from .cards import CENT, PLAYERS, RANKS, VALUE, basic_strategy, natural, new_shoe, three_to_two, total
from .round import Round
from .rules import DEALT_MISTAKES, MISTAKES, PRESETS, RULE_NAMES

__all__ = [
    "MISTAKES",
    "PRESETS",
    "RANKS",
    "VALUE",
    "PLAYERS",
    "CENT",
    "new_shoe",
    "total",
    "natural",
    "three_to_two",
    "basic_strategy",
    "simulate_round",
    "simulate_shoe",
]


def simulate_round(
    rng,
    *,
    mistake: str | None = None,
    number: int = 0,
    preset: str = "salon",
    table_min=None,
    table_max=None,
    rules: dict | None = None,
    shoe: list[str] | None = None,
    dealer: str = "D-1",
    table_name: str | None = None,
    boxes: tuple[int, int] | None = None,
    insurance: float = 0.15,
    even_money: float = 0.35,
    errors: float = 0.04,
    jackpot: float = 0.5,
    attempts: int = 25,
    seats: dict | None = None,
) -> Simulated:
    """One round. With `mistake`, retry until the dealt round gives that mistake a place to happen.

    Options: `preset` (salon | online), `table_min` / `table_max`, `rules` (house-rule overrides),
    `boxes` (how many boxes play: (fewest, most)), `insurance` / `even_money` (how often a seat takes
    them when offered), `errors` (how often a seat departs from basic strategy), `jackpot` (how
    often an online seat places the side bet), `shoe` (deal from this list, popping from its end),
    `seats` (box -> a player of players.py, who bets and plays himself; see players.simulate_table).
    """
    if mistake is not None and mistake not in MISTAKES:
        raise ValueError(f"unknown mistake {mistake!r} (known: {', '.join(MISTAKES)})")
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    overrides = dict(rules or {})
    in_force = {**PRESETS[preset], **{k: v for k, v in overrides.items() if k in RULE_NAMES}}
    for key in ("jackpot_bet", "jackpot_amount"):
        in_force[key] = Decimal(in_force[key])
    lo = Decimal(table_min) if table_min is not None else PRESETS[preset]["min"]
    hi = Decimal(table_max) if table_max is not None else PRESETS[preset]["max"]
    options = dict(
        preset=preset,
        overrides=overrides,
        rules=in_force,
        table_min=lo,
        table_max=hi,
        dealer=dealer,
        table_name=table_name,
        boxes=boxes or (1, in_force["boxes"]),
        insurance=insurance,
        even_money=even_money,
        errors=errors,
        jackpot=jackpot,
        seats=seats,
    )

    def deal(source: list[str], wanted: str | None) -> Round:
        # Rigged for a dealt mistake only from a fresh shoe: a given shoe is dealt as it lies.
        return Round(
            rng,
            source,
            wanted if wanted in DEALT_MISTAKES else None,
            rig=shoe is None and wanted is not None,
            wanted=wanted,
            **options,
        )

    return until_written(mistake, attempts, shoe, lambda: new_shoe(rng, in_force["decks"]), deal)


# --- a shoe ------------------------------------------------------------------------------------


def simulate_shoe(
    rng,
    *,
    rounds: int,
    preset: str = "salon",
    rules: dict | None = None,
    table_min=None,
    table_max=None,
    dealer: str = "D-1",
    table_name: str | None = None,
    **options,
) -> dict:
    """A correct `shoe/1` document of `rounds` rounds: salon shoes are played down to the cut and
    replaced; online, every round comes from a freshly shuffled shoe."""
    in_force = {**PRESETS[preset], **(rules or {})}
    decks = in_force["decks"]
    cut = in_force["cut_remaining"]
    lo = Decimal(table_min) if table_min is not None else PRESETS[preset]["min"]
    hi = Decimal(table_max) if table_max is not None else PRESETS[preset]["max"]
    items: list[dict] = []
    shoe: list[str] = []
    for k in range(rounds):
        if not shoe or cut is None or len(shoe) < cut:
            shoe = new_shoe(rng, decks)
            items.append({"e": "shuffle", "by": dealer})
        sim = simulate_round(
            rng,
            number=k,
            preset=preset,
            rules=rules,
            table_min=lo,
            table_max=hi,
            shoe=shoe,
            dealer=dealer,
            table_name=table_name,
            **options,
        )
        items.append({"e": "round", "round": sim.doc})
        if cut is None:
            shoe = []
    doc = {
        "format": "shoe/1",
        "variant": "blackjack",
        "table": {"min": lo, "max": hi},
        "rules": {"preset": preset, **(rules or {})},
        "items": items,
    }
    return doc
