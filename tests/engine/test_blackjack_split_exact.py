"""The exact split value, proved on tiny shoes against a brute force that shares nothing with the
solver: it deals every card in the casino's order (the dealer's hole card first, then each split
hand its second card, a card that pairs the hand again resplits it while the rules allow, the hand
played out, then the next hand, then the dealer), in exact Fractions, and its post-split strategy
is computed here too, in Fractions (the strategy of the same cards unsplit: the best of the options
a split hand has, for the hand's own cards off the shoe before the deal less those cards and the up
card). The solver's value (dealing/engine/blackjack/math/solver.py, docs/blackjack-math.md "The
split model") must equal it to 1e-12.

Values are unnormalised as in the solver: E[net · 1{no dealer blackjack}] per unit of the bet.
The shoes are small enough for the brute force and rich enough in high cards that no deal runs
out of cards (their cards add up to more than five hands and the dealer can take)."""

from fractions import Fraction
from functools import lru_cache

import pytest

from dealing.engine.blackjack.math.question import read_rules
from dealing.engine.blackjack.math.solver import Solver

ACE, TEN = 0, 9


def _total(ranks) -> tuple[int, bool]:
    hard = sum(r + 1 for r in ranks)
    if ACE in ranks and hard <= 11:
        return hard + 10, True
    return hard, False


def _take(shoe: tuple, r: int) -> tuple:
    return shoe[:r] + (shoe[r] - 1,) + shoe[r + 1 :]


