"""The exact second moment of a split: E[(Σ_k X_k)² · 1{no dealer blackjack}], X_k the net of
split hand k, every hand played by the fixed post-split strategy (solver.py, `Solver.split`;
docs/blackjack-math.md, "The split model" and "The spread of a split round").

Σ_k E[X_k²] is the split's own linear sum (solver.py). What this module adds are the cross terms
E[X_j X_k] (j ≠ k): two hands share the dealer's final total and the shoe. The same argument as
for one hand (exchangeability, patterns of second cards, inclusion–exclusion on the other hands'
"not r") leaves, for each count x of cards r taken out first, the joint value of two hands that
start r off the shoe at the split less x cards r:

    C_ab(x) = E[X_j X_k · 1{j's second card is a} · 1{k's second card is b}],  a, b ∈ {not r, r}

computed exactly here: hand j is played out by the fixed strategy; at each of its final hands
(its cards known), hand k is played out off the shoe less j's cards, and at each of k's final
hands the dealer's odds come off the shoe less both hands' cards. The hands' results are then
multiplied per dealer result, so the covariance through the dealer's total and through the
depleted shoe are both in it. The coefficients (`cross_coefficients`) count, over the patterns,
the ordered pairs of hands (non-pair / pair) and the inclusion–exclusion signs.

Ranks: 0 the ace, 1 … 8 the two to the nine, 9 a ten-value card (dealer.py). Values are floats.
"""

from math import comb

from .dealer import N_RANKS, odds_function

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


def _results(best: int, odds: tuple, bet: float) -> tuple:
    """bet · net per dealer result (17, 18, 19, 20, 21, bust), each times its probability."""
    if best > 21:
        return tuple(-bet * o for o in odds)
    if best <= 16:
        return (-bet * odds[0], -bet * odds[1], -bet * odds[2], -bet * odds[3], -bet * odds[4], bet * odds[5])
    i = best - 17
    return tuple(
        (bet * o if d < i or d == 5 else (-bet * o if d > i else 0.0)) for d, o in enumerate(odds)
    )


def _signs(best: int, bet: float) -> tuple:
    """bet · net per dealer result, unweighted."""
    return _results(best, (1.0,) * 6, bet)


class Cross:
    """C_nn, C_np, C_pp for one split (up card, pair rank, strategy) and one shoe at the split."""

    def __init__(self, action, up: int, r: int, hit_soft_17: bool, total):
        self.action = action  # hand (counts) -> STAND | HIT | DOUBLE: the fixed post-split strategy
        self.up, self.r = up, r
        self.odds = odds_function(up, hit_soft_17)
        self.total = total
        self.one = tuple(1 if k == r else 0 for k in range(N_RANKS))
        self._dealer: dict = {}
        self._k_memo: dict = {}
        self._j_memo: dict = {}
        self._vec: dict = {}

    def dealer(self, shoe: tuple) -> tuple:
        got = self._dealer.get(shoe)
        if got is None:
            got = self._dealer[shoe] = self.odds(shoe)
        return got

    def second(self, shoe: tuple) -> tuple:
        """(non, pair): hand k's E[bet · net · 1{dealer result}] per dealer result, off `shoe`
        (hand j's cards already out), split by k's second card (not r / r)."""
        got = self._vec.get(shoe)
        if got is not None:
            return got
        n = sum(shoe)
        non = [0.0] * 6
        pair = (0.0,) * 6
        for c in range(N_RANKS):
            if not shoe[c]:
                continue
            p = shoe[c] / n
            v = self._k(shoe[:c] + (shoe[c] - 1,) + shoe[c + 1 :], self.one[:c] + (self.one[c] + 1,) + self.one[c + 1 :])
            if c == self.r:
                pair = tuple(p * x for x in v)
            else:
                for d in range(6):
                    non[d] += p * v[d]
        got = self._vec[shoe] = (tuple(non), pair)
        return got

    def _k(self, shoe: tuple, hand: tuple) -> tuple:
        key = (shoe, hand)
        got = self._k_memo.get(key)
        if got is not None:
            return got
        action = self.action(hand)
        if action == STAND:
            got = _results(self.total(hand)[0], self.dealer(shoe), 1.0)
        else:
            n = sum(shoe)
            acc = [0.0] * 6
            for c in range(N_RANKS):
                if not shoe[c]:
                    continue
                p = shoe[c] / n
                child = hand[:c] + (hand[c] + 1,) + hand[c + 1 :]
                rest = shoe[:c] + (shoe[c] - 1,) + shoe[c + 1 :]
                if action == DOUBLE:
                    v = _results(self.total(child)[0], self.dealer(rest), 2.0)
                else:
                    v = self._k(rest, child)
                for d in range(6):
                    acc[d] += p * v[d]
            got = tuple(acc)
        self._k_memo[key] = got
        return got

    def values(self, shoe: tuple) -> tuple[float, float, float]:
        """(C_nn, C_np, C_pp) off `shoe` (the shoe at the split less x cards r, the up card out)."""
        self._k_memo.clear()
        self._j_memo.clear()
        self._vec.clear()
        n = sum(shoe)
        nn = np_ = pp = 0.0
        for c in range(N_RANKS):
            if not shoe[c]:
                continue
            p = shoe[c] / n
            hand = self.one[:c] + (self.one[c] + 1,) + self.one[c + 1 :]
            non, pair = self._j(shoe[:c] + (shoe[c] - 1,) + shoe[c + 1 :], hand)
            if c == self.r:
                pp += p * pair
            else:
                nn += p * non
                np_ += p * pair
        return nn, np_, pp

    def _j(self, shoe: tuple, hand: tuple) -> tuple[float, float]:
        """E[X_j · X_k · 1{…}] for hand j at `hand` (its cards out of `shoe`), by k's second card."""
        key = (shoe, hand)
        got = self._j_memo.get(key)
        if got is not None:
            return got
        action = self.action(hand)
        if action == STAND:
            got = self._j_memo[key] = self._final(shoe, self.total(hand)[0], 1.0)
            return got
        n = sum(shoe)
        non = pair = 0.0
        for c in range(N_RANKS):
            if not shoe[c]:
                continue
            p = shoe[c] / n
            child = hand[:c] + (hand[c] + 1,) + hand[c + 1 :]
            rest = shoe[:c] + (shoe[c] - 1,) + shoe[c + 1 :]
            if action == DOUBLE:
                a, b = self._final(rest, self.total(child)[0], 2.0)
            else:
                a, b = self._j(rest, child)
            non += p * a
            pair += p * b
        got = self._j_memo[key] = (non, pair)
        return got

    def _final(self, shoe: tuple, best: int, bet: float) -> tuple[float, float]:
        signs = _signs(best, bet)
        non, pair = self.second(shoe)
        return (sum(s * v for s, v in zip(signs, non)), sum(s * v for s, v in zip(signs, pair)))


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
        solver_total,
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
