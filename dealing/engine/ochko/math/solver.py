"""The solver behind Ochko's game math (see the package's docstring for the model): the dealer's
draw multisets and their odds per shoe (`Shoe`), and every state's option values as integers over
one scale (`Solver`). The package memoises solvers per shoe and rule set and asks them questions.
"""

from fractions import Fraction
from math import factorial

from .. import BET_MULTIPLE_MAX
from ..odds import PICTURE, RANKS, VALUE
from .question import (
    N_RANKS,
    PER_RANK,
    best_option,
)

ACE = RANKS.index("A")
BETS = tuple(range(1, BET_MULTIPLE_MAX + 1))
# The shoe left after the cards named must hold at least this many: a box and the dealer use at
# most 21 cards between them, so nobody can run out of cards, and this is also the span of the
# integer scale n!/B!.
SHOE_MIN = 36
SPAN = 36

STAND, HIT, DARK = 0, 1, 2
ACTIONS = ("stand", "hit", "dark")  # also the order that breaks ties (analytics-format.md)
RESULTS = ("17", "18", "19", "20", "21", "bust")  # the dealer's: the combinations count 21
BUST = 5

RULE_COMBINATIONS = tuple(
    {"dark_win_bet": w, "dark_double_bust_bet": b} for w in ("leave", "take") for b in ("leave", "take")
)


# --- the dealer's draws, independent of the shoe --------------------------------------------------


def _dealer_result(total: int, n: int, pictures_only: bool) -> int | None:
    """The dealer's result (index into RESULTS) if he stops here, else None."""
    if n == 2 and total == 22:  # only A + A makes 22 in two cards: his pair of aces
        return 4
    if n == 5 and pictures_only:
        return 4
    if total > 21:
        return BUST
    if total >= 17:
        return total - 17
    return None


def _dealer_draws(up: int) -> list[tuple[int, list[tuple[int, int, tuple]]]]:
    """[(m, [(result, orders, ((rank, copies), …)), …]), …]: the multisets he may draw after `up`."""
    found: dict[tuple, list] = {}

    def walk(drawn: tuple, total: int, n: int, pictures_only: bool) -> None:
        result = _dealer_result(total, n, pictures_only)
        if result is not None:
            entry = found.get(drawn)
            if entry is None:
                found[drawn] = [result, 1]
            else:
                entry[1] += 1
            return
        for r in range(N_RANKS):
            walk(drawn[:r] + (drawn[r] + 1,) + drawn[r + 1 :], total + VALUE[r], n + 1, pictures_only and PICTURE[r])

    walk((0,) * N_RANKS, VALUE[up], 1, PICTURE[up])
    by_length: dict[int, list] = {}
    for drawn, (result, orders) in found.items():
        items = tuple((r, d) for r, d in enumerate(drawn) if d)
        by_length.setdefault(sum(drawn), []).append((result, orders, items))
    return sorted(by_length.items())


