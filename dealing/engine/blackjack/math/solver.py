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

from .dealer import ACE, N_RANKS, TEN, DealerOdds, no_blackjack

STAND, HIT, DOUBLE, SPLIT, SURRENDER = "stand", "hit", "double", "split", "surrender"
ORDER = (STAND, HIT, DOUBLE, SPLIT, SURRENDER)  # also the order that breaks ties

_DEALERS: dict[bool, DealerOdds] = {}


def dealer_odds(hit_soft_17: bool) -> DealerOdds:
    """One memo of dealer odds per dealer rule, shared by every rule set and shoe."""
    got = _DEALERS.get(hit_soft_17)
    if got is None:
        got = _DEALERS[hit_soft_17] = DealerOdds(hit_soft_17)
    return got


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

    def split_hand_value(self, up: int, hand: tuple, aces: bool, policy=None) -> tuple:
        """One hand made by splitting, with its second card, played out (no further split)."""
        if aces and not self.rules["hit_split_aces"]:
            return self.stand(up, hand)
        opts = self.options(up, hand, split_hand=True, policy=policy)
        if policy is not None:
            return opts[policy.first(hand, up, opts, split=True)]
        return max(opts.values(), key=lambda v: v[0])

    def split(self, up: int, r: int, policy=None, most: int | None = None) -> tuple:
        """Split a pair of rank r: the hands' count follows the resplit rule (see the docs). `most`:
        the hands this pair may grow into (a resplit: the hands the box has left free, plus this one);
        the rules' max_hands by default."""
        rules = self.rules
        if most is None:
            most = rules["max_hands"]
        pair = tuple(2 if k == r else 0 for k in range(N_RANKS))
        shoe = self.left(up, pair)
        n = sum(shoe)
        q = shoe[r] / n
        aces = r == ACE
        one = tuple(1 if k == r else 0 for k in range(N_RANKS))
        other = ZERO3
        for x in range(N_RANKS):
            if x != r and shoe[x]:
                other = _plus(other, _scale(self.split_hand_value(up, _add(one, x), aces, policy), shoe[x] / n))
        non_pair = _scale(other, 1 / (1 - q)) if q < 1 else ZERO3
        as_pair = self.split_hand_value(up, pair, aces, policy)
        resplit_ok = most > 2 and (not aces or rules["resplit_aces"])
        if policy is not None:
            resplit_ok = resplit_ok and policy.resplits(r, up)
        nb = no_blackjack(up, shoe)
        choices = [self._split_count(non_pair, as_pair, q, 2, nb)]
        if resplit_ok:
            choices.append(self._split_count(non_pair, as_pair, q, most, nb))
        return max(choices, key=lambda v: v[0])

    @staticmethod
    def _split_count(non_pair: tuple, as_pair: tuple, q: float, most: int, nb: float) -> tuple:
        """E[Σ hands] when each hand's second card pairs it with probability q and a pair splits
        again while fewer than `most` hands are out; the square treats the hands as independent."""
        memo: dict = {}

        def counts(pending: int, hands: int) -> tuple[float, float]:
            # (E[non-pair hands], E[pair hands kept]) from here
            if pending == 0:
                return (0.0, 0.0)
            key = (pending, hands)
            if key in memo:
                return memo[key]
            a = counts(pending - 1, hands)
            if hands < most:
                b = counts(pending + 1, hands + 1)
                out = ((1 - q) * (1 + a[0]) + q * b[0], (1 - q) * a[1] + q * b[1])
            else:
                out = ((1 - q) * (1 + a[0]) + q * a[0], (1 - q) * a[1] + q * (1 + a[1]))
            memo[key] = out
            return out

        e_non, e_pair = counts(2, 2)
        hands = e_non + e_pair
        mean = e_non * non_pair[0] + e_pair * as_pair[0]
        wager = e_non * non_pair[1] + e_pair * as_pair[1]
        each_sq = e_non * non_pair[2] + e_pair * as_pair[2]
        # the cross terms: E[X_i X_j | no blackjack] taken as the product of the hands' means
        mu = mean / hands / nb
        square = each_sq + hands * (hands - 1) * mu * mu * nb
        return (mean, wager, square)

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
