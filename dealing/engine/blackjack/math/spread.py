"""The exact second moment of a split: E[(Σ_k X_k)² · 1{no dealer blackjack}], X_k the net of
split hand k, every hand played by the fixed post-split strategy (solver.py, `Solver.split`;
docs/blackjack-math.md, "The split model" and "The spread of a split round").

Σ_k E[X_k²] is the split's own linear sum (solver.py). What this module adds are the cross terms
E[X_j X_k] (j ≠ k): two hands share the dealer's final total and the shoe. The same argument as
for one hand (exchangeability, patterns of second cards, inclusion–exclusion on the other hands'
"not r") leaves, for each count x of cards r taken out first, the joint value of two hands that
start r off the shoe at the split less x cards r:

    C_ab(x) = E[X_j X_k · 1{j's second card is a} · 1{k's second card is b}],  a, b ∈ {not r, r}

computed exactly here. A hand's play depends only on its own cards, so the ways it can end (its
cards drawn, its second card, its bet, the number of draw orders that lead there) do not depend on
the shoe (`terminals`); the chance of a deal of both hands and the dealer is a product of falling
factorials of the shoe over the union of the cards drawn. So C_ab(x) is one sum over pairs of ends
— gathered once per split by their union — of that chance times the two hands' results multiplied
per dealer result and the dealer's odds off the shoe less the union: the covariance through the
dealer's total and through the depleted shoe are both in it. The coefficients
(`cross_coefficients`) count, over the patterns, the ordered pairs of hands (non-pair / pair) and
the inclusion–exclusion signs.

Ranks: 0 the ace, 1 … 8 the two to the nine, 9 a ten-value card (dealer.py). Values are floats.
"""

from math import comb

import numpy as np

from .dealer import N_RANKS, RESULTS, draw_multisets

STAND, DOUBLE = "stand", "double"  # the post-split actions' names (solver.py)


def solver_total(hand: tuple) -> tuple[int, bool]:
    """(best total, soft) of a hand given as counts by rank."""
    hard = sum((r + 1) * c for r, c in enumerate(hand))
    return (hard + 10, True) if hand[0] and hard <= 11 else (hard, False)


_CROSS: dict = {}


def cross_coefficients(most: int) -> tuple[list[int], list[int], list[int]]:
    """The integers c_nn[x], c_np[x], c_pp[x] of Σ_{j≠k} E[X_j X_k] = Σ_x (R)_x/(N)_x ·
    (c_nn[x] C_nn(x) + c_np[x] C_np(x) + c_pp[x] C_pp(x)) for a pair that may grow into `most`
    hands (C_np = C_pn by exchangeability of the two hands, so c_np counts both orders)."""
    got = _CROSS.get(most)
    if got is not None:
        return got
    patterns: dict = {}

    def walk(pending: int, hands: int, t: int, n: int, p: int) -> None:
        if pending == 0:
            patterns[(t, n, p)] = patterns.get((t, n, p), 0) + 1
            return
        walk(pending - 1, hands, t, n + 1, p)
        if hands < most:
            walk(pending + 1, hands + 1, t + 1, n, p)
        else:
            walk(pending - 1, hands, t + 1, n, p + 1)

    walk(2, 2, 0, 0, 0)
    size = 2 * most
    nn, np_, pp = [0] * size, [0] * size, [0] * size
    for (t, n, p), ways in patterns.items():
        if n >= 2:  # two non-pair hands; the other n - 2 "not r" expanded
            for a in range(n - 1):
                nn[t + a] += ways * n * (n - 1) * (-1) ** a * comb(n - 2, a)
        if n >= 1 and p >= 1:  # a non-pair and a pair hand, both orders
            for a in range(n):
                np_[t - 1 + a] += ways * 2 * n * p * (-1) ** a * comb(n - 1, a)
        if p >= 2:  # two pair hands
            for a in range(n + 1):
                pp[t - 2 + a] += ways * p * (-1) ** a * comb(n, a) * (p - 1)
    got = _CROSS[most] = (nn, np_, pp)
    return got


def _signs(best: int, bet: float) -> tuple:
    """bet · net per dealer result (17, 18, 19, 20, 21, bust)."""
    if best > 21:
        return (-bet,) * 6
    if best <= 16:
        return (-bet,) * 5 + (bet,)
    i = best - 17
    return tuple(bet if d < i or d == 5 else (-bet if d > i else 0.0) for d in range(6))


