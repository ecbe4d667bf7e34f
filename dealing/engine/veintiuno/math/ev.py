"""Veintiuno's option values (`ev/1`) for a player's hand against the bank's face-up card
(rules/veintiuno.md; the strategy trainer asks them), in floats: every value is a sum of
probability-weighted positive terms over the exact recursion, with no cancellation, so its error
stays near 1e-16 (an exact-fraction version of the same recursion agreed to 1e-16 on 15 random
questions and was two to three times slower, too slow for the trainer's deal).

The model is that of `veintiuno.edge` (docs/veintiuno-math.md): one player heads up, off the top
of the pack less the cards named; the bank's first card is face down (drawn from the unseen
cards: by exchangeability any of them) and its second, the up card, face up; after the player the
bank draws while it counts under `bank_stands` (no puje). The bank plays "by its own choice" in the
rules, so these are the values against *that* bank, not a game-theoretic value.

Options of a hand (values per unit bet, net):

- `stand`; `hit` (then the best of stand / hit / tapo y quedo for the hand that results);
- `tapo` — tapo y quedo: one more card, face down, then the hand stands; when the bank goes over
  21 the hand does not lose (paid if it is 21 or less, the bet returned if over);
- `withdraw` on a 13 in two cards (the bet comes back: 0).

Not here: a declared natural (paid 2:1 at once: no decision), opening a pair, voiding the hand as
pie de banco. A two-card hand keeps its two-card value when it stands (moñona 3:1, a suited 12
2:1 by default, unless the bank holds a natural); drawing on, it counts its cards. Seven cards
making 21 are a trillona (7:1). A hand over 21 loses at once, whatever the bank does.

Suits matter in one place: a bank two-card 12 of one suit counts 21. The up card's suit is known,
so the unseen cards that would make it so (its "partners") are counted apart from the rest of
their value class, and the recursion keeps that count exact as the player draws.
"""

from fractions import Fraction
from functools import lru_cache

from ...math.questions import QuestionError, read_cards
from .. import rules as R
from . import (
    ACE,
    BANK_STANDS,
    BUST,
    CLASS_VALUE,
    FULL,
    best_total,
    class_of,
    decimal,
    is_twelve,
    read_rules,
    take,
    two_card_kind,
    two_card_value,
)

__all__ = ["ev", "OPTION_ORDER"]


def _F(numerator, denominator=1) -> float:
    return numerator / denominator


OPTION_ORDER = ("stand", "hit", "tapo", "withdraw")  # also the order that breaks ties


def _partner_class(up: int) -> int | None:
    """The value class that makes a two-card 12 with the up card (None: no such class)."""
    for c in range(len(CLASS_VALUE)):
        if is_twelve(up, c):
            return c
    return None


def _hole_cards(rem: tuple, partners: int, partner: int | None):
    """(class, suited with the up card, ways) of the bank's face-down card."""
    for c, k in enumerate(rem):
        if not k:
            continue
        if c == partner and partners:
            yield c, True, partners
            if k - partners:
                yield c, False, k - partners
        else:
            yield c, False, k


MEMO_LIMIT = 100_000  # entries of one up card's memos before they are cleared (some 30 MB)


def _compare(count: int, finals: tuple) -> float:
    """A standing count's value against the bank (ties and a bank natural go to the bank)."""
    value = _F(0)
    for bank, p in finals:
        value += p if bank == BUST or (bank != 23 and count > bank) else -p
    return value


