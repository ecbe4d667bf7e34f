"""blackjack's demo rounds (dealing.games.demo): a salon shoe played down to its cut, an online
table's shoe shuffled before every round."""

from dealing import engine, services
from dealing.engine.simulators import module as simulator
from dealing.games.demo import mistake

MISTAKES = ("wrong_amount", "blackjack_paid_even", "wrong_result", "dealer_hits_soft_17", "dealer_stands_on_16")


def deal(table, dealer, rng, rounds: int) -> int:
    sim = simulator("blackjack")
    preset = (table.rules or {}).get("preset", "salon")
    rules = engine.house_rules("blackjack", table.rules)
    cut = sim.PRESETS[preset]["cut_remaining"]
    options = dict(
        preset=preset,
        table_min=table.min_bet,
        table_max=table.max_bet,
        dealer=dealer.username,
        table_name=table.name,
        boxes=(1, table.boxes),
    )
    cards: list[str] = []
    for k in range(rounds):
        if cut is None or len(cards) < cut:  # online: a freshly shuffled shoe every round
            services.shoe_start(table=table, shuffled_by=dealer)
            cards = sim.new_shoe(rng, rules["decks"])
        doc = sim.simulate_round(rng, mistake=mistake(rng, MISTAKES), number=k, shoe=cards, **options).doc
        services.round_log(document=doc, logged_by=dealer, table=table)
    return rounds