def terminals(action, r: int, shoe: tuple) -> list[tuple]:
    """Every way a split hand that starts r may end off `shoe` (the shoe at the split), played by
    `action` (hand counts -> stand | hit | double): (cards drawn, counts by rank; second card r?;
    bet · net per dealer result; orders: the number of draw orders that end there). The chance of
    one order off a shoe depends only on the cards drawn, so the shoe enters only later, through
    falling factorials; here it only bounds the cards a hand can draw."""
    one = tuple(1 if k == r else 0 for k in range(N_RANKS))
    room = tuple(s + o for s, o in zip(shoe, one))
    level: dict = {}
    for c in range(N_RANKS):
        hand = one[:c] + (one[c] + 1,) + one[c + 1 :]
        if hand[c] <= room[c]:
            level[(hand, c == r)] = 1
    out: dict = {}
    while level:
        below: dict = {}
        for (hand, tag), orders in level.items():
            act = action(hand)
            if act == STAND:
                key = (hand, tag, 1.0)
                out[key] = out.get(key, 0) + orders
                continue
            for c in range(N_RANKS):
                if hand[c] >= room[c]:
                    continue
                child = hand[:c] + (hand[c] + 1,) + hand[c + 1 :]
                if act == DOUBLE:
                    key = (child, tag, 2.0)
                    out[key] = out.get(key, 0) + orders
                else:
                    below[(child, tag)] = below.get((child, tag), 0) + orders
        level = below
    return [
        (tuple(h - o for h, o in zip(hand, one)), tag, _signs(solver_total(hand)[0], bet), orders)
        for (hand, tag, bet), orders in out.items()
    ]


class DealerPolynomial:
    """The dealer's six unnormalised result probabilities (dealer.py) for many shoes at once."""

    def __init__(self, up: int, hit_soft_17: bool):
        terms = [(ranks, result, orders) for (ranks, result), orders in draw_multisets(up, hit_soft_17).items()]
        terms = [t for t in terms if t[1] != "bj"]
        self.exponents = np.array([[ranks.count(c) for c in range(N_RANKS)] for ranks, _, _ in terms], dtype=np.int64)
        self.sizes = self.exponents.sum(axis=1)
        self.result = np.array([RESULTS.index(res) for _, res, _ in terms])
        self.orders = np.array([float(o) for _, _, o in terms])
        self.most = int(self.exponents.max()) if len(terms) else 0
        self.longest = int(self.sizes.max()) if len(terms) else 0

    def __call__(self, shoes: "np.ndarray") -> "np.ndarray":
        """(shoes × 6) probabilities; `shoes` is (shoes × 10) counts."""
        shoes = shoes.astype(np.float64)
        count = len(shoes)
        n = shoes.sum(axis=1)
        # falling factorials per rank and per shoe size
        ff = np.ones((N_RANKS, self.most + 1, count))
        for k in range(1, self.most + 1):
            ff[:, k] = ff[:, k - 1] * np.maximum(shoes.T - (k - 1), 0.0)
        inv = np.ones((self.longest + 1, count))
        for m in range(1, self.longest + 1):
            left = n - (m - 1)
            inv[m] = np.where(left > 0, inv[m - 1] / np.where(left > 0, left, 1.0), 0.0)
        out = np.zeros((6, count))
        for t in range(len(self.orders)):
            term = self.orders[t] * inv[self.sizes[t]]
            e = self.exponents[t]
            for c in np.nonzero(e)[0]:
                term = term * ff[c, e[c]]
            out[self.result[t]] += term
        return out.T


_POLYNOMIALS: dict = {}


def dealer_polynomial(up: int, hit_soft_17: bool) -> DealerPolynomial:
    got = _POLYNOMIALS.get((up, hit_soft_17))
    if got is None:
        got = _POLYNOMIALS[(up, hit_soft_17)] = DealerPolynomial(up, hit_soft_17)
    return got