class _Hand:
    """The values of one question: the up card, the bank's rule and the house rules are fixed."""

    def __init__(self, up: int, stands: int, suited_pays: int):
        self.up, self.stands, self.suited_pays = up, stands, suited_pays
        self.partner = _partner_class(up)
        self.memo: dict = {}
        self._finals: dict = {}
        self._bank: dict = {}

    def trim(self) -> None:
        """Forget the memos when they grow past MEMO_LIMIT: a web process asks question after question."""
        if len(self.memo) + len(self._finals) + len(self._bank) > MEMO_LIMIT:
            self.memo.clear()
            self._finals.clear()
            self._bank.clear()

    def bank(self, rem: tuple, hard: int, aces: int, value: int) -> dict:
        """The bank's final count drawing from `rem`: {count: probability} (22 for over 21), in
        floats: the sums are of at most a few thousand positive terms, so the error stays near 1e-15."""
        if value >= self.stands:
            return {min(value, BUST): 1.0}
        key = (rem, hard, aces)
        got = self._bank.get(key)
        if got is not None:
            return got
        final: dict[int, float] = {}
        n = sum(rem)
        for c, k in enumerate(rem):
            if not k:
                continue
            h, x = hard + CLASS_VALUE[c], aces + (c == ACE)
            best = best_total(h, x)
            p = k / n
            for count, q in self.bank(take(rem, c), h, x, BUST if best > 21 else best).items():
                final[count] = final.get(count, 0.0) + p * q
        self._bank[key] = final
        return final

    def finals(self, rem: tuple, partners: int) -> tuple:
        """The bank's result over its face-down card and its draws from `rem`: ((count, P), …) with
        count 22 for over 21 and 23 for a bank natural; the probabilities sum to 1."""
        key = (rem, partners)
        got = self._finals.get(key)
        if got is not None:
            return got
        up, n = self.up, sum(rem)
        out: dict[int, float] = {}
        for hole, suited, ways in _hole_cards(rem, partners, self.partner):
            left = take(rem, hole)
            if two_card_kind(hole, up, suited) == "natural":
                out[23] = out.get(23, 0.0) + ways / n
                continue
            value = two_card_value(hole, up, suited)
            hard, aces = CLASS_VALUE[hole] + CLASS_VALUE[up], (hole == ACE) + (up == ACE)
            for count, q in self.bank(left, hard, aces, value).items():
                out[count] = out.get(count, 0.0) + ways / n * q
        got = self._finals[key] = tuple(sorted(out.items()))
        return got

    def stand(self, rem, partners, hard, aces, n, special=None, value=None) -> float:
        count = best_total(hard, aces) if value is None else value
        if count > 21:
            return _F(-1)
        finals = self.finals(rem, partners)
        bank_natural = dict(finals).get(23, _F(0))
        if count == 21 and n == R.TRILLONA_CARDS:
            return 7 * (1 - bank_natural) - bank_natural
        if special is not None:
            return special * (1 - bank_natural) - bank_natural
        return _compare(count, finals)

    def draws(self, rem: tuple, partners: int):
        """(class, ways, rem after, partners after) of the player's next card."""
        n = sum(rem)
        for c, k in enumerate(rem):
            if not k:
                continue
            after = take(rem, c)
            if c == self.partner and partners:
                yield c, _F(partners, n), after, partners - 1
                if k - partners:
                    yield c, _F(k - partners, n), after, partners
            else:
                yield c, _F(k, n), after, partners

    def hit(self, rem, partners, hard, aces, n) -> float:
        return sum(
            (
                p * self.best(after, left, hard + CLASS_VALUE[c], aces + (c == ACE), n + 1)
                for c, p, after, left in self.draws(rem, partners)
            ),
            _F(0),
        )

    def tapo(self, rem, partners, hard, aces, n) -> float:
        total = _F(0)
        for c, p, after, left in self.draws(rem, partners):
            h, a = hard + CLASS_VALUE[c], aces + (c == ACE)
            count = best_total(h, a)
            finals = self.finals(after, left)
            bust = dict(finals).get(BUST, _F(0))
            if count > 21:
                total += p * -(1 - bust)  # over 21: lost, unless the bank goes over too (returned)
            elif count == 21 and n + 1 == R.TRILLONA_CARDS:
                total += p * self.stand(after, left, h, a, n + 1)
            else:
                total += p * _compare(count, finals)
        return total

    def options(self, rem, partners, hard, aces, n) -> dict:
        out = {"stand": self.stand(rem, partners, hard, aces, n)}
        if best_total(hard, aces) < 21 and n < R.TRILLONA_CARDS:
            out["hit"] = self.hit(rem, partners, hard, aces, n)
            out["tapo"] = self.tapo(rem, partners, hard, aces, n)
        return out

    def best(self, rem, partners, hard, aces, n) -> float:
        if best_total(hard, aces) > 21:
            return _F(-1)
        key = (rem, partners, hard, aces, n)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = max(self.options(rem, partners, hard, aces, n).values())
        return got


