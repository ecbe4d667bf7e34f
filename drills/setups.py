"""What a drill deals: the practice tables (limits and chips), the difficulty options of each
game, and the rounds themselves, drawn from the engine's simulators.

Everything here is decided by the drill's seed: `round_rng(seed, number)` gives each round its
own generator, so the same seed deals the same rounds whatever the trainee answers, and a round
can be dealt again at any time.
"""

import random
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext_lazy as _

from dealing import games
from dealing.engine.money import fmt
from dealing.engine.simulators import module as simulator
from dealing.games.drills import GameDrills

from . import strategy
from .choices import Kind

MAX_ROUNDS = 100


def game(variant: str) -> GameDrills | None:
    """A game's drill set-ups (dealing/games/<variant>/drills.py), or None for a game without drills."""
    found = games.get(variant)
    return found.slot("drills") if found is not None else None


def drilled() -> list[GameDrills]:
    """The drill set-ups of every game that has them, in the registry's order."""
    return [d for d in (g.slot("drills") for g in games.all_games()) if d is not None]


@dataclass(frozen=True)
class Setup:
    """A practice table: its name, Ante (or bet) limits and the chips in its float."""

    key: str
    name: str
    min: Decimal
    max: Decimal
    chips: tuple[Decimal, ...]

    @property
    def label(self) -> str:
        return f"{self.name} · {fmt(self.min)}–{fmt(self.max)}"


def _setup(key, name, low, high, chips) -> Setup:
    return Setup(key, name, Decimal(low), Decimal(high), tuple(Decimal(str(c)) for c in chips))


# The chips of a game's tables include the small denominations a payout needs (dealer bets of 1
# unit, Bets of 1.5 Antes, 3:2 on odd bets), so every amount owed can be built from the tray.
# Read from the registry when asked: a game registered at run time (the tests' toy) is drilled too.
def tables() -> dict[tuple[str, str], list[Setup]]:
    """(game, preset) -> its practice tables, of every game that has drills."""
    return {
        (d.variant, preset): [_setup(*table) for table in found]
        for d in drilled()
        for preset, found in d.tables.items()
    }


def presets() -> dict[str, tuple[str, ...]]:
    """game -> its presets, of the games that have any."""
    return {d.variant: d.presets for d in drilled() if d.presets}


def tables_for(variant: str, preset: str = "") -> list[Setup]:
    drills = game(variant)
    found = drills.tables.get(preset or "") if drills is not None else None
    return [_setup(*table) for table in found or []]


def table_setup(variant: str, preset: str, key: str | None) -> Setup:
    """The practice table named `key` (the first of the game when `key` is empty)."""
    tables = tables_for(variant, preset)
    if not tables:
        raise KeyError((variant, preset))
    if not key:
        return tables[0]
    for setup in tables:
        if setup.key == key:
            return setup
    raise KeyError(key)


def max_boxes(variant: str, preset: str = "") -> int:
    drills = game(variant)
    boxes = drills.max_boxes if drills is not None else {}
    return boxes.get(preset, boxes.get("", 6))


# --- difficulty: situations a round may include ---------------------------------------------------


def features() -> dict[str, list[tuple[str, object]]]:
    """game -> its difficulty options, of every game that has drills, in the registry's order."""
    return {d.variant: d.features for d in drilled()}


def _features_of(variant: str) -> list[tuple[str, object]]:
    drills = game(variant)
    return drills.features if drills is not None else []


# Incidents a procedure drill can weave in (ochko: rules/ochko.md, Incidents and The shoe).
INCIDENTS = [
    ("dealer_card_exposed", _("Your own card flips during the deal")),
    ("misdrawn_hidden", _("A card drawn by mistake, not seen")),
    ("misdrawn_exposed", _("A card drawn by mistake, exposed")),
    ("shuffle_demand", _("A player demands a new shuffle")),
    ("paid_burn", _("A player asks for a paid burn")),
    ("dealer_change", _("A new dealer takes over")),
]
INCIDENT_KINDS = tuple(k for k, _label in INCIDENTS)
INCIDENT_RATES = {"none": 0.0, "some": 0.5, "every": 1.0}


def weaves_incidents(variant: str, kind: str = "procedure") -> bool:
    """Whether drills of this kind weave the floor's incidents into a game's rounds (ochko's procedure)."""
    drills = game(variant)
    return kind == Kind.PROCEDURE and drills is not None and drills.incidents


def incident_games() -> list[str]:
    """The games whose procedure drills weave in the floor's incidents, in the registry's order."""
    return [d.variant for d in drilled() if weaves_incidents(d.variant)]


def default_options(variant: str, preset: str = "", kind: str = "payout") -> dict:
    options = {name: True for name, _label in _features_of(variant)}
    options["boxes"] = max_boxes(variant, preset)
    if weaves_incidents(variant, kind):
        options["incidents"] = "some"
        options["incident_kinds"] = list(INCIDENT_KINDS)
    return options


def clean_options(variant: str, preset: str, kind: str, raw: dict | None) -> dict:
    """The difficulty options in force: known keys only, each of the right type, within limits."""
    options = default_options(variant, preset, kind)
    raw = raw or {}
    for name, _label in _features_of(variant):
        if name in raw:
            options[name] = bool(raw[name])
    if raw.get("boxes") is not None:
        boxes = int(raw["boxes"])
        options["boxes"] = max(1, min(boxes, max_boxes(variant, preset)))
    if kind == Kind.STRATEGY and strategy.house_rules_of(variant) and raw.get("house_rules"):
        # the table's house rules pick the box's EVs and the charts (ValueError: not a rule of the game)
        options["house_rules"] = strategy.clean_house_rules(variant, raw["house_rules"])
    if weaves_incidents(variant, kind):
        if raw.get("incidents") is not None:
            options["incidents"] = raw["incidents"] if raw["incidents"] in INCIDENT_RATES else "some"
        if raw.get("incident_kinds") is not None:
            kinds = [k for k in raw["incident_kinds"] if k in INCIDENT_KINDS]
            options["incident_kinds"] = kinds or list(INCIDENT_KINDS)
    return options


def round_rng(seed: int, number: int, purpose: str = "deal") -> random.Random:
    """The generator of one round: independent of every other round and of the answers."""
    return random.Random(f"drill/{seed}/{number}/{purpose}")


# --- dealing ------------------------------------------------------------------------------------------


def features_of(doc: dict, outcome=None) -> set[str]:
    """The difficulty features a dealt round shows."""
    return game(doc["variant"]).features_of(doc, outcome)


def deal_round(
    *,
    variant: str,
    preset: str,
    options: dict,
    setup: Setup,
    rng: random.Random,
    incidents: float = 0.0,
    attempts: int = 40,
) -> dict:
    """A finished, correct round log (with the dealer's settlement) that fits the options.

    Situations switched off are never dealt; among those switched on, the round shows at least one
    when the simulator can find such a round within `attempts` tries (a few situations, like a
    natural on an odd bet, are rare and need several tries).
    """
    sim = simulator(variant)
    drills = game(variant)
    knobs = drills.knobs(preset, options, setup.min, setup.max, incidents)
    names = [name for name, _label in drills.features]
    wanted = {n for n in names if options.get(n)}
    excluded = {n for n in names if not options.get(n)}
    fallback = None
    for _attempt in range(attempts):
        doc = sim.simulate_round(rng, **knobs).doc
        found = features_of(doc)
        if found & excluded:
            continue
        if not wanted or found & wanted:
            return doc
        fallback = fallback or doc
    return fallback or doc
