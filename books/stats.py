"""The exact tests the books share (dealer performance, integrity signals), from scipy's special
functions: the binomial tail through the regularized incomplete beta, the hypergeometric tail from
scipy.stats. Summed term by term in Python (as they once were) they cost time in proportion to the
counts: at a casino's year (a dealer with 50,000 errors) the performance page took seconds.

    binom_sf(k, n, p)                  P(X ≥ k) for X ~ Binomial(n, p)
    hypergeom_sf(k, total, marked, n)  the one-sided Fisher exact test of a 2×2 table
    norm_sf(z)                         P(Z ≥ z) for a standard normal Z
    holm(p_values)                     Holm's step-down adjustment across a family of tests
"""

import math


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Bin(n, p)."""
    from scipy import special  # imported on first use: not by every process that loads the books

    if k <= 0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return min(1.0, float(special.bdtrc(k - 1, n, p)))


def hypergeom_sf(k: int, total: int, marked: int, drawn: int) -> float:
    """P(X ≥ k) for X the marked items among `drawn` taken without replacement from `total` items of
    which `marked` are marked (the one-sided Fisher exact test of a 2×2 table)."""
    from scipy.stats import hypergeom  # the signals' scan only: scipy.stats takes a while to import

    if k <= max(0, drawn - (total - marked)):
        return 1.0
    if k > min(drawn, marked):
        return 0.0
    return min(1.0, float(hypergeom.sf(k - 1, total, marked, drawn)))


def norm_sf(z: float) -> float:
    """P(Z ≥ z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: reject where adjusted ≤ alpha, and the
    chance of any false flag in the family stays at most alpha."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
