"""What every game's demo dealer shares (the `demo` slot of its GAME, `manage.py demo_floor`).

A game's demo dealer, `deal(table, dealer, rng, rounds) -> int` in `dealing/games/<variant>/demo.py`,
deals a demo table's rounds with the engine's simulator, now and then with one of the dealer's
mistakes, and logs them by `dealer` through `round_log` (chained and audited like any other
round); it returns how many it logged. `dealing/demo.py` calls it for each table of the plan.
"""

MISTAKE_RATE = 0.05  # the share of demo rounds dealt with a mistake


def mistake(rng, kinds):
    """One of the game's mistakes, in one round out of twenty; None (a correct round) otherwise."""
    return rng.choice(kinds) if rng.random() < MISTAKE_RATE else None
