"""Veintiuno rounds (21 ecuatoriano) dealt from a 40-card pack by the rules of rules/veintiuno.md.

The players and the bank here never err unless asked to: `simulate_round(rng, mistake="tie_paid")`
deals a correct round and then commits that one mistake, reporting the finding code and the
`player_delta` the audit must find. The simulator settles every hand with its own plain
arithmetic (`hand_result`), not with the engine's replay, so tests comparing the two compare
independent implementations.

`simulate_session` plays a whole game night: the first bank drawn by high card, the pack dealt to
the end and gathered again, the bank passing to the first declared natural of each round.

The package: cards.py (the arithmetic and the pack), round.py (one round and its mistakes); here,
a game night.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from ...simulators import Simulated
from .cards import HIGH_CARD, PLAYERS, RANKS, SUITS, Pack, PackExhausted, best, hand_result, hard, points, special
from .round import MISTAKES, simulate_round

__all__ = [
    "MISTAKES",
    "Pack",
    "PackExhausted",
    "Session",
    "draw_for_bank",
    "simulate_round",
    "simulate_session",
    "simulate_shoe",
    "hand_result",
    "hard",
    "best",
    "special",
    "points",
    "HIGH_CARD",
    "PLAYERS",
    "RANKS",
]


@dataclass
class Session:
    """A simulated game night: who sat where, the draw for the first bank, every round in order."""

    players: list[str]  # in seating order around the table
    draw: list[dict]  # the draw for the first bank: one {player: card} per pass (ties draw again)
    first_bank: str
    unit: Decimal
    rounds: list[dict] = field(default_factory=list)  # round/1 documents
    simulated: list[Simulated] = field(default_factory=list)
    banks: list[str] = field(default_factory=list)  # who held the bank in each round
    limits: list[tuple[Decimal, Decimal]] = field(default_factory=list)  # the bank's limits in each round
    balances: dict[str, Decimal] = field(default_factory=dict)  # what each player won (+) or lost (-)
    shoe: dict = field(default_factory=dict)  # the shoe/1 document of the pack over the night


def draw_for_bank(rng, players: list[str]) -> tuple[str, list[dict]]:
    """Every player draws a card; the highest (Ace highest) holds the first bank. Ties draw again."""
    draws = []
    contenders = list(players)
    while True:
        cards = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(cards)
        drawn = {p: cards.pop() for p in contenders}
        draws.append(drawn)
        top = max(HIGH_CARD[c[0]] for c in drawn.values())
        contenders = [p for p, c in drawn.items() if HIGH_CARD[c[0]] == top]
        if len(contenders) == 1:
            return contenders[0], draws


def simulate_session(
    rng,
    *,
    players: list[str] | None = None,
    rounds: int = 30,
    unit=5,
    packs: int = 1,
    rules: dict | None = None,
    mistake_rate: float = 0.0,
    kinds: list[str] | None = None,
    **options,
) -> Session:
    """A game night of `rounds` rounds. The pack is dealt to the end and gathered again; the bank
    passes to the first declared natural of each round and announces its limits when it takes over.
    Balances follow the money the log shows moving (so an injected mistake moves them too)."""
    if players is None:
        players = rng.sample(PLAYERS, rng.randint(3, 7))
    unit = Decimal(unit)
    rules = {**(rules or {}), **({"packs": packs} if packs != 1 else {})}
    pack = Pack(rng, packs)
    bank, draw = draw_for_bank(rng, players)
    session = Session(list(players), draw, bank, unit, balances={p: Decimal(0) for p in players})
    items: list[dict] = [{"e": "shuffle", "by": bank}]
    limits = None
    holder = None
    pool = list(kinds or MISTAKES)
    for number in range(rounds):
        if bank != holder:
            low = unit * rng.choice((1, 1, 2))
            limits = (low, low * rng.choice((5, 10, 20)))
            holder = bank
        b = players.index(bank)
        seated = [players[(b + k) % len(players)] for k in range(1, len(players))]
        kind = rng.choice(pool) if mistake_rate and rng.random() < mistake_rate else None
        if kind in ("card_twice", "card_invalid"):
            kind = None  # a made-up card would break the pack's own bookkeeping
        sim = simulate_round(
            rng,
            mistake=kind,
            number=number,
            table_min=limits[0],
            table_max=limits[1],
            unit=unit,
            rules=rules,
            pack=pack,
            bank=bank,
            players=seated,
            **options,
        )
        session.simulated.append(sim)
        session.rounds.append(sim.doc)
        session.banks.append(bank)
        session.limits.append(limits)
        items.append({"e": "round", "round": sim.doc})
        owners = {s["id"]: s["player"] for s in sim.doc["stakes"]}
        for ev in sim.doc["events"]:
            if ev["e"] == "pay":
                session.balances[owners[ev["stake"]]] += ev["amount"]
                session.balances[bank] -= ev["amount"]
            elif ev["e"] == "take":
                session.balances[owners[ev["stake"]]] -= ev["amount"]
                session.balances[bank] += ev["amount"]
            elif ev["e"] == "bank_to":
                passed = ev["player"]
        bank = passed if passed in players else bank
    session.shoe = {
        "format": "shoe/1",
        "variant": "veintiuno",
        "table": {"min": unit, "max": unit * 40},
        "rules": rules,
        "items": items,
    }
    return session


def simulate_shoe(rng, *, rounds: int, **options) -> dict:
    """A `shoe/1` document of veintiuno: one pack followed through a correct game night."""
    return simulate_session(rng, rounds=rounds, **options).shoe