DEALER_DRAWS = tuple(_dealer_draws(up) for up in range(N_RANKS))
MAX_DEALER_DRAWS = max(m for draws in DEALER_DRAWS for m, _ in draws)
# FALLING[s][d] = s (s-1) … (s-d+1): the ways to draw d given cards in order from s of them.
FALLING = tuple(
    tuple(factorial(s) // factorial(s - d) if d <= s else 0 for d in range(MAX_DEALER_DRAWS + 1))
    for s in range(PER_RANK + 1)
)


class Shoe:
    """One shoe before any card of the question (the full shoe minus `removed`) and its dealer odds."""

    def __init__(self, counts: tuple, dealer_odds: dict | None = None):
        self.counts = counts
        self.size = n = sum(counts)
        self.floor = floor = max(0, n - SPAN)
        # SCALE[n - floor] = n!/floor!: the integer scale of every value of a state with n cards left.
        scale = [1]
        for m in range(floor + 1, n + 1):
            scale.append(scale[-1] * m)
        self.scale = scale
        # The dealer's odds from a shoe `left` do not depend on the shoe it was left of: shoes of one
        # size (one floor, so one scale) may share them (`removal_shoes`).
        self._dealer: dict[tuple, tuple] = {} if dealer_odds is None else dealer_odds

    def dealer(self, left: tuple, up: int) -> tuple:
        """The dealer's results (RESULTS order) from the shoe `left`, each × n!/floor!."""
        key = (left, up)
        got = self._dealer.get(key)
        if got is not None:
            return got
        n = sum(left)
        scale, floor = self.scale, self.floor
        falling = FALLING
        out = [0, 0, 0, 0, 0, 0]
        for m, draws in DEALER_DRAWS[up]:
            acc = [0, 0, 0, 0, 0, 0]
            for result, orders, items in draws:
                ways = orders
                for r, d in items:
                    ways *= falling[left[r]][d]
                acc[result] += ways
            g = scale[n - m - floor]
            for i in range(6):
                out[i] += acc[i] * g
        if sum(out) != scale[n - floor]:  # only if the shoe could run out, which SHOE_MIN rules out
            raise ArithmeticError("the dealer's odds do not add up to one")
        got = self._dealer[key] = tuple(out)
        return got


PICTURE_RANKS = frozenset(r for r in range(N_RANKS) if PICTURE[r])
ACE_ONLY = frozenset({ACE})
NONE: frozenset = frozenset()


def hand_total(hand: tuple) -> int:
    return sum(hand[r] * VALUE[r] for r in range(N_RANKS))


def completing_ranks(hand: tuple) -> frozenset:
    """The ranks whose next card makes an ochko combination of this hand: a pair of aces (the
    second card), five pictures (the fifth). Both count 21 whatever the total."""
    cards = sum(hand)
    if cards == 1 and hand[ACE] == 1:
        return ACE_ONLY
    if cards == 4 and sum(hand[r] for r in PICTURE_RANKS) == 4:
        return PICTURE_RANKS
    return NONE


class Node:
    """One state (the box's cards, the up card): each option's value for k = 1 … 10, × the scale."""

    __slots__ = ("left", "n", "options", "best", "action")

    def __init__(self, left, n, options, best, action):
        self.left = left
        self.n = n
        self.options = options  # {STAND: (…10), HIT: (…10), DARK: (…10)}; DARK absent when not allowed
        self.best = best
        self.action = action  # per k, the option played (ties: stand, hit, dark)


class Solver:
    """Optimal play for one shoe and one rule set (memoised; `solve` shares them)."""

    def __init__(self, shoe: Shoe, rules: dict, dark: bool = True):
        self.shoe = shoe
        self.rules = rules
        self.dark = dark
        # 1 where the Bet is taken, 0 where it is left: the Bet's net in that case is −k × this.
        self.win_take = int(rules["dark_win_bet"] == "take")
        self.double_bust_take = int(rules["dark_double_bust_bet"] == "take")
        self._nodes: dict[tuple, Node] = {}
        self._second: dict[tuple, int] = {}
        self._first: dict[int, list] = {}
        self._bet: dict[int, int] = {}

    # The box's hand is a tuple of copies per rank (RANKS order).

    def node(self, hand: tuple, up: int) -> Node:
        key = (hand, up)
        got = self._nodes.get(key)
        if got is not None:
            return got
        shoe = self.shoe
        base = shoe.counts
        left = tuple(base[r] - hand[r] - (r == up) for r in range(N_RANKS))
        n = sum(left)
        scale = shoe.scale
        here = scale[n - shoe.floor]
        below = scale[n - 1 - shoe.floor]  # the scale one card further on
        total = hand_total(hand)
        completes = completing_ranks(hand)

        d = shoe.dealer(left, up)
        wins = d[BUST] + sum(d[i] for i in range(5) if 17 + i < total)
        x = 2 * wins - here
        stand = tuple((1 + k) * x for k in BETS)

        # A card that settles the hand at once pays or costs (1 + k) × its weight: summed over such
        # cards first, then spread over the Bets (the same integers, a tenth of the products).
        settled = 0
        hit = [0] * len(BETS)
        for c in range(N_RANKS):
            s = left[c]
            if not s:
                continue
            t = total + VALUE[c]
            if t == 21 or c in completes:
                settled += s  # face-up ochko: Bet and Ante paid at once
            elif t > 21:
                settled -= s  # mnogo
            else:
                child = self.node(hand[:c] + (hand[c] + 1,) + hand[c + 1 :], up).best
                for i in range(len(BETS)):
                    hit[i] += s * child[i]
        if settled:
            w = settled * below
            for i, k in enumerate(BETS):
                hit[i] += (1 + k) * w
        options = {STAND: stand, HIT: tuple(hit)}

        if self.dark:
            # Each card's net with a Bet of k is s·(good·(1 − take·k) − bad·(1 + k)) = s·(good − bad)
            # − k·s·(good·take + bad): two sums over the cards, then one line per Bet.
            even = per_k = 0
            for c in range(N_RANKS):
                s = left[c]
                if not s:
                    continue
                dd = shoe.dealer(left[:c] + (s - 1,) + left[c + 1 :], up)
                t = total + VALUE[c]
                combination = c in completes
                if t > 21 and not combination:
                    good, take = dd[BUST], self.double_bust_take  # both bust: the Ante is paid
                else:
                    score = 21 if combination else t
                    good = dd[BUST] + sum(dd[i] for i in range(5) if 17 + i < score)
                    take = self.win_take
                bad = below - good
                even += s * (good - bad)
                per_k += s * (good * take + bad)
            options[DARK] = tuple(even - k * per_k for k in BETS)

        best = []
        action = []
        for i in range(len(BETS)):
            a, v = STAND, stand[i]
            for option in (HIT, DARK):
                values = options.get(option)
                if values is not None and values[i] > v:
                    a, v = option, values[i]
            best.append(v)
            action.append(a)
        got = self._nodes[key] = Node(left, n, options, tuple(best), tuple(action))
        return got

    def second_moment(self, hand: tuple, up: int, i: int) -> int:
        """E[net²] of the optimal play from this state with Bet BETS[i], × the state's scale."""
        key = (hand, up, i)
        got = self._second.get(key)
        if got is not None:
            return got
        node = self.node(hand, up)
        k = BETS[i]
        left, n = node.left, node.n
        shoe = self.shoe
        here = shoe.scale[n - shoe.floor]
        below = shoe.scale[n - 1 - shoe.floor]
        lose2 = (1 + k) ** 2
        a = node.action[i]
        if a == STAND:
            got = lose2 * here  # won or lost, the net is ±(1 + k)
        else:
            total = hand_total(hand)
            completes = completing_ranks(hand)
            got = 0
            for c in range(N_RANKS):
                s = left[c]
                if not s:
                    continue
                t = total + VALUE[c]
                combination = c in completes
                if a == HIT:
                    if t >= 21 or combination:
                        got += s * lose2 * below
                    else:
                        got += s * self.second_moment(hand[:c] + (hand[c] + 1,) + hand[c + 1 :], up, i)
                    continue
                dd = shoe.dealer(left[:c] + (s - 1,) + left[c + 1 :], up)
                if t > 21 and not combination:
                    good, take = dd[BUST], self.double_bust_take
                else:
                    score = 21 if combination else t
                    good = dd[BUST] + sum(dd[j] for j in range(5) if 17 + j < score)
                    take = self.win_take
                got += s * (good * (1 - take * k) ** 2 + (below - good) * lose2)
        self._second[key] = got
        return got

    def first_card(self, card: int) -> list:
        """Σ over the up card of the Bet k's value, per k, × the scale of a one-card shoe."""
        got = self._first.get(card)
        if got is not None:
            return got
        hand = tuple(int(r == card) for r in range(N_RANKS))
        left = tuple(self.shoe.counts[r] - hand[r] for r in range(N_RANKS))
        acc = [0] * len(BETS)
        for up in range(N_RANKS):
            s = left[up]
            if not s:
                continue
            best = self.node(hand, up).best
            for i in range(len(BETS)):
                acc[i] += s * best[i]
        got = self._first[card] = acc
        return got

    def first_values(self, card: int) -> dict:
        """{"fold": −1, "bet:k": EV} as Fractions, for a first card."""
        n = self.shoe.size - 1 - self.shoe.floor  # the first card is out of the shoe
        scale = self.shoe.scale[n]
        values = {"fold": Fraction(-1)}
        for k, w in zip(BETS, self.first_card(card)):
            values[f"bet:{k}"] = Fraction(w, scale)
        return values

    def best_bet(self, card: int) -> int:
        """The optimal choice after a first card of rank `card`: 0 to fold, else the Bet k (memoised)."""
        got = self._bet.get(card)
        if got is None:
            name = best_option(self.first_values(card))
            got = self._bet[card] = 0 if name == "fold" else int(name.split(":")[1])
        return got

    def round_figures(self) -> dict:
        """The whole round under optimal play: expected net, wagered, E[net²] (Fractions)."""
        shoe = self.shoe
        size = shoe.size
        mean = wagered = square = Fraction(0)
        for card in range(N_RANKS):
            s = shoe.counts[card]
            if not s:
                continue
            values = self.first_values(card)
            name = best_option(values)
            p = Fraction(s, size)
            mean += p * values[name]
            if name == "fold":
                wagered += p
                square += p
                continue
            k = int(name.split(":")[1])
            i = k - 1
            wagered += p * (1 + k)
            hand = tuple(int(r == card) for r in range(N_RANKS))
            left = tuple(shoe.counts[r] - hand[r] for r in range(N_RANKS))
            acc = 0
            for up in range(N_RANKS):
                if left[up]:
                    acc += left[up] * self.second_moment(hand, up, i)
            square += p * Fraction(acc, shoe.scale[size - 1 - shoe.floor])
        return {"mean": mean, "wagered": wagered, "square": square}
