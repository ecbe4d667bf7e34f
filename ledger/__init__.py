"""The game-night ledger of veintiuno (21 ecuatoriano): sessions at a veintiuno table, the draw for
the first bank, each bank's announced limits, the rounds in order (logged through
`dealing.services.round_log`), running balances, and who pays whom at the end.

Pieces without the database (plain functions, tested on their own): `draw` (the high-card draw for the first bank),
`payments` (who pays whom, in as few payments as possible), `builder` (the round form's entries →
a `round/1` document), `tally` (running balances from the engine's settlements).
"""
