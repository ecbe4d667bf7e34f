"""The blackjack solver: composition-dependent values of every option of a hand against an up card,
and the house edge of the deal off the top (blackjack.py asks it; the model is
docs/blackjack-math.md).

Every value kept here is *unnormalised*: E[net · 1{no dealer blackjack} | the cards seen], so
with an ace or a ten up it is the conditioned EV times P(no dealer blackjack | those cards). By
exchangeability the player's next card is drawn from the unseen cards whatever the hole card is,
so hitting stays Σ_c p_c · U(hand + c); the constant factor at a node does not change which
option is best there; the caller divides by it (blackjack.py) to answer the conditioned EV.

A value is a triple (mean, wager, square): E[net·1], E[amount wagered·1], E[net²·1].

Rank indices: 0 the ace, 1 … 8 the two to the nine, 9 any ten-value card (dealer.py).
"""

from math import comb

from .dealer import ACE, N_RANKS, TEN, DealerOdds, no_blackjack
from .spread import cross_sum

STAND, HIT, DOUBLE, SPLIT, SURRENDER = "stand", "hit", "double", "split", "surrender"
ORDER = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)  # also the order that breaks ties

_DEALERS: dict[bool, DealerOdds] = {}


def dealer_odds(hit_soft_17: bool) -> DealerOdds:
    """One memo of dealer odds per dealer rule, shared by every rule set and shoe."""
    got = _DEALERS.get(hit_soft_17)
    if got is None:
        got = _DEALERS[hit_soft_17] = DealerOdds(hit_soft_17)
    return got


def dealer_marks() -> dict[bool, int]:
    """How many odds each dealer rule's memo holds now (`forget_dealers_since` goes back to it)."""
    return {rule: len(odds) for rule, odds in _DEALERS.items()}


def forget_dealers_since(marks: dict[bool, int]) -> None:
    """Drop the dealer odds memoised since `marks`, and the memo of a dealer rule that had none."""
    for rule in list(_DEALERS):
        if rule in marks:
            _DEALERS[rule].forget_since(marks[rule])
        else:
            del _DEALERS[rule]


_TOTALS: dict = {}


def total(hand: tuple) -> tuple[int, bool]:
    """(best total, soft) of a hand given as counts by rank."""
    got = _TOTALS.get(hand)
    if got is None:
        hard = sum((r + 1) * c for r, c in enumerate(hand))
        got = _TOTALS[hand] = (hard + 10, True) if hand[ACE] and hard <= 11 else (hard, False)
    return got


def _add(hand: tuple, r: int) -> tuple:
    return hand[:r] + (hand[r] + 1,) + hand[r + 1 :]


def _sub(shoe: tuple, hand: tuple) -> tuple:
    return tuple(s - h for s, h in zip(shoe, hand))


def _scale(value: tuple, k: float) -> tuple:
    return (value[0] * k, value[1] * k, value[2] * k)


