"""Theoretical against actual win: the arithmetic, apart from the queries (books/theory_selectors.py).

For a set of audited rounds in force (from the rollups: audit.models.Rollup)

    handle               Σ initial wagers (and Σ total wagered, shown beside it)
    actual win           Σ win_logged       (take − pay as the dealer logged it)
    theoretical win      Σ initial wagers × e   (e: the game's house edge per unit of initial wager
                                               under the table's house rules, the game's
                                               `theory`: dealing/games/<variant>/theory.py)
    variance of the win  σ² × Σ (each round's initial wagers)²  (σ: the standard deviation of one
                                               round's result per unit of initial wager)
    95 % band            theoretical ± 1.96 × √variance
    dealer errors        Σ win_logged − Σ win_owed   (the money the findings moved)
    chance               Σ win_owed − theoretical
    z, p                 z = (actual − theoretical) / √variance, p = P(|Z| ≥ |z|) = erfc(|z| / √2)
                         under the normal approximation of a sum of many rounds

Rows over several tables (a dealer, a day, a game) add the theoretical and the variance of each
(table, game) part: every table has its own house rules. docs/books.md explains the method and its
approximations (several boxes of one round counted as one wager, the normal law).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from dealing import games
from dealing.games.theory import Edge

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
# The band's two-sided level: 95 %, i.e. ±1.959964 standard deviations under the normal law.
LEVEL = 0.95
Z = 1.959963984540054


def money(value) -> Decimal:
    return (Decimal(value) if value is not None else ZERO).quantize(CENT)


def _json_rules(rules) -> tuple:
    return tuple(sorted((str(k), v) for k, v in (rules or {}).items() if not isinstance(v, (dict, list))))


@lru_cache(maxsize=64)
def _edge(variant: str, rules: tuple) -> Edge:
    """The game's own figures (the `theory` slot of its GAME, dealing/games/<variant>/theory.py)."""
    edge = games.slot_of(variant, "theory")
    if edge is None:
        raise ValueError(f"no house edge known for the game {variant!r}")
    return edge(dict(rules))


def priced() -> list[str]:
    """The games whose house edge is known (those filling the `theory` slot), in the registry's order."""
    return [game.variant for game, _edge in games.filled("theory")]


def edge_for(variant: str, rules: dict | None) -> Edge:
    """The edge and sd of a table's game under its house rules (cached per process)."""
    return _edge(str(variant), _json_rules(rules))


@dataclass
class Figures:
    """Theoretical against actual for one row: sums over its (table, game) parts."""

    rounds: int = 0
    initial_wagers: Decimal = ZERO
    total_wagered: Decimal = ZERO
    actual: Decimal = ZERO
    owed: Decimal = ZERO
    theoretical_exact: Decimal = Decimal(0)
    variance: float = 0.0

    def add(
        self, *, rounds, initial_wagers, initial_wagers_sq, total_wagered, win_logged, win_owed, edge: Edge
    ) -> None:
        initial = Decimal(initial_wagers or 0)
        self.rounds += int(rounds or 0)
        self.initial_wagers += initial
        self.total_wagered += Decimal(total_wagered or 0)
        self.actual += Decimal(win_logged or 0)
        self.owed += Decimal(win_owed or 0)
        self.theoretical_exact += initial * edge.edge
        self.variance += edge.sd * edge.sd * float(initial_wagers_sq or 0)

    def add_priced(self, *, rounds, initial_wagers, total_wagered, win_logged, win_owed, theoretical, variance) -> None:
        """Sums already priced by the database: Σ initial × e and Σ initial² × σ² (SQLite answers
        floats: read through their text)."""

        def d(v) -> Decimal:
            return Decimal(str(v)) if v is not None else Decimal(0)

        self.rounds += int(rounds or 0)
        self.initial_wagers += d(initial_wagers)
        self.total_wagered += d(total_wagered)
        self.actual += d(win_logged)
        self.owed += d(win_owed)
        self.theoretical_exact += d(theoretical)
        self.variance += float(variance or 0)

    def merge(self, other: Figures) -> None:
        self.rounds += other.rounds
        self.initial_wagers += other.initial_wagers
        self.total_wagered += other.total_wagered
        self.actual += other.actual
        self.owed += other.owed
        self.theoretical_exact += other.theoretical_exact
        self.variance += other.variance

    @property
    def theoretical(self) -> Decimal:
        return money(self.theoretical_exact)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def half_band(self) -> Decimal:
        return money(Decimal(repr(Z * self.sd)))

    @property
    def band_low(self) -> Decimal:
        return money(self.theoretical_exact - Decimal(repr(Z * self.sd)))

    @property
    def band_high(self) -> Decimal:
        return money(self.theoretical_exact + Decimal(repr(Z * self.sd)))

    @property
    def difference(self) -> Decimal:
        return money(self.actual - self.theoretical_exact)

    @property
    def errors(self) -> Decimal:
        """What the dealers' mistakes moved: win as logged − win as the rules owed."""
        return money(self.actual - self.owed)

    @property
    def chance(self) -> Decimal:
        """The rest of the difference: win as owed − theoretical."""
        return money(self.owed - self.theoretical_exact)

    @property
    def z(self) -> float | None:
        if self.variance <= 0:
            return None
        return float(self.actual - self.theoretical_exact) / self.sd

    @property
    def p_value(self) -> float | None:
        """Two-sided: the chance of a result at least this far from the theoretical, either way."""
        z = self.z
        return None if z is None else math.erfc(abs(z) / math.sqrt(2))

    @property
    def outside(self) -> bool:
        z = self.z
        return z is not None and abs(z) > Z

    @property
    def hold(self) -> Decimal | None:
        """Actual win per unit of initial wager, in %."""
        if not self.initial_wagers:
            return None
        return (self.actual * 100 / self.initial_wagers).quantize(CENT)

    def as_dict(self) -> dict:
        p = self.p_value
        return {
            "rounds": self.rounds,
            "initial_wagers": _s(self.initial_wagers),
            "total_wagered": _s(self.total_wagered),
            "actual": _s(self.actual),
            "owed": _s(self.owed),
            "theoretical": _s(self.theoretical),
            "band_low": _s(self.band_low),
            "band_high": _s(self.band_high),
            "sd": _s(money(Decimal(repr(self.sd)))),
            "difference": _s(self.difference),
            "errors": _s(self.errors),
            "chance": _s(self.chance),
            "z": None if self.z is None else round(self.z, 3),
            "p_value": None if p is None else round(p, 6),
            "outside_band": self.outside,
        }


def _s(value: Decimal) -> str:
    return f"{money(value):f}"
