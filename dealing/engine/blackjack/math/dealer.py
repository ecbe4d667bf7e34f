"""The blackjack dealer's final-result odds from any shoe composition, fast enough to be asked
tens of thousands of times (one per player hand the solver meets).

The probability that the dealer draws one particular sequence from a shoe depends only on the
multiset of its cards: ∏ (s_r)_(d_r) / (N)_m, with (x)_d the falling factorial. So each up card
has a fixed list of draw multisets (184 to 2,037 of them, with the number of orders in which he
may draw each: no shorter prefix stops him) and the result each gives; his odds from a shoe are
one polynomial in the ten counts per result. The polynomials are written out once per up card
and dealer rule (stand or hit soft 17) as straight-line Python and compiled, then evaluated in
floating point.

Ranks are indices 0 … 9: 0 the ace, 1 … 8 the two to the nine, 9 any ten-value card. With an ace
or a ten up the dealer peeks, so the odds returned leave out his blackjack *without*
renormalising: they sum to P(no dealer blackjack | this shoe). That is what the player's
recursion needs (solver.py): every value there is E[net · 1{no dealer blackjack}].

Floating point: every term is a product of at most ~12 positive factors and the sums have at
most ~2,000 positive terms, so each probability carries a relative error below 1e-13.
"""

from collections import Counter
from itertools import islice

RESULTS = ("17", "18", "19", "20", "21", "bust")
N_RANKS = 10
ACE, TEN = 0, 9


def draw_multisets(up: int, hit_soft_17: bool) -> Counter:
    """{(sorted ranks drawn after the up card, result): orders}; result 'bj' is his blackjack."""
    out: Counter = Counter()
    seq: list[int] = []

    def rec(hard: int, ace: bool, n: int) -> None:
        best = hard + 10 if ace and hard <= 11 else hard
        if n == 2 and best == 21:
            out[(tuple(sorted(seq)), "bj")] += 1
            return
        if hard > 21:
            out[(tuple(sorted(seq)), "bust")] += 1
            return
        soft = ace and hard <= 11
        if best >= 17 and not (hit_soft_17 and soft and best == 17):
            out[(tuple(sorted(seq)), str(best))] += 1
            return
        for k in range(N_RANKS):
            seq.append(k)
            rec(hard + k + 1, ace or k == ACE, n + 1)
            seq.pop()

    rec(up + 1, up == ACE, 1)
    return out


def _source(up: int, hit_soft_17: bool) -> str:
    """def odds(s): the six unnormalised result probabilities as one straight-line function."""
    terms: dict[tuple[str, int], list[str]] = {}
    need: dict[int, int] = {}
    longest = 0
    for (ranks, result), orders in sorted(draw_multisets(up, hit_soft_17).items()):
        if result == "bj":
            continue
        copies = Counter(ranks)
        for r, d in copies.items():
            need[r] = max(need.get(r, 0), d)
        longest = max(longest, len(ranks))
        factors = [f"f{r}_{d}" for r, d in sorted(copies.items())]
        term = "*".join(([str(orders)] if orders != 1 else []) + factors)
        terms.setdefault((result, len(ranks)), []).append(term)
    lines = [
        "def odds(s):",
        "    " + ", ".join(f"s{r}" for r in range(N_RANKS)) + " = s",
        "    n = float(" + " + ".join(f"s{r}" for r in range(N_RANKS)) + ")",
    ]
    for r, most in sorted(need.items()):
        lines.append(f"    f{r}_1 = float(s{r})")
        for d in range(2, most + 1):
            lines.append(f"    f{r}_{d} = f{r}_{d - 1} * (s{r} - {d - 1})")
    lines.append("    i1 = 1.0 / n")
    for m in range(2, longest + 1):
        lines.append(f"    i{m} = i{m - 1} / (n - {m - 1}) if n > {m - 1} else 0.0")
    names = []
    for j, result in enumerate(RESULTS):
        parts = []
        for (res, m), group in sorted(terms.items()):
            if res == result:
                parts.append(f"({' + '.join(group)}) * i{m}")
        lines.append(f"    p{j} = " + (" + ".join(parts) if parts else "0.0"))
        names.append(f"p{j}")
    lines.append("    return (" + ", ".join(names) + ")")
    return "\n".join(lines) + "\n"


_COMPILED: dict[tuple[int, bool], object] = {}


def odds_function(up: int, hit_soft_17: bool):
    """The compiled odds(s) for this up card and dealer rule (built once per process)."""
    key = (up, hit_soft_17)
    fn = _COMPILED.get(key)
    if fn is None:
        namespace: dict = {}
        exec(compile(_source(up, hit_soft_17), f"<dealer odds up={up} h17={hit_soft_17}>", "exec"), namespace)
        fn = _COMPILED[key] = namespace["odds"]
    return fn


def no_blackjack(up: int, shoe: tuple) -> float:
    """P(the dealer has no blackjack | the shoe his hole card comes from)."""
    n = sum(shoe)
    if up == ACE:
        return 1.0 - shoe[TEN] / n
    if up == TEN:
        return 1.0 - shoe[ACE] / n
    return 1.0


class DealerOdds:
    """Memoised odds per (up card, shoe) for one dealer rule."""

    def __init__(self, hit_soft_17: bool):
        self.hit_soft_17 = hit_soft_17
        self._fns = [odds_function(up, hit_soft_17) for up in range(N_RANKS)]
        self._memo: dict[tuple[int, tuple], tuple] = {}

    def __call__(self, up: int, shoe: tuple) -> tuple:
        key = (up, shoe)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._fns[up](shoe)
        return got

    def __len__(self) -> int:
        return len(self._memo)

    def forget_since(self, size: int) -> None:
        """Drop the odds memoised after the memo held `size` (a dict keeps its order of insertion)."""
        for key in list(islice(self._memo, size, None)):
            del self._memo[key]
