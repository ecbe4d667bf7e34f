"""veintiuno on the Django side (dealing.games): what pages, audit and drills need of it."""

from dealing.games import Game

GAME = Game(
    variant="veintiuno",
    form="dealing.games.veintiuno.forms.VeintiunoRoundForm",
    layout="dealing.games.veintiuno.layout.LAYOUT",
    drills="dealing.games.veintiuno.drills.DRILLS",
    demo="dealing.games.veintiuno.demo.deal",
    strategy="dealing.games.veintiuno.strategy.STRATEGY",
    math="dealing.games.veintiuno.math.MATH",
    theory="dealing.games.veintiuno.theory.edge",
    terminal="dealing.games.veintiuno.terminal.TERMINAL",
    # A night of veintiuno passes the bank from player to player; the ledger keeps its chips.
    nights="ledger",
)
