"""ochko on the Django side (dealing.games): what pages, audit and drills need of it."""

from dealing.games import Game

GAME = Game(
    variant="ochko",
    form="dealing.games.ochko.forms.OchkoRoundForm",
    layout="dealing.games.ochko.layout.LAYOUT",
    drills="dealing.games.ochko.drills.DRILLS",
    demo="dealing.games.ochko.demo.deal",
    strategy="dealing.games.ochko.strategy.STRATEGY",
    math="dealing.games.ochko.math.MATH",
    theory="dealing.games.ochko.theory.edge",
    terminal="dealing.games.ochko.terminal.TERMINAL",
    words="dealing.games.ochko.words.WORDS",
)
