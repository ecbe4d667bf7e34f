"""What the table terminal asks of an ochko stake (dealing.games.terminal): its Ante, up to three
stakes a box ("1a", "1b", "1c"), each with an optional dealer bet."""

from dealing.games.terminal import TerminalGame

TERMINAL = TerminalGame("ante", 3, ("dealer_bet",))
