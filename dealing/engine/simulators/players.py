"""What the simulators' players of several kinds share (issue #38, game protection): the record of
a round dealt with the count the simulator saw before it, and the bet ramps.

Each game's table of such players is in its wing (blackjack/simulator/players.py,
ochko/simulator_players.py). The simulator keeps its own count of the cards it took out of the
shoe, so a test can hold the count reconstructed from the log (engine/protection.py) to it.
"""

from dataclasses import dataclass

# The kinds of player. The honest ones: "flat" (the game's basic play, one bet throughout),
# "random" (bets that vary at random, round by round) and "drifting" (bets that vary and persist,
# like a player whose mood goes up and down: autocorrelated, as the count is). The advantage
# players: "counter" (a 1-8 spread by the true count, index plays in blackjack), "wonger" (enters
# at a true count of +2 or more, leaves at 0 or less) and, in Ochko, "ochko_counter" (sizes his
# Bet by the Ochko count).
HONEST = ("flat", "random", "drifting")
ADVANTAGE = ("counter", "wonger")


@dataclass(frozen=True)
class Dealt:
    """A round the table dealt and the shoe as the simulator saw it before the round."""

    doc: dict
    shoe: int  # the shoe's number at the table, 1, 2, …
    running_count: int
    true_count: float
    cards_left: int


def spread(true_count: float) -> int:
    """Units bet at a true count: 1 up to +1, then 2, 4, 6 and 8 from +4 (a 1-8 spread)."""
    if true_count < 1:
        return 1
    if true_count < 2:
        return 2
    if true_count < 3:
        return 4
    if true_count < 4:
        return 6
    return 8


LADDER = (1, 2, 3, 5, 8)


def honest_units(kind: str, rng, last: int) -> int:
    """The units of an honest player's next bet (whatever the count): flat 1; random any step of
    the ladder; drifting the last one most of the time, else a step up or down."""
    if kind == "flat":
        return 1
    if kind == "random":
        return rng.choice(LADDER)
    k = LADDER.index(last) if last in LADDER else 0
    if rng.random() < 0.85:
        return LADDER[k]
    return LADDER[max(0, min(len(LADDER) - 1, k + rng.choice((-1, 1))))]
