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

from dealing import engine
from dealing.engine.money import fmt
from dealing.engine.simulators import module as simulator

OCHKO, BLACKJACK, VEINTIUNO = "ochko", "blackjack", "veintiuno"
PRESETS = {BLACKJACK: ("salon", "online")}
MAX_BOXES = {OCHKO: 6, (BLACKJACK, "salon"): 5, (BLACKJACK, "online"): 1, VEINTIUNO: 5}
MAX_ROUNDS = 100


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


# The chips include the small denominations a payout of the game needs (dealer bets of 1 unit,
# Bets of 1.5 Antes, 3:2 on odd bets), so every amount owed can be built from the tray.
TABLES: dict[tuple[str, str], list[Setup]] = {
    (OCHKO, ""): [
        _setup("r100", "R-1", 100, 5000, [1, 5, 25, 100, 500, 1000, 5000]),
        _setup("r500", "R-2", 500, 25000, [1, 5, 25, 100, 500, 1000, 5000, 25000]),
        _setup("r1000", "R-3", 1000, 50000, [1, 5, 25, 100, 500, 1000, 5000, 10000, 50000]),
    ],
    (BLACKJACK, "salon"): [
        _setup("escribas", "Escribas", 100, 5000, [25, 100, 500, 1000, 5000]),
        _setup("sacerdotes", "Sacerdotes", 1000, 50000, [250, 500, 1000, 5000, 10000, 50000]),
    ],
    (BLACKJACK, "online"): [
        _setup("online", "Online-1", 1, 500, ["0.5", 1, 5, 25, 100, 500, 1000]),
    ],
    (VEINTIUNO, ""): [
        _setup("casa", "Casa-21", 5, 100, [1, 5, 10, 25, 100]),
    ],
}


def tables_for(variant: str, preset: str = "") -> list[Setup]:
    return TABLES.get((variant, preset or ""), [])


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
    return MAX_BOXES.get((variant, preset), MAX_BOXES.get(variant, 6))


# --- difficulty: situations a round may include ---------------------------------------------------

FEATURES: dict[str, list[tuple[str, object]]] = {
    OCHKO: [
        ("shared", _("Shared boxes (2–3 players on a box)")),
        ("folds", _("Folds")),
        ("dark", _("Dark cards")),
        ("dealer_bets", _("Dealer bets")),
        ("instants", _("Instant ochko and mnogo")),
    ],
    BLACKJACK: [
        ("splits_doubles", _("Splits and doubles")),
        ("insurance", _("Insurance and even money")),
        ("odd_bets", _("3:2 on odd bets")),
    ],
    VEINTIUNO: [
        ("specials", _("Special hands (natural, moñona, 12, relancina, trillona)")),
        ("splits", _("Splits (abrir)")),
        ("tapo", _("Tapo y quedo")),
    ],
}

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


def default_options(variant: str, preset: str = "", kind: str = "payout") -> dict:
    options = {name: True for name, _label in FEATURES.get(variant, [])}
    options["boxes"] = max_boxes(variant, preset)
    if variant == OCHKO and kind == "procedure":
        options["incidents"] = "some"
        options["incident_kinds"] = list(INCIDENT_KINDS)
    return options


def clean_options(variant: str, preset: str, kind: str, raw: dict | None) -> dict:
    """The difficulty options in force: known keys only, each of the right type, within limits."""
    options = default_options(variant, preset, kind)
    raw = raw or {}
    for name, _label in FEATURES.get(variant, []):
        if name in raw:
            options[name] = bool(raw[name])
    if raw.get("boxes") is not None:
        boxes = int(raw["boxes"])
        options["boxes"] = max(1, min(boxes, max_boxes(variant, preset)))
    if variant == OCHKO and kind == "procedure":
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

def _knobs(variant: str, preset: str, options: dict, setup: Setup) -> dict:
    on = options.get
    boxes = (1, max(1, int(options.get("boxes", 6))))
    if variant == OCHKO:
        return dict(table_min=setup.min, table_max=setup.max, boxes=boxes, incidents=0,
                    shared=0.35 if on("shared") else 0.0, fold=0.15 if on("folds") else 0.0,
                    dark=0.2 if on("dark") else 0.0, dealer_bets=0.4 if on("dealer_bets") else 0.0)
    if variant == BLACKJACK:
        return dict(preset=preset or "salon", table_min=setup.min, table_max=setup.max, boxes=boxes,
                    insurance=0.5 if on("insurance") else 0.0, even_money=0.5 if on("insurance") else 0.0)
    return dict(table_min=setup.min, table_max=setup.max, seats=boxes,
                specials=0.5 if on("specials") else 0.0, split=0.6 if on("splits") else 0.0,
                tapo=0.2 if on("tapo") else 0.0)


def features_of(doc: dict, outcome=None) -> set[str]:
    """The difficulty features a dealt round shows."""
    variant = doc["variant"]
    events = doc["events"]
    kinds = {ev["e"] for ev in events}
    found: set[str] = set()
    if variant == OCHKO:
        boxes: dict[int, int] = {}
        for stake in doc["stakes"]:
            boxes[stake["box"]] = boxes.get(stake["box"], 0) + 1
            if stake.get("dealer_bet") is not None:
                found.add("dealer_bets")
        if any(n > 1 for n in boxes.values()):
            found.add("shared")
        if "fold" in kinds:
            found.add("folds")
        if "dark" in kinds:
            found.add("dark")
        outcome = outcome or engine.replay(doc)
        if any(w.kind in ("instant", "instant_db") for w in outcome.wagers or []):
            found.add("instants")
    elif variant == BLACKJACK:
        if kinds & {"split", "double"}:
            found.add("splits_doubles")
        if kinds & {"insurance", "even_money"}:
            found.add("insurance")
        unit = Decimal(str(doc["table"]["min"]))
        outcome = outcome or engine.replay(doc)
        for w in outcome.wagers or []:
            if w.wager == "bet" and w.result == "pay" and w.amount != w.size and (w.amount / unit) % 1:
                found.add("odd_bets")
    else:
        if kinds & {"split"}:
            found.add("splits")
        if "tapo" in kinds:
            found.add("tapo")
        outcome = outcome or engine.replay(doc)
        if "declare" in kinds or any(w.result == "pay" and w.amount > w.size for w in outcome.wagers or []):
            found.add("specials")
    return found


def deal_round(*, variant: str, preset: str, options: dict, setup: Setup, rng: random.Random,
               incidents: float = 0.0, attempts: int = 40) -> dict:
    """A finished, correct round log (with the dealer's settlement) that fits the options.

    Situations switched off are never dealt; among those switched on, the round shows at least one
    when the simulator can find such a round within `attempts` tries (a few situations, like a
    natural on an odd bet, are rare and need several tries).
    """
    sim = simulator(variant)
    knobs = _knobs(variant, preset, options, setup)
    if variant == OCHKO:
        knobs["incidents"] = incidents
    names = [name for name, _label in FEATURES.get(variant, [])]
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