class Brute:
    def __init__(self, full: tuple, up: int, rules: dict):
        self.full, self.up, self.rules = full, up, rules
        self.h17 = rules["hit_soft_17"]
        self.dealer = lru_cache(maxsize=None)(self._dealer)
        self.unsplit = lru_cache(maxsize=None)(self._unsplit)

    # --- the dealer, from his two cards on -------------------------------------------------------

    def _dealer(self, shoe: tuple, cards: tuple) -> dict:
        """{final total (22 = bust): probability} drawing from `shoe`."""
        best, soft = _total(cards)
        if best > 21:
            return {22: Fraction(1)}
        if best >= 17 and not (self.h17 and soft and best == 17):
            return {best: Fraction(1)}
        n = sum(shoe)
        assert n > 0, "the tiny shoe ran out"
        out: dict = {}
        for c in range(10):
            if shoe[c]:
                for t, p in self.dealer(_take(shoe, c), tuple(sorted(cards + (c,)))).items():
                    out[t] = out.get(t, 0) + Fraction(shoe[c], n) * p
        return out

    def _dealer_blackjack(self, hole: int) -> bool:
        return {self.up, hole} == {ACE, TEN}

    def result(self, mine: int, dealer: int) -> int:
        if mine > 21:
            return -1
        if dealer > 21 or mine > dealer:
            return 1
        return 0 if mine == dealer else -1

    # --- the post-split strategy: the unsplit optimum, exact ---------------------------------------

    def stand_unsplit(self, shoe: tuple, ranks: tuple) -> Fraction:
        """E[net · 1{no dealer blackjack}] of standing, the hole card drawn from `shoe` (exchangeable)."""
        mine, _ = _total(ranks)
        n = sum(shoe)
        acc = Fraction(0)
        for hole in range(10):
            if shoe[hole] and not self._dealer_blackjack(hole):
                rest = _take(shoe, hole)
                for t, p in self.dealer(rest, tuple(sorted((self.up, hole)))).items():
                    acc += Fraction(shoe[hole], n) * p * self.result(mine, t)
        return acc

    def _unsplit(self, ranks: tuple) -> dict:
        """{option: value} of the hand `ranks` unsplit (shoe: the full one less the hand and the up
        card), the hand then played optimally; 'best' is the best stand / hit value."""
        shoe = self.full
        for c in ranks + (self.up,):
            shoe = _take(shoe, c)
        n = sum(shoe)
        stand = self.stand_unsplit(shoe, ranks)
        out = {"stand": stand}
        if _total(ranks)[0] < 21:
            hit = sum(
                (
                    Fraction(shoe[c], n) * self.unsplit(tuple(sorted(ranks + (c,))))["best"]
                    for c in range(10)
                    if shoe[c]
                ),
                Fraction(0),
            )
            out["hit"] = hit
            if len(ranks) == 2:
                out["double"] = 2 * sum(
                    (
                        Fraction(shoe[c], n) * self.stand_unsplit(_take(shoe, c), tuple(sorted(ranks + (c,))))
                        for c in range(10)
                        if shoe[c]
                    ),
                    Fraction(0),
                )
        out["best"] = max(stand, out.get("hit", stand))
        return out

    def action(self, ranks: tuple, first_rank: int) -> str:
        best, _ = _total(ranks)
        if best >= 21:
            return "stand"
        if len(ranks) == 2 and first_rank == ACE and not self.rules["hit_split_aces"]:
            return "stand"
        values = self.unsplit(tuple(sorted(ranks)))
        allowed = ["stand", "hit"]
        if len(ranks) == 2 and self.rules["double_after_split"] and self._may_double(ranks):
            allowed.append("double")
        top = max(values[a] for a in allowed)
        winners = [a for a in allowed if values[a] == top]
        if len(winners) > 1:
            self.ties.append((ranks, winners))
        return winners[0]

    def _may_double(self, ranks: tuple) -> bool:
        if self.rules["double"] == "9-11":
            best, soft = _total(ranks)
            return not soft and 9 <= best <= 11
        return True

    # --- the split, dealt card by card -------------------------------------------------------------

    def split(self, r: int) -> tuple[Fraction, Fraction, Fraction]:
        """(E[Σ net · 1{no dealer blackjack}], E[Σ wagered · 1{…}], E[(Σ net)² · 1{…}]) of
        splitting r, r: the square of the box's whole result, all hands against one dealer."""
        self.ties: list = []
        limit = self.rules["max_hands"]
        if r == ACE and not self.rules["resplit_aces"]:
            limit = 2
        self.r, self.limit = r, limit
        self.play = lru_cache(maxsize=None)(self._play)
        shoe = _take(_take(_take(self.full, r), r), self.up)
        n = sum(shoe)
        mean = wager = square = Fraction(0)
        for hole in range(10):
            if shoe[hole] and not self._dealer_blackjack(hole):
                m, w, q = self.play(_take(shoe, hole), hole, ((r,), (r,)), (), 2)
                mean += Fraction(shoe[hole], n) * m
                wager += Fraction(shoe[hole], n) * w
                square += Fraction(shoe[hole], n) * q
        return mean, wager, square

    def _play(self, shoe: tuple, hole: int, todo: tuple, done: tuple, hands: int) -> tuple:
        """Deal and play the hands in `todo` in order (each a tuple of ranks in the order dealt),
        `done` the (final total, bet) of the hands played out; then the dealer."""
        if not todo:
            dealer = self.dealer(shoe, tuple(sorted((self.up, hole))))
            mean = sum((p * bet * self.result(mine, t) for t, p in dealer.items() for mine, bet in done), Fraction(0))
            square = sum(
                (p * sum(bet * self.result(mine, t) for mine, bet in done) ** 2 for t, p in dealer.items()), Fraction(0)
            )
            return mean, Fraction(sum(bet for _, bet in done)), square
        hand, rest = todo[0], todo[1:]
        n = sum(shoe)
        assert n > 0, "the tiny shoe ran out"
        mean = wager = square = Fraction(0)
        if len(hand) == 1:
            for c in range(10):
                if not shoe[c]:
                    continue
                p = Fraction(shoe[c], n)
                if c == self.r and hands < self.limit:
                    m, w, q = self.play(_take(shoe, c), hole, ((self.r,), (self.r,)) + rest, done, hands + 1)
                else:
                    m, w, q = self.play(_take(shoe, c), hole, ((self.r, c),) + rest, done, hands)
                mean += p * m
                wager += p * w
                square += p * q
            return mean, wager, square
        action = self.action(hand, hand[0])
        if action == "stand":
            return self.play(shoe, hole, rest, tuple(sorted(done + ((_total(hand)[0], 1),))), hands)
        for c in range(10):
            if not shoe[c]:
                continue
            p = Fraction(shoe[c], n)
            if action == "double":
                fin = tuple(sorted(done + ((_total(hand + (c,))[0], 2),)))
                m, w, q = self.play(_take(shoe, c), hole, rest, fin, hands)
            else:
                m, w, q = self.play(_take(shoe, c), hole, (hand + (c,),) + rest, done, hands)
            mean += p * m
            wager += p * w
            square += p * q
        return mean, wager, square