@lru_cache(maxsize=3)
def _solver(up: int, stands: int, suited_pays: int) -> _Hand:
    """One memo per up card and rules: the states (cards left, hand) of every question share it."""
    return _Hand(up, stands, suited_pays)


def ev(cards, bank=None, removed=(), rules=None, *, bank_stands: int = BANK_STANDS) -> dict:
    """Every option of the player's hand against the bank's up card (see the module)."""
    in_force = read_rules(rules)
    pack_text = "the 40-card pack (A, 2–7, J, Q, K in four suits: AS, 7H, KC …)"
    hand = read_cards(cards, "cards", R.PACK, pack_text)
    if len(hand) < 2:
        raise QuestionError("cards", "Name the hand's cards: at least two (e.g. 5S 7S).")
    ups = read_cards(bank, "bank", R.PACK, pack_text)
    if len(ups) != 1:
        raise QuestionError("bank", "Name the bank's face-up card: one card (e.g. KC).")
    gone = read_cards(removed, "removed", R.PACK, pack_text)
    named = [("cards", c) for c in hand] + [("bank", ups[0])] + [("removed", c) for c in gone]
    seen: dict[str, int] = {}
    for field, code in named:
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > in_force["packs"]:
            raise QuestionError(field, f"{code} is named {seen[code]} times; the pack holds {in_force['packs']}.")
    if not 4 <= bank_stands <= 21:
        raise QuestionError("bank_stands", "the bank's standing count is from 4 to 21")
    classes = [class_of(c) for c in hand]
    hard, aces = sum(CLASS_VALUE[c] for c in classes), classes.count(ACE)
    if best_total(hard, aces) > 21:
        raise QuestionError("cards", f"{best_total(hard, aces)} is over 21: the hand is already settled.")
    two = len(hand) == 2
    suited = two and hand[0][1] == hand[1][1] and is_twelve(classes[0], classes[1])
    kind = two_card_kind(classes[0], classes[1], suited) if two else None
    if kind == "natural":
        raise QuestionError("cards", "A natural is declared and paid 2:1 at once: there is no decision.")
    up = class_of(ups[0])
    rem = tuple(n * in_force["packs"] for n in FULL)
    for code in [*hand, ups[0], *gone]:
        rem = take(rem, class_of(code))
    if sum(rem) < 10:
        raise QuestionError("removed", "The pack left is too small for the model (fewer than 10 cards).")
    partner = _partner_class(up)
    partners = 0
    if partner is not None:
        unseen = [c for c in R.PACK if class_of(c) == partner and c[1] == ups[0][1]] * in_force["packs"]
        for code in [*hand, ups[0], *gone]:
            if code in unseen:
                unseen.remove(code)
        partners = len(unseen)
    solver = _solver(up, bank_stands, in_force["suited_twelve_pays"])
    solver.trim()
    n = len(hand)
    options = solver.options(rem, partners, hard, aces, n)
    if two:
        special = {"monona": 3, "suited_twelve": in_force["suited_twelve_pays"]}.get(kind)
        value = two_card_value(classes[0], classes[1], suited)
        options["stand"] = solver.stand(rem, partners, hard, aces, n, special=special, value=value)
        if best_total(hard, aces) == 13:
            options["withdraw"] = _F(0)
    best = max(OPTION_ORDER, key=lambda k: (k in options, options.get(k, _F(-10))))
    best = next(k for k in OPTION_ORDER if k in options and options[k] == options[best])
    return {
        "format": "ev/1",
        "variant": "veintiuno",
        "preset": None,
        "cards": hand,
        "dealer": ups[0],
        "bet": None,
        "removed": gone,
        "options": {k: decimal(Fraction(options[k])) for k in OPTION_ORDER if k in options},
        "best": best,
        "rules": in_force,
        "bank": {"stands_on": bank_stands, "puje": False},
    }
