"""Game math: the exact value of each option (`ev/1`), the house edge under optimal play
(`edge/1`) and the optimal chart, per variant (shared/analytics-format.md).

Pure Python like the rest of the engine: no Django, no I/O (the command line is `cli.py`).

    from dealing.engine.math import ochko
    ochko.ev(["TS", "6H"], dealer="9C", bet=10)   # ev/1
    ochko.edge()                                  # edge/1 for the default house rules
    ochko.strategy(bet=1)                         # the chart by hand and up card
"""
