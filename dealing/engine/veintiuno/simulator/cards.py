"""The simulator's own veintiuno arithmetic (rules/veintiuno.md), independent of the engine's: the
40-card pack, the special two-card hands it can arrange, what a hand is owed, and the pack
dealt to the end and gathered again.
"""

from decimal import Decimal

RANKS = "A234567JQK"
SUITS = "SHDC"
POINTS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 10, "Q": 10, "K": 10}
HIGH_CARD = {r: k for k, r in enumerate("234567JQKA")}  # the draw for the first bank: Ace highest
FACES = "JQK"
PLAYERS = ["Ana", "Beto", "Caro", "Dani", "Eva", "Fede", "Gabi", "Hugo", "Inés", "Juan"]

# Special two-card hands the simulator can arrange for a seat (or the bank) by picking the cards.
# Each entry: ranks wanted card by card, and whether the second card must share the first's suit.
SPECIALS = {
    "natural": [("A", "JQK"), ("JQK", "A")],
    "monona": [("A", "A")],
    "twelve": [("5", "7"), ("7", "5"), ("6", "6"), ("2", "JQK"), ("JQK", "2")],
    "suited_twelve": [("5", "7"), ("7", "5"), ("2", "JQK"), ("JQK", "2")],
    "relancina": [("J", "QK"), ("Q", "JK"), ("K", "JQ")],
    "thirteen": [("6", "7"), ("7", "6"), ("3", "JQK"), ("JQK", "3")],
    "pair": [(r, r) for r in RANKS],
    "trillona": [
        ("2", "3", "4", "5", "5", "A", "A"),
        ("3", "2", "2", "4", "3", "6", "A"),
        ("2", "4", "A", "3", "2", "4", "5"),
    ],
    "twenty": [("J", "QK"), ("K", "K"), ("Q", "Q"), ("5", "7"), ("2", "JQK")],  # for the bank
}
SUITED = {"suited_twelve": "same", "twelve": "other", "twenty": "other"}


# --- the simulator's own arithmetic ---------------------------------------------------------------


def hard(cards: list[str]) -> int:
    return sum(POINTS[c[0]] for c in cards)


def best(cards: list[str]) -> int:
    total = hard(cards)
    if total <= 11 and any(c[0] == "A" for c in cards):
        return total + 10
    return total


def special(cards: list[str]) -> str | None:
    """The name of a two-card special hand, or None."""
    if len(cards) != 2:
        return None
    (r1, s1), (r2, s2) = cards
    pair = {r1, r2}
    if pair == {"A"}:
        return "monona"
    if "A" in pair:
        return "natural" if pair & set(FACES) else None
    if pair <= set(FACES):
        return "relancina" if len(pair) == 2 else None
    if POINTS[r1] + POINTS[r2] == 12:
        return "suited_twelve" if s1 == s2 else "twelve"
    return None


def points(cards: list[str]) -> int:
    """What a hand counts: 21 for a natural, a moñona or a suited 12; 20 for a 12 or a relancina."""
    kind = special(cards)
    if kind in ("natural", "monona", "suited_twelve"):
        return 21
    if kind in ("twelve", "relancina"):
        return 20
    return best(cards)


def hand_result(cards: list[str], bet: Decimal, how: str, bank: list[str], suited_pays: int) -> tuple:
    """(result, amount, why) for one hand. `how`: declared, withdrawn, over, tapo, stood."""
    if how == "withdrawn":
        return "leave", bet, "withdrawn"
    if how == "declared":
        return "pay", bet * 2, "natural"
    if how == "over":
        return "take", bet, "over"
    bank_natural = special(bank) == "natural"
    bank_points = points(bank)
    bank_over = bank_points > 21
    kind = special(cards)
    times = {"monona": 3, "suited_twelve": suited_pays}.get(kind)
    if times is None and len(cards) == 7 and best(cards) == 21:
        times = 7
    if times is not None:
        if bank_natural:
            return "take", bet, "special beaten by the bank's natural"
        return "pay", bet * times, f"special {times}:1"
    mine = points(cards)
    if how == "tapo" and bank_over:
        return ("pay", bet, "tapo, bank over") if mine <= 21 else ("leave", bet, "tapo over, bank over")
    if mine > 21:
        return "take", bet, "tapo over"
    if bank_over:
        return "pay", bet, "bank over"
    if mine > bank_points:
        return "pay", bet, "higher"
    if mine == bank_points:
        return "take", bet, "tie"
    return "take", bet, "lower"


# --- the pack -------------------------------------------------------------------------------------


class PackExhausted(RuntimeError):
    """Every card of the pack is on the table and a hand wants one more: the round is dealt again."""


class Pack:
    """One shuffled pack (or several together), dealt to the end; then every card not on the table
    is gathered and shuffled again."""

    def __init__(self, rng, packs: int = 1):
        self.rng = rng
        self.packs = packs
        self.cards = [r + s for r in RANKS for s in SUITS] * packs
        rng.shuffle(self.cards)
        self.gathered = 0  # how many times the pack ran out and was gathered

    def snapshot(self):
        return list(self.cards), self.gathered

    def restore(self, state) -> None:
        self.cards, self.gathered = list(state[0]), state[1]

    def _refill(self, on_table: list[str]) -> None:
        if self.cards:
            return
        left = [r + s for r in RANKS for s in SUITS] * self.packs
        for card in on_table:
            if card in left:
                left.remove(card)
        if not left:
            raise PackExhausted("every card of the pack is on the table")
        self.rng.shuffle(left)
        self.cards = left
        self.gathered += 1

    def draw(self, on_table: list[str]) -> str:
        self._refill(on_table)
        return self.cards.pop()

    def pick(self, on_table: list[str], ranks: str, suit: str | None = None, other_suit: str | None = None):
        """A card of one of `ranks` (of `suit`, or not of `other_suit`) taken from the pack, or None."""
        self._refill(on_table)
        found = [
            k
            for k, c in enumerate(self.cards)
            if c[0] in ranks and (suit is None or c[1] == suit) and (other_suit is None or c[1] != other_suit)
        ]
        if not found:
            return None
        return self.cards.pop(self.rng.choice(found))


# --- one round ------------------------------------------------------------------------------------
