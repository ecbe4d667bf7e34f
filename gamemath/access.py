"""Who may read the game math: every role. The pages and answers hold no floor data (no pit,
table, dealer or round), only the engine's figures, so trainees read them too."""

from casino.roles import ROLES

READERS = ROLES
