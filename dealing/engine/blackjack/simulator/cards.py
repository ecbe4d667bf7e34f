"""The blackjack simulator's own arithmetic: the shoe, what a hand counts, a natural, 3:2 — and
the basic strategy its house-played seats follow. Written apart from the engine's, on purpose: the
property tests compare the two."""

from decimal import ROUND_DOWN, Decimal

RANKS = "23456789TJQKA"
VALUE = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
PLAYERS = [f"P-{n}" for n in range(1, 25)]
CENT = Decimal("0.01")

TEN = set("TJQK")
LOW = set("23456789")


def new_shoe(rng, decks: int) -> list[str]:
    shoe = [r + s for r in RANKS for s in "SHDC"] * decks
    rng.shuffle(shoe)
    return shoe


def total(cards: list[str]) -> tuple[int, bool]:
    """(best total, soft)."""
    hard = sum(VALUE[c[0]] for c in cards)
    if any(c[0] == "A" for c in cards) and hard <= 11:
        return hard + 10, True
    return hard, False


def natural(cards: list[str]) -> bool:
    return len(cards) == 2 and {VALUE[cards[0][0]], VALUE[cards[1][0]]} == {1, 10}


def three_to_two(bet: Decimal) -> Decimal:
    """What a blackjack is paid: half as much again as the bet, to the cent below."""
    return (bet * 3 / 2).quantize(CENT, rounding=ROUND_DOWN)


# --- basic strategy: multi-deck, dealer stands on soft 17, double after split, no surrender ----------


def _up_value(card: str) -> int:
    v = VALUE[card[0]]
    return 11 if v == 1 else v


def basic_strategy(cards: list[str], up: str, *, can_double: bool, can_split: bool) -> str:
    d = _up_value(up)
    if can_split and len(cards) == 2 and VALUE[cards[0][0]] == VALUE[cards[1][0]]:
        pair = VALUE[cards[0][0]]
        split = {
            1: True,
            8: True,
            10: False,
            5: False,
            9: d in (2, 3, 4, 5, 6, 8, 9),
            7: d <= 7,
            6: d <= 6,
            4: d in (5, 6),
            3: d <= 7,
            2: d <= 7,
        }[pair]
        if split:
            return "split"
    best, soft = total(cards)
    if soft:
        if best >= 19:
            return "stand"
        if best == 18:
            if can_double and 3 <= d <= 6:
                return "double"
            return "stand" if d in (2, 7, 8) else "hit"
        lo = {17: 3, 16: 4, 15: 4, 14: 5, 13: 5}.get(best, 12)
        return "double" if can_double and lo <= d <= 6 else "hit"
    if best >= 17:
        return "stand"
    if best >= 13:
        return "stand" if d <= 6 else "hit"
    if best == 12:
        return "stand" if 4 <= d <= 6 else "hit"
    if best == 11:
        return "double" if can_double and d <= 10 else "hit"
    if best == 10:
        return "double" if can_double and d <= 9 else "hit"
    if best == 9:
        return "double" if can_double and 3 <= d <= 6 else "hit"
    return "hit"