# ranks: 0 ace, 1 … 8 two to nine, 9 ten-value
SHOES = {
    "a8t": (3, 0, 0, 0, 0, 0, 0, 5, 0, 9),
    "a28t": (2, 3, 0, 0, 0, 0, 0, 3, 0, 8),
    "mixed": (2, 3, 0, 0, 0, 2, 0, 2, 3, 7),
}

RULE_SETS = [
    {"max_hands": 2, "double_after_split": True},
    {"max_hands": 2, "double_after_split": False},
    {"max_hands": 3, "double_after_split": True},
    {"max_hands": 4, "double_after_split": True},
    {"max_hands": 4, "double_after_split": False, "resplit_aces": True},
    {"max_hands": 4, "resplit_aces": True, "hit_split_aces": True},
    {"max_hands": 3, "hit_split_aces": True, "hit_soft_17": True},
    {"max_hands": 4, "hit_soft_17": True, "double": "9-11"},
]


def _cases():
    for name, shoe in SHOES.items():
        ranks = [r for r in range(10) if shoe[r] >= 3]
        for i, extra in enumerate(RULE_SETS):
            for r in ranks:
                for up in (ACE, 7, TEN):
                    if shoe[up] - (up == r) * 2 >= 1:
                        yield pytest.param(shoe, extra, r, up, id=f"{name}-rules{i}-{r}v{up}")


@pytest.mark.parametrize(("shoe", "extra", "r", "up"), list(_cases()))
def test_split_value_equals_the_brute_force(shoe, extra, r, up):
    rules = read_rules("salon", extra)
    brute = Brute(shoe, up, rules)
    mean, wager, square = brute.split(r)
    # tiny shoes make exact ties (a hand that loses whatever it does); both sides break them in
    # the order stand, hit, double, so they are allowed here
    got = Solver(rules, shoe).split(up, r, spread=True)
    assert abs(got[0] - float(mean)) <= 1e-12, (got[0], float(mean))
    assert abs(got[1] - float(wager)) <= 1e-12, (got[1], float(wager))
    # the square of the whole box's result: the hands' cross terms through the dealer and the shoe
    assert abs(got[2] - float(square)) <= 1e-12, (got[2], float(square))


def test_the_salon_edge_is_the_exact_analysers_figure():
    # issue #32: the exact analysers give 0.402870 % for the salon's rules (6 decks, S17, DAS,
    # split to 4, no resplit of aces, 3:2); the old split shortcut gave 0.408465 %
    from dealing.engine.blackjack import math as bj

    edge = float(bj.edge(preset="salon")["house_edge"])
    assert abs(edge - 0.00402870) < 5e-9, edge


def test_the_online_sd_is_the_exact_distributions():
    # issue #32: the exact distribution of an online round has sd 1.1469; the split hands' cross
    # terms taken as independent gave 1.13220 (the hands share the dealer's hand and the shoe)
    from dealing.engine.blackjack import math as bj

    doc = bj.edge(preset="online")
    sd = float(doc["sd"])
    assert abs(sd - 1.1469) < 5e-5, sd
    # the edge and the wager do not depend on the spread
    assert abs(float(doc["house_edge"]) - 0.00485780358947) < 1e-12
    assert "sd" not in bj.edge(preset="online", spread=False)
