"""veintiuno's demo rounds (dealing.games.demo): one game night — the pack followed to the end,
banks passing by the rules, each bank's limits within the table's."""

from dealing import services
from dealing.engine.simulators import module as simulator
from dealing.games.demo import MISTAKE_RATE


def deal(table, dealer, rng, rounds: int) -> int:
    sim = simulator("veintiuno")
    while True:
        session = sim.simulate_session(rng, rounds=rounds, unit=table.min_bet, mistake_rate=MISTAKE_RATE)
        if all(low >= table.min_bet and high <= table.max_bet for low, high in session.limits):
            break
    services.shoe_start(table=table, shuffled_by=dealer)
    for doc in session.rounds:
        doc["table"] = {"name": table.name, **doc["table"]}
        services.round_log(document=doc, logged_by=dealer, table=table)
    return len(session.rounds)