def _plus(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


ZERO3 = (0.0, 0.0, 0.0)


class Solver:
    """Values for one rule set and one shoe (the shoe before the player's cards and the up card)."""

    def __init__(self, rules: dict, shoe: tuple):
        self.rules = rules
        self.shoe = shoe
        self.dealer = dealer_odds(bool(rules["hit_soft_17"]))
        self._stand: dict = {}
        self._best: dict = {}
        self._policy: dict = {}
        self._left: dict = {}
        self._subs: dict = {}

    # --- the shoe and the dealer ----------------------------------------------------------------

    def left(self, up: int, hand: tuple) -> tuple:
        """The shoe after the hand and the up card (memoised)."""
        key = (up, hand)
        got = self._left.get(key)
        if got is None:
            shoe = list(_sub(self.shoe, hand))
            shoe[up] -= 1
            got = self._left[key] = tuple(shoe)
        return got

    def stand(self, up: int, hand: tuple) -> tuple:
        key = (up, hand)
        got = self._stand.get(key)
        if got is not None:
            return got
        shoe = self.left(up, hand)
        best, _ = total(hand)
        nb = no_blackjack(up, shoe)
        if best > 21:
            got = (-nb, nb, nb)
        else:
            odds = self.dealer(up, shoe)
            bust = odds[5]
            if best <= 16:
                win, lose = bust, nb - bust
            else:
                i = best - 17
                win = bust + sum(odds[:i])
                lose = sum(odds[i + 1 : 5])
            got = (win - lose, nb, win + lose)
        self._stand[key] = got
        return got

    def _draws(self, up: int, hand: tuple) -> list:
        """[(rank, probability, hand + rank)] of the next card (memoised)."""
        key = (up, hand, "draws")
        got = self._left.get(key)
        if got is None:
            shoe = self.left(up, hand)
            n = sum(shoe)
            got = []
            memo = self._left
            for r in range(N_RANKS):
                if shoe[r]:
                    child = _add(hand, r)
                    memo.setdefault((up, child), shoe[:r] + (shoe[r] - 1,) + shoe[r + 1 :])
                    got.append((r, shoe[r] / n, child))
            memo[key] = got
        return got

    # --- optimal play after the first decision (stand or hit only) ------------------------------

    def hit(self, up: int, hand: tuple) -> tuple:
        """Take one card, then play on optimally (stand or hit)."""
        m = w = q = 0.0
        best = self.best
        for _r, p, child in self._draws(up, hand):
            v = best(up, child)
            m += p * v[0]
            w += p * v[1]
            q += p * v[2]
        return (m, w, q)

    def best(self, up: int, hand: tuple) -> tuple:
        """The value of a hand that may only stand or hit, played optimally (a bust: its loss)."""
        key = (up, hand)
        got = self._best.get(key)
        if got is not None:
            return got
        stand = self.stand(up, hand)
        best, _ = total(hand)
        if best >= 21:
            got = stand
        else:
            hit = self.hit(up, hand)
            got = hit if hit[0] > stand[0] else stand
        self._best[key] = got
        return got

    def double(self, up: int, hand: tuple) -> tuple:
        m = w = q = 0.0
        for _r, p, child in self._draws(up, hand):
            v = self.stand(up, child)
            m += p * v[0]
            w += p * v[1]
            q += p * v[2]
        return (2 * m, 2 * w, 4 * q)

    def surrender(self, up: int, hand: tuple) -> tuple:
        nb = no_blackjack(up, self.left(up, hand))
        return (-0.5 * nb, nb, 0.25 * nb)

    def can_double(self, hand: tuple, split: bool) -> bool:
        return can_double(self.rules, hand, split)

    # --- the first decision of a two-card hand ----------------------------------------------------

    def options(self, up: int, hand: tuple, *, split_hand: bool = False, policy=None) -> dict:
        """{option: value} for a two-card hand (split_hand: a hand made by splitting)."""
        out = {
            STAND: self.stand(up, hand),
            HIT: self.hit(up, hand) if policy is None else self._policy_hit(up, hand, policy),
        }
        if self.can_double(hand, split_hand):
            out[DOUBLE] = self.double(up, hand)
        pair = next((r for r in range(N_RANKS) if hand[r] == 2), None)
        if not split_hand and pair is not None and self.rules["max_hands"] >= 2:
            out[SPLIT] = self.split(up, pair, policy)
        if not split_hand and self.rules["surrender"]:
            out[SURRENDER] = self.surrender(up, hand)
        return out

    def split(self, up: int, r: int, policy=None, most: int | None = None, spread: bool = False) -> tuple:
        """Split a pair of rank r, exactly (docs/blackjack-math.md, "The split model"): each hand is
        played by the post-split strategy (`post_split_action`), resplit while fewer than `most`
        hands are out (the rules' max_hands by default; aces only with resplit_aces; the basic chart
        only where its pair cell says split). The square is Σ_k E[X_k²], the hands' own squares;
        with `spread` it is E[(Σ_k X_k)²], the cross terms added exactly (spread.py): dearer, so
        only the round's sd asks for it."""
        rules = self.rules
        if most is None:
            most = rules["max_hands"]
        if r == ACE and not rules["resplit_aces"]:
            most = min(most, 2)
        if policy is not None and not policy.resplits(r, up):
            most = min(most, 2)
        most = max(most, 2)
        pair = tuple(2 if k == r else 0 for k in range(N_RANKS))
        shoe = self.left(up, pair)
        n_all = sum(shoe)
        pairs_left = shoe[r]
        coef_non, coef_pair = split_coefficients(most)
        key = id(policy) if policy is not None else None
        mean = wager = square = 0.0
        # f = P(the first x cards drawn are all r) = (R)_x / (N)_x
        f = 1.0
        for x in range(max(len(coef_non), len(coef_pair))):
            if x > pairs_left:
                break
            if x:
                f *= (pairs_left - x + 1) / (n_all - x + 1)
            c_non = coef_non[x] if x < len(coef_non) else 0
            c_pair = coef_pair[x] if x < len(coef_pair) else 0
            if not (c_non or c_pair):
                continue
            non, paired = self._split_hand_values(up, r, x, policy, key)
            m = c_non * non[0] + c_pair * paired[0]
            w = c_non * non[1] + c_pair * paired[1]
            q = c_non * non[2] + c_pair * paired[2]
            mean += f * m
            wager += f * w
            square += f * q
        if spread:
            square += cross_sum(self, up, r, policy, most)
        return (mean, wager, square)

    def _split_hand_values(self, up: int, r: int, x: int, policy, key) -> tuple:
        """(W_non, W_pair) for x more r removed: a hand starting r draws its second card from the
        shoe at the split less x cards r; W_non = E[value · 1{second card not r}], W_pair =
        E[value · 1{second card r}], the hand played by the post-split strategy."""
        memo_key = (up, r, x, key, "split")
        got = self._left.get(memo_key)
        if got is not None:
            return got
        base = tuple(s - (x + 1 if k == r else 0) for k, s in enumerate(self.shoe))
        sub = self._subsolver(base)
        one = tuple(1 if k == r else 0 for k in range(N_RANKS))
        shoe = sub.left(up, one)
        n = sum(shoe)
        non = paired = ZERO3
        for c in range(N_RANKS):
            if not shoe[c]:
                continue
            v = _scale(sub.fixed(up, _add(one, c), r, self, policy, key), shoe[c] / n)
            if c == r:
                paired = v
            else:
                non = _plus(non, v)
        got = self._left[memo_key] = (non, paired)
        return got

    def _subsolver(self, base: tuple) -> "Solver":
        got = self._subs.get(base)
        if got is None:
            got = self._subs[base] = Solver(self.rules, base)
        return got

    def post_split_action(self, up: int, hand: tuple, r: int, policy=None) -> str:
        """What a split hand does with these cards: the strategy of the same cards unsplit, off
        this solver's shoe (the shoe before the deal, less the hand and the up card), among the
        options a split hand has. It looks at no other hand's cards, so it is one fixed strategy
        for every hand of the split, which is what makes the split's value exactly computable."""
        key = (up, hand, r == ACE, id(policy) if policy is not None else None, "post")
        got = self._left.get(key)
        if got is not None:
            return got
        best, soft = total(hand)
        first = sum(hand) == 2
        aces_one_card = first and r == ACE and not self.rules["hit_split_aces"]
        if best >= 21 or aces_one_card:
            got = STAND
        elif first:
            opts = {STAND: None, HIT: None}
            if self.can_double(hand, True):
                opts[DOUBLE] = None
            if policy is not None:
                got = policy.first(hand, up, opts, split=True)
            else:
                values = {STAND: self.stand(up, hand), HIT: self.hit(up, hand)}
                if DOUBLE in opts:
                    values[DOUBLE] = self.double(up, hand)
                got = max(values, key=lambda k: values[k][0])
        elif policy is not None:
            got = HIT if policy.hits(best, soft, up) else STAND
        else:
            got = HIT if self.hit(up, hand)[0] > self.stand(up, hand)[0] else STAND
        self._left[key] = got
        return got

    def fixed(self, up: int, hand: tuple, r: int, strategy: "Solver", policy, key) -> tuple:
        """The value of a split hand off this solver's shoe, played by `strategy`'s post-split
        actions (which come from another shoe: the strategy is fixed, not re-optimised here)."""
        memo = (up, hand, r == ACE, key, "fixed")
        got = self._policy.get(memo)
        if got is not None:
            return got
        action = strategy.post_split_action(up, hand, r, policy)
        if action == STAND:
            got = self.stand(up, hand)
        elif action == DOUBLE:
            got = self.double(up, hand)
        else:
            acc = ZERO3
            for _r, p, child in self._draws(up, hand):
                acc = _plus(acc, _scale(self.fixed(up, child, r, strategy, policy, key), p))
            got = acc
        self._policy[memo] = got
        return got

    # --- a fixed (total-dependent) policy ---------------------------------------------------------

    def _policy_hit(self, up: int, hand: tuple, policy) -> tuple:
        acc = ZERO3
        for _r, p, child in self._draws(up, hand):
            acc = _plus(acc, _scale(self.played(up, child, policy), p))
        return acc

    def played(self, up: int, hand: tuple, policy) -> tuple:
        """A hand of three or more cards played by the policy's stand / hit chart."""
        key = (up, hand, id(policy))
        got = self._policy.get(key)
        if got is not None:
            return got
        best, soft = total(hand)
        if best >= 21 or not policy.hits(best, soft, up):
            got = self.stand(up, hand)
        else:
            got = self._policy_hit(up, hand, policy)
        self._policy[key] = got
        return got


_COEFFICIENTS: dict = {}


def split_coefficients(most: int) -> tuple[list[int], list[int]]:
    """The integers c_non[x], c_pair[x] of E[Σ split hands] = Σ_x (R)_x/(N)_x · (c_non[x] · W_non(x)
    + c_pair[x] · W_pair(x)) when a pair may grow into `most` hands (derivation: docs/blackjack-math.md).

    A pattern is the sequence of second cards dealt, each only "r" or "not r"; it fixes the hands:
    t cards r (splits and pair hands), n non-pair hands, p pair hands. For one hand the other
    hands' "not r" cards are expanded by inclusion–exclusion, 1{not r} = 1 − 1{r}, so only
    "these cards are r" constraints remain, and cards with no constraint can be dealt after the
    hand and the dealer, where they change nothing."""
    got = _COEFFICIENTS.get(most)
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
    non, pair = [0] * size, [0] * size
    for (t, n, p), ways in patterns.items():
        for a in range(n):
            non[t + a] += ways * n * (-1) ** a * comb(n - 1, a)
        if p:
            for a in range(n + 1):
                pair[t - 1 + a] += ways * p * (-1) ** a * comb(n, a)
    got = _COEFFICIENTS[most] = (non, pair)
    return got


def can_double(rules: dict, hand: tuple, split: bool) -> bool:
    """Whether a two-card hand may double (split: a hand made by splitting)."""
    if split and not rules["double_after_split"]:
        return False
    if rules["double"] == "9-11":
        best, soft = total(hand)
        return not soft and 9 <= best <= 11
    return True


def deal_probabilities(shoe: tuple):
    """Yield (a, b, up, probability) for the player's two cards a ≤ b and the up card, off `shoe`
    (the deal order is player, up card, player; the probability counts both orders of a, b)."""
    n = sum(shoe)
    denom = n * (n - 1) * (n - 2)
    for a in range(N_RANKS):
        for b in range(a, N_RANKS):
            for up in range(N_RANKS):
                s = list(shoe)
                ways = s[a]
                s[a] -= 1
                ways *= s[up]
                s[up] -= 1
                ways *= s[b]
                if ways <= 0:
                    continue
                yield a, b, up, ways * (1 if a == b else 2) / denom


def natural(hand: tuple) -> bool:
    return sum(hand) == 2 and hand[ACE] == 1 and hand[TEN] == 1
