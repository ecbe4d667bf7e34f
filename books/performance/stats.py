"""The statistics of dealer performance (docs/dealer-performance.md); every test here is exact, its
distributions from scipy's special functions (their cost does not grow with the counts).

    garwood(k)                      exact Poisson 95 % interval for a count k (Garwood 1936)
    rate_interval(k, n)             that interval as errors per 100 rounds
    conditional_test(x, n, y, m)    one dealer's errors x in n rounds against the rest of the floor's
                                    y in m: exact conditional binomial test, one-sided (dealer above)
    holm(p_values)                  Holm's step-down adjustment across dealers (books/stats.py)
    pace(rows, break_after)         rounds per hour of dealing from the (table, shoe, time) of rounds

Nothing here touches the database; books/performance/selectors.py feeds it from the rollups and the
rounds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from ..stats import binom_sf, holm  # noqa: F401 - holm: the performance selectors' adjustment

ALPHA = 0.05


# --- Poisson ------------------------------------------------------------------------------------------


def garwood(k: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The exact (Garwood) two-sided 1 − alpha interval for the mean of a Poisson count k: the means
    under which a count at least (at most) k has probability alpha/2 — the chi-square quantiles
    χ²(α/2; 2k)/2 and χ²(1 − α/2; 2k + 2)/2, i.e. the quantiles of the gamma distributions of
    shape k and k + 1 (scipy's inverse regularized incomplete gamma)."""
    from scipy import special  # imported on first use (books/stats.py)

    if k < 0:
        raise ValueError("a count is not negative")
    half = alpha / 2
    lower = 0.0 if k == 0 else float(special.gammaincinv(k, half))
    upper = float(special.gammainccinv(k + 1, half))
    return lower, upper


def per_100(count: float, rounds: int) -> Decimal:
    if not rounds:
        return Decimal("0.00")
    return (Decimal(str(count)) * 100 / rounds).quantize(Decimal("0.01"))


def rate_interval(k: int, rounds: int, alpha: float = ALPHA) -> tuple[Decimal, Decimal]:
    """Garwood's interval for errors per 100 rounds (the rounds taken as exposure, known exactly)."""
    if not rounds:
        return Decimal("0.00"), Decimal("0.00")
    low, high = garwood(k, alpha)
    return per_100(round(low, 6), rounds), per_100(round(high, 6), rounds)


# --- the conditional binomial test and Holm --------------------------------------------------------------


def conditional_test(errors: int, rounds: int, rest_errors: int, rest_rounds: int) -> float:
    """One-sided p-value that a dealer's error rate is above the rest of the floor's.

    Two Poisson counts with exposures n and m have, given their sum t, the dealer's count distributed
    Binomial(t, n / (n + m)) when the rates are equal; the p-value is that binomial's chance of at
    least the dealer's count (the exact conditional test, Przyborowski & Wileński 1940)."""
    if rounds <= 0 or rest_rounds <= 0:
        return 1.0
    total = errors + rest_errors
    return binom_sf(errors, total, rounds / (rounds + rest_rounds))


# --- game pace ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pace:
    rounds: int  # the dealer's rounds read
    intervals: int  # the gaps counted as dealing
    seconds: float  # their total length
    breaks: int  # gaps dropped as longer than the break threshold
    shoe_changes: int  # gaps dropped because a new shoe (a shuffle) came between

    @property
    def per_hour(self) -> Decimal | None:
        if not self.intervals or self.seconds <= 0:
            return None
        return (Decimal(self.intervals) * 3600 / Decimal(str(self.seconds))).quantize(Decimal("0.1"))

    @property
    def hours(self) -> Decimal:
        return (Decimal(str(self.seconds)) / 3600).quantize(Decimal("0.01"))


def pace(rows, break_after: dt.timedelta, shortest: dt.timedelta = dt.timedelta(0)) -> Pace:
    """Rounds per hour of dealing from (table id, shoe id, logged at) of one dealer's rounds, in time order.

    A gap between two consecutive rounds of the dealer at the same table is one round's worth of
    dealing, unless it is longer than `break_after` (a break, a relief, the table closed) or a new
    shoe came between them (the shuffle and the load are not dealing). A gap shorter than `shortest`
    (rounds entered together, from a paper log typed in later) is not dealing either.
    Pace = gaps counted ÷ their total length."""
    last: dict[int, tuple] = {}
    rounds = intervals = breaks = shoe_changes = 0
    seconds = 0.0
    limit = break_after.total_seconds()
    floor = max(shortest.total_seconds(), 0.0)
    for table_id, shoe_id, at in rows:
        rounds += 1
        previous = last.get(table_id)
        last[table_id] = (shoe_id, at)
        if previous is None:
            continue
        gap = (at - previous[1]).total_seconds()
        if previous[0] != shoe_id:
            shoe_changes += 1
        elif gap > limit:
            breaks += 1
        elif gap > floor and gap > 0:
            intervals += 1
            seconds += gap
    return Pace(rounds, intervals, seconds, breaks, shoe_changes)
