"""What the table terminal asks of a blackjack stake (dealing.games.terminal): its bet, one stake a
box named by the box's number, and the jackpot side bet at a table that offers it."""

from dealing.games.terminal import TerminalGame

TERMINAL = TerminalGame("bet", 1, letters=False, side_bet="jackpot")