class Cross:
    """C_nn, C_np, C_pp for one split (up card, pair rank, strategy), for any shoe at the split."""

    BLOCK = 64  # hands j per block of pairs (memory: about BLOCK × ends pairs at a time)

    def __init__(self, action, up: int, r: int, hit_soft_17: bool, shoe: tuple):
        ends = terminals(action, r, shoe)
        self.drawn = np.array([m for m, _, _, _ in ends], dtype=np.int64).reshape(-1, N_RANKS)
        self.tag = np.array([t for _, t, _, _ in ends], dtype=bool)
        self.signs = np.array([s for _, _, s, _ in ends]).reshape(-1, 6) * np.array(
            [float(o) for _, _, _, o in ends]
        ).reshape(-1, 1)
        self.dealer = dealer_polynomial(up, hit_soft_17)
        self.shift = 6 * np.arange(N_RANKS, dtype=np.int64)
        self.keys = (self.drawn << self.shift).sum(axis=1)  # a union's counts fit in 6 bits a rank
        self.gathered = None

    def _pairs(self, start: int):
        """The pairs (j, k) with j in one block, and each pair's weight: the two orders of two
        hands with the same second card (both not r, both r) are one pair counted twice; a hand
        whose second card is not r pairs with every hand whose second card is r (C_np)."""
        count = len(self.tag)
        j = np.repeat(np.arange(start, min(count, start + self.BLOCK)), count)
        k = np.tile(np.arange(count), len(j) // count if count else 0)
        same = self.tag[j] == self.tag[k]
        keep = (same & (k >= j)) | (~self.tag[j] & self.tag[k])
        j, k = j[keep], k[keep]
        weight = np.where((self.tag[j] == self.tag[k]) & (k > j), 2.0, 1.0)
        kind = self.tag[j].astype(np.int64) + self.tag[k].astype(np.int64)  # 0 nn, 1 np, 2 pp
        return j, k, weight, kind

    def _gather(self) -> None:
        """Once per split: the distinct unions of two hands' cards, and for each the sum over the
        pairs of hands that make it of weight · (j's bet · net) · (k's bet · net) per dealer
        result, by kind (nn, np, pp). The shoe enters only in `values`."""
        starts = range(0, len(self.tag), self.BLOCK)
        keys = np.unique(np.concatenate([self.keys[j] + self.keys[k] for j, k, _, _ in map(self._pairs, starts)]))
        gathered = np.zeros((len(keys) * 3, 6))
        for start in starts:
            j, k, weight, kind = self._pairs(start)
            row = np.searchsorted(keys, self.keys[j] + self.keys[k]) * 3 + kind
            each = (self.signs[j] * self.signs[k]) * weight[:, None]
            for d in range(6):
                gathered[:, d] += np.bincount(row, weights=each[:, d], minlength=len(gathered))
        self.unions = (keys[:, None] >> self.shift) & 63
        self.gathered = gathered.reshape(len(keys), 3, 6)

    def values(self, shoe: tuple) -> tuple[float, float, float]:
        """(C_nn, C_np, C_pp) off `shoe` (the shoe at the split less x cards r, the up card out)."""
        if not len(self.tag):
            return 0.0, 0.0, 0.0
        if self.gathered is None:
            self._gather()
        at = np.array(shoe, dtype=np.int64)
        fits = (self.unions <= at).all(axis=1)
        unions, gathered = self.unions[fits], self.gathered[fits]
        if not len(unions):
            return 0.0, 0.0, 0.0
        odds = self.dealer(at - unions)
        # P(one order of the cards) = ∏_c (S_c)_(u_c) / (N)_(Σu): falling factorials of the shoe
        most = int(unions.max())
        ff = np.ones((N_RANKS, most + 1))
        for i in range(1, most + 1):
            ff[:, i] = ff[:, i - 1] * np.maximum(at - (i - 1), 0)
        n = int(at.sum())
        inv = np.ones(int(unions.sum(axis=1).max()) + 1)
        for m in range(1, len(inv)):
            inv[m] = inv[m - 1] / (n - (m - 1))
        chance = inv[unions.sum(axis=1)]
        for c in range(N_RANKS):
            chance = chance * ff[c, unions[:, c]]
        got = np.einsum("u,ud,ukd->k", chance, odds, gathered)
        return float(got[0]), float(got[1]), float(got[2])


def cross_sum(solver, up: int, r: int, policy, most: int) -> float:
    """Σ_{j≠k} E[X_j X_k · 1{no dealer blackjack}] of splitting r, r against `up` into at most
    `most` hands, each played by `solver`'s post-split strategy (`Solver.post_split_action`)."""
    pair = tuple(2 if k == r else 0 for k in range(N_RANKS))
    shoe = solver.left(up, pair)
    n_all, pairs_left = sum(shoe), shoe[r]
    cross = Cross(
        lambda hand: solver.post_split_action(up, hand, r, policy),
        up,
        r,
        bool(solver.rules["hit_soft_17"]),
        shoe,
    )
    total = 0.0
    f = 1.0  # (R)_x / (N)_x: the first x cards drawn are all r
    for x, coefficients in enumerate(zip(*cross_coefficients(most))):
        if x > pairs_left:
            break
        if x:
            f *= (pairs_left - x + 1) / (n_all - x + 1)
        if not any(coefficients):
            continue
        at = shoe[:r] + (shoe[r] - x,) + shoe[r + 1 :]
        values = cross.values(at)
        total += f * sum(c * v for c, v in zip(coefficients, values))
    return total
