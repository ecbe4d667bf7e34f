"""The exact tests the books share (dealer performance, integrity signals), in plain Python: scipy is
not a dependency, and each is a few lines of sums in log space.

    binom_sf(k, n, p)                  P(X ≥ k) for X ~ Binomial(n, p)
    hypergeom_sf(k, total, marked, n)  the one-sided Fisher exact test of a 2×2 table
    norm_sf(z)                         P(Z ≥ z) for a standard normal Z
    holm(p_values)                     Holm's step-down adjustment across a family of tests
"""

import math

def binom_sf(k: int, n: int, p: float) -> float:
    """P(X ≥ k) for X ~ Bin(n, p), summed exactly in log space (n is at most a few thousand here)."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    lp, lq = math.log(p), math.log1p(-p)
    base = math.lgamma(n + 1)
    terms = [base - math.lgamma(j + 1) - math.lgamma(n - j + 1) + j * lp + (n - j) * lq for j in range(k, n + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * math.fsum(math.exp(t - top) for t in terms))


def hypergeom_sf(k: int, total: int, marked: int, drawn: int) -> float:
    """P(X ≥ k) for X the marked items among `drawn` taken without replacement from `total` items of
    which `marked` are marked (the one-sided Fisher exact test of a 2×2 table)."""
    low, high = max(k, 0, drawn - (total - marked)), min(drawn, marked)
    if low > high:
        return 0.0
    if k <= max(0, drawn - (total - marked)):
        return 1.0

    def lcomb(n, r):
        return math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)

    denominator = lcomb(total, drawn)
    terms = [lcomb(marked, j) + lcomb(total - marked, drawn - j) - denominator for j in range(low, high + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * math.fsum(math.exp(t - top) for t in terms))


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
