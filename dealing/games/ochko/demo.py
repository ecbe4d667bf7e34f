"""ochko's demo rounds (dealing.games.demo): shoes loaded with their burns, some paid burns, rounds
dealt down to the cut; the table's last round carries the wrong payout the demo's correction fixes."""

from dealing import services
from dealing.engine.simulators import module as simulator
from dealing.games.demo import mistake

CUT = 40  # cards left when an ochko shoe is changed
MISTAKES = (
    "wrong_amount",
    "wrong_result",
    "missing_settlement",
    "payment_order",
    "late_settlement",
    "dealer_draw_rule",
)


def deal(table, dealer, rng, rounds: int) -> int:
    sim = simulator("ochko")
    logged = 0
    while logged < rounds:
        shoe = services.shoe_start(table=table, shuffled_by=dealer)
        cards = sim.new_shoe(rng, shoe.decks)
        for _ in range(6):
            services.shoe_burn(shoe=shoe, card=cards.pop(), reason="load", recorded_by=dealer)
        while len(cards) >= CUT and logged < rounds:
            if logged and rng.random() < 0.04:
                services.shoe_burn(
                    shoe=shoe, card=cards.pop(), reason="paid", fee=table.min_bet / 2, recorded_by=dealer
                )
            # The last round of the table carries a wrong payout: the correction awaiting pitboss1 fixes it.
            kind = "wrong_amount" if logged == rounds - 1 else mistake(rng, MISTAKES)
            doc = sim.simulate_round(
                rng,
                mistake=kind,
                number=logged,
                shoe=cards,
                table_min=table.min_bet,
                table_max=table.max_bet,
                dealer=dealer.username,
                table_name=table.name,
                incidents=0,
            ).doc
            services.round_log(document=doc, logged_by=dealer, table=table)
            logged += 1
    return logged
