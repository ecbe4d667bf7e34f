"""Simulators: random but procedurally correct rounds, optionally with one injected mistake.

Each variant's simulator lives in its own folder (`dealing/engine/<game>/simulator`, named in
games.py) with `simulate_round(rng, *, mistake=None, **options)` and a `MISTAKES` mapping (mistake
kind -> the finding code it must produce); this package holds what they share (`Simulated`,
`simulate`, `injection.py`). The simulators settle
rounds with their own plain arithmetic, not with the engine's replay, so tests comparing the two
compare independent implementations.
"""

import random
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal


@dataclass
class Simulated:
    """A simulated round log and, when a mistake was injected, what the audit must find."""

    doc: dict
    mistake: str | None = None  # the kind injected, e.g. "wrong_amount"
    code: str | None = None  # the finding code it must produce
    player_delta: Decimal | None = None  # that finding's player_delta, where the code carries one


def module(variant: str):
    """The simulator of a game (named in games.py); ValueError when it has none."""
    from .. import games

    return games.simulator(variant)


def mistakes(variant: str) -> dict[str, str]:
    """Mistake kinds a variant's simulator can inject, with the finding code each produces."""
    return dict(module(variant).MISTAKES)


def simulate(
    variant: str,
    n: int,
    *,
    seed: int | None = None,
    mistake_rate: float = 0.0,
    kinds: list[str] | None = None,
    **options,
) -> Iterator[Simulated]:
    """`n` rounds from one seed: the same seed deals the same rounds."""
    sim = module(variant)
    rng = random.Random(seed)
    pool = list(kinds or sim.MISTAKES)
    for k in range(n):
        kind = rng.choice(pool) if mistake_rate and rng.random() < mistake_rate else None
        yield sim.simulate_round(rng, mistake=kind, number=k, **options)
