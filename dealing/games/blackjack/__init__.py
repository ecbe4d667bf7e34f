"""blackjack on the Django side (dealing.games): what pages, audit and drills need of it."""

from dealing.games import Game

GAME = Game(
    variant="blackjack",
    form="dealing.games.blackjack.forms.BlackjackRoundForm",
    layout="dealing.games.blackjack.layout.LAYOUT",
    drills="dealing.games.blackjack.drills.DRILLS",
    demo="dealing.games.blackjack.demo.deal",
    strategy="dealing.games.blackjack.strategy.STRATEGY",
    math="dealing.games.blackjack.math.MATH",
    theory="dealing.games.blackjack.theory.edge",
    terminal="dealing.games.blackjack.terminal.TERMINAL",
)
