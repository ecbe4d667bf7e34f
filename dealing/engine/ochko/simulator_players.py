"""An Ochko table of players of several kinds (simulators/players.py), dealt shoe after shoe.

    from dealing.engine.ochko.simulator_players import Player, simulate_table
    shoes = simulate_table(rng, players=[Player("P-1", "random"), Player("P-2", "ochko_counter")], shoes=5)
    items, dealt = shoes[0]     # the shoe's shoe/1 items (the load burns, its rounds) and its rounds

Each player sits at his own box with one Ante of the table minimum and draws like the simulator's
casual players. The honest kinds choose the Bet (in Antes) whatever the count; the Ochko counter
keeps the Ochko count (count.py: TAGS), sees every card the dealer takes out, the burns included,
and bets 1-8 Antes by the true count before the round (per 36-card deck). After loading, the
dealer burns 6 cards; the shoe is replaced when fewer than `RESHUFFLE_AT` cards are left.
"""

from ..simulators.players import HONEST, Dealt, honest_units, spread
from .count import TAGS
from .simulator import new_shoe, simulate_round

KINDS = (*HONEST, "ochko_counter")
RESHUFFLE_AT = 72  # two decks: the rest of the shoe is not dealt
LOAD_BURNS = 6


class Player:
    """One player at the Ochko table: his name and kind."""

    def __init__(self, name: str, kind: str = "random"):
        if kind not in KINDS:
            raise ValueError(f"unknown kind of player {kind!r} (known: {', '.join(KINDS)})")
        self.name = name
        self.kind = kind
        self.units = 1
        self.tc = 0.0
        self.rng = None

    def place(self, tc: float, rng) -> None:
        self.tc = tc
        self.rng = rng
        self.units = honest_units(self.kind, rng, self.units) if self.kind in HONEST else spread(tc)

    def bet_multiple(self, first_card: str) -> int:
        """The Bet in Antes once his first card is seen (never a fold: the Ante is already his)."""
        return self.units


def simulate_table(
    rng, *, players: list[Player], shoes: int, dealer: str = "D-1", table_name: str | None = None, incidents=0.02
) -> list[tuple[list[dict], list[Dealt]]]:
    """`shoes` shoes dealt to the players (box 1, 2, … in the order given): for each, its shoe/1
    items (the shuffle, the load burns, the rounds) and its rounds with the count seen before each."""
    if not 1 <= len(players) <= 6:
        raise ValueError("an Ochko table seats 1 to 6 players")
    out = []
    for number in range(1, shoes + 1):
        shoe = new_shoe(rng)
        items: list[dict] = [{"e": "shuffle", "by": dealer}]
        running = 0
        for _ in range(LOAD_BURNS):
            card = shoe.pop()
            running += TAGS[card[0]]
            items.append({"e": "burn", "card": card, "reason": "load"})
        dealt: list[Dealt] = []
        while len(shoe) >= RESHUFFLE_AT:
            tc = running / (len(shoe) / 36)
            for p in players:
                p.place(tc, rng)
            before = len(shoe)
            prior = list(shoe)  # the round pops its cards off the end: they are prior[len(shoe):]
            sim = simulate_round(
                rng,
                shoe=shoe,
                dealer=dealer,
                table_name=table_name,
                seats=dict(enumerate(players, start=1)),
                incidents=incidents,
                number=len(dealt),
            )
            dealt.append(Dealt(sim.doc, number, running, tc, before))
            items.append({"e": "round", "round": sim.doc})
            running += sum(TAGS[c[0]] for c in prior[len(shoe) :])
        out.append((items, dealt))
    return out
