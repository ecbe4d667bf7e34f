"""The optimal play of 21 Ochko move by move, for a simulated box: the decisions `ochko.edge` prices
(the simulator's `play="optimal"`), read from a solver of the game math (dealing/engine/ochko/math/)."""

from . import ACTIONS, Solver
from .question import N_RANKS, RANK_INDEX

__all__ = ["optimal_bet", "optimal_action"]


def optimal_bet(solver: Solver, card: str) -> int:
    """The optimal choice after the box's first card (a card code such as "TS"), off this solver's
    shoe: 0 to fold, else the Bet k (1 … 10 Antes) — the choice `edge` prices."""
    return solver.best_bet(RANK_INDEX[card[0]])


def optimal_action(solver: Solver, cards, dealer: str, bet: int) -> str:
    """ "stand", "hit" or "dark": the optimal option for a box holding `cards` (codes, unsettled) with
    a Bet of `bet` Antes against the dealer's up card `dealer` — the action `edge` assumes (the
    shoe is the solver's minus these cards only, composition-dependent as in the full solve)."""
    hand = [0] * N_RANKS
    for card in cards:
        hand[RANK_INDEX[card[0]]] += 1
    return ACTIONS[solver.node(tuple(hand), RANK_INDEX[dealer[0]]).action[bet - 1]]
