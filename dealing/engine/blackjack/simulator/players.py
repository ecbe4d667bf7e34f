"""A blackjack table of players of several kinds (simulators/players.py), dealt shoe after shoe.

    from dealing.engine.blackjack.simulator.players import Player, simulate_table
    shoes = simulate_table(rng, players=[Player("P-1", "flat"), Player("P-2", "counter")], shoes=10)
    shoes[0][5].doc, shoes[0][5].true_count      # a round/1 document and the count seen before it

Every player sits at his own box and plays the simulator's basic strategy; the counter and the
wonger keep the Hi-Lo count (they see every card, as the simulator does) and bet 1-8 units by the
true count before the round, take insurance at +3 and make the index plays below (the Illustrious
18's, at the count before the round). The salon preset deals each shoe down to its cut card.
"""

from decimal import Decimal

from ...simulators.players import HONEST, Dealt, honest_units, spread
from . import simulate_round
from .cards import VALUE, basic_strategy, new_shoe, total
from .rules import PRESETS

KINDS = (*HONEST, "counter", "wonger")
HILO = {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "A": -1, "T": -1, "J": -1, "Q": -1, "K": -1}
ENTER, LEAVE = 2.0, 0.0  # the wonger's true counts


def _up(card: str) -> int:
    v = VALUE[card[0]]
    return 11 if v == 1 else v


# (hard total, dealer's up card) -> (the true count from which the play changes, the play there)
# for the index plays that stand or double more at high counts; the hits at low counts below.
_AT_OR_ABOVE = {
    (16, 10): (0, "stand"),
    (15, 10): (4, "stand"),
    (16, 9): (5, "stand"),
    (10, 10): (4, "double"),
    (10, 11): (4, "double"),
    (11, 11): (1, "double"),
    (12, 3): (2, "stand"),
    (12, 2): (3, "stand"),
    (9, 2): (1, "double"),
    (9, 7): (3, "double"),
}
_BELOW = {(13, 2): -1, (13, 3): -2, (12, 4): 0, (12, 5): -2, (12, 6): -1}  # hit below these
_SPLIT_TENS = {5: 5, 6: 4}


class Player:
    """One player at the table: his name, kind and unit (the table minimum when None)."""

    def __init__(self, name: str, kind: str = "flat", unit: Decimal | int | None = None):
        if kind not in KINDS:
            raise ValueError(f"unknown kind of player {kind!r} (known: {', '.join(KINDS)})")
        self.name = name
        self.kind = kind
        self.unit = Decimal(unit) if unit is not None else None
        self.units = 1
        self.tc = 0.0
        self.bet = Decimal(0)
        self.seated = kind != "wonger"

    def joins(self, tc: float) -> bool:
        """Whether he plays the next round: everyone but the wonger always."""
        if self.kind == "wonger":
            if self.seated and tc <= LEAVE:
                self.seated = False
            elif not self.seated and tc >= ENTER:
                self.seated = True
        return self.seated

    def place(self, tc: float, rng, unit: Decimal) -> None:
        self.tc = tc
        if self.kind in HONEST:
            self.units = honest_units(self.kind, rng, self.units)
        else:
            self.units = spread(tc)
        self.bet = (self.unit or unit) * self.units

    def insures(self) -> bool:
        return self.kind not in HONEST and self.tc >= 3

    def play(self, cards: list[str], up: str, *, can_double: bool, can_split: bool) -> str:
        action = basic_strategy(cards, up, can_double=can_double, can_split=can_split)
        if self.kind in HONEST:
            return action
        d = _up(up)
        best, soft = total(cards)
        two = len(cards) == 2
        if can_split and two and VALUE[cards[0][0]] == 10 and VALUE[cards[1][0]] == 10:
            at = _SPLIT_TENS.get(d)
            return "split" if at is not None and self.tc >= at else "stand"
        if soft or action == "split":
            return action
        index = _AT_OR_ABOVE.get((best, d))
        if index is not None and self.tc >= index[0]:
            play = index[1]
            if play == "double" and not can_double:
                play = "hit"
            return play
        below = _BELOW.get((best, d))
        if below is not None and self.tc < below:
            return "hit"
        return action


def simulate_table(
    rng,
    *,
    players: list[Player],
    shoes: int,
    preset: str = "salon",
    dealer: str = "D-1",
    table_name: str | None = None,
    table_min=None,
    table_max=None,
) -> list[list[Dealt]]:
    """`shoes` shoes dealt to the players (box 1, 2, … in the order given), each to its cut card.
    A round nobody joins is not dealt (the wonger waits for the count with the others)."""
    rules = PRESETS[preset]
    if len(players) > rules["boxes"]:
        raise ValueError(f"at most {rules['boxes']} players at a {preset} table")
    if rules["cut_remaining"] is None:
        raise ValueError("a count needs a shoe dealt down to a cut card (the salon's)")
    if all(p.kind == "wonger" for p in players):
        raise ValueError("a table of wongers alone is never dealt a round")
    decks, cut = rules["decks"], rules["cut_remaining"]
    unit = Decimal(table_min) if table_min is not None else rules["min"]
    out: list[list[Dealt]] = []
    for number in range(1, shoes + 1):
        shoe = new_shoe(rng, decks)
        running = 0
        dealt: list[Dealt] = []
        for p in players:
            p.seated = p.kind != "wonger"
        while len(shoe) >= cut:
            tc = running / (len(shoe) / 52)
            seats = {}
            for box, p in enumerate(players, start=1):
                if p.joins(tc):
                    p.place(tc, rng, unit)
                    seats[box] = p
            if not seats:
                break
            before = len(shoe)
            prior = list(shoe)  # the round pops its cards off the end: they are prior[len(shoe):]
            sim = simulate_round(
                rng,
                preset=preset,
                shoe=shoe,
                dealer=dealer,
                table_name=table_name,
                table_min=table_min,
                table_max=table_max,
                seats=seats,
                number=len(dealt),
            )
            dealt.append(Dealt(sim.doc, number, running, tc, before))
            running += sum(HILO.get(c[0], 0) for c in prior[len(shoe) :])
        out.append(dealt)
    return out
