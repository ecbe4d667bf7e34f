"""Game math: the exact value of each option (`ev/1`), the house edge under optimal play
(`edge/1`) and the optimal chart, per variant (shared/analytics-format.md).

Each game's math lives in its own folder (`dealing/engine/<game>/math/`, named in games.py as its
`math`); this package holds what they share: `questions.py` (the refusals, cards read from a
pack), the command line (`cli.py`) and the reports (`report.py`), which find the games through
the registry. Pure Python like the rest of the engine: no Django, no I/O.

    from dealing.engine.ochko import math as ochko
    ochko.ev(["TS", "6H"], dealer="9C", bet=10)   # ev/1
    ochko.edge()                                  # edge/1 for the default house rules
    ochko.strategy(bet=1)                         # the chart by hand and up card
"""
