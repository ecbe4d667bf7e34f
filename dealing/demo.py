"""Demo rounds for the demo floor (`manage.py demo_floor`, development only): shoes with their burns,
a few hundred rounds dealt by the engine's simulators and logged by dealer1 through `round_log` (so
they are chained and audited like any other), a few with a dealer's mistake; incidents for the pit
boss (one approved, one rejected, one awaiting him) and one correction awaiting him.

Idempotent: a table that already has a shoe or a round is left alone, and the incidents and the
correction are only made when there are none yet. The same seed deals the same floor every time.
"""

import random
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import transaction

from casino import house_rules
from casino.models import Table
from dealing import engine, hooks, services
from dealing.engine.simulators import module as simulator

from .choices import Decision, RoundStatus
from .models import Incident, Round, Shoe

SEED = 2026
MISTAKE_RATE = 0.05
# Rounds per demo table, and the mistakes its dealer may make (the simulators inject them).
PLAN = {
    "R-1": 90, "R-2": 60, "R-3": 50,  # ochko
    "Escribas": 50, "Sacerdotes": 30, "Faraón": 20, "Online-1": 20,  # blackjack salon (three tiers) / online
    "Casa-21": 40,  # veintiuno: one game night
}
OCHKO_CUT = 40  # cards left when an ochko shoe is changed
OCHKO_MISTAKES = ("wrong_amount", "wrong_result", "missing_settlement", "payment_order", "late_settlement",
                  "dealer_draw_rule")
BLACKJACK_MISTAKES = ("wrong_amount", "blackjack_paid_even", "wrong_result", "dealer_hits_soft_17",
                      "dealer_stands_on_16")


def dealing_demo_load() -> list[str]:
    """Load what is missing; returns what was created, in words."""
    User = get_user_model()
    people = {u.username: u for u in User.objects.filter(username__in=["dealer1", "inspector1", "pitboss1"])}
    if len(people) < 3:
        return []
    created = []
    with transaction.atomic(), hooks.rounds_batched():
        for name, rounds in PLAN.items():
            table = Table.objects.select_related("pit").filter(name=name).first()
            if not _playable(table) or Shoe.objects.filter(table=table).exists() or \
                    Round.objects.filter(table=table).exists():
                continue
            rng = random.Random(f"{SEED}-{name}")
            dealt = _DEALERS[table.variant](table, people["dealer1"], rng, rounds)
            created.append(f"{dealt} demo rounds at {name}")
        created += _incidents(people)
        created += _correction(people)
    return created


def _playable(table) -> bool:
    """The table exists and the engine can deal its game (a variant's module may not be there yet)."""
    if table is None:
        return False
    try:
        house_rules.in_force(table.variant, table.rules)
    except (house_rules.VariantUnavailable, engine.RoundError):
        return False
    return True


def _mistake(rng, kinds):
    return rng.choice(kinds) if rng.random() < MISTAKE_RATE else None


def _ochko(table, dealer, rng, rounds: int) -> int:
    sim = simulator("ochko")
    logged = 0
    while logged < rounds:
        shoe = services.shoe_start(table=table, shuffled_by=dealer)
        cards = sim.new_shoe(rng, shoe.decks)
        for _ in range(6):
            services.shoe_burn(shoe=shoe, card=cards.pop(), reason="load", recorded_by=dealer)
        while len(cards) >= OCHKO_CUT and logged < rounds:
            if logged and rng.random() < 0.04:
                services.shoe_burn(shoe=shoe, card=cards.pop(), reason="paid", fee=table.min_bet / 2,
                                   recorded_by=dealer)
            # The last round of the table carries a wrong payout: the correction awaiting pitboss1 fixes it.
            mistake = "wrong_amount" if logged == rounds - 1 else _mistake(rng, OCHKO_MISTAKES)
            doc = sim.simulate_round(rng, mistake=mistake, number=logged, shoe=cards,
                                     table_min=table.min_bet, table_max=table.max_bet, dealer=dealer.username,
                                     table_name=table.name, incidents=0).doc
            services.round_log(document=doc, logged_by=dealer, table=table)
            logged += 1
    return logged


def _blackjack(table, dealer, rng, rounds: int) -> int:
    sim = simulator("blackjack")
    preset = (table.rules or {}).get("preset", "salon")
    rules = engine.house_rules("blackjack", table.rules)
    cut = sim.PRESETS[preset]["cut_remaining"]
    options = dict(preset=preset, table_min=table.min_bet, table_max=table.max_bet, dealer=dealer.username,
                   table_name=table.name, boxes=(1, table.boxes))
    cards: list[str] = []
    for k in range(rounds):
        if cut is None or len(cards) < cut:  # online: a freshly shuffled shoe every round
            shoe = services.shoe_start(table=table, shuffled_by=dealer)
            cards = sim.new_shoe(rng, rules["decks"])
        doc = sim.simulate_round(rng, mistake=_mistake(rng, BLACKJACK_MISTAKES), number=k, shoe=cards,
                                 **options).doc
        services.round_log(document=doc, logged_by=dealer, table=table)
    return rounds


def _veintiuno(table, dealer, rng, rounds: int) -> int:
    """One game night: the pack followed to the end, banks passing by the rules, limits within the table's."""
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


_DEALERS = {"ochko": _ochko, "blackjack": _blackjack, "veintiuno": _veintiuno}


def _incidents(people) -> list[str]:
    if Incident.objects.exists():
        return []
    dealer, inspector, boss = people["dealer1"], people["inspector1"], people["pitboss1"]
    made = []
    for name, kind, card, exposed, resolution, to_box, evidence, note, decision, comment in [
        ("R-1", "dealer_card_exposed", "KH", True, "burned", None, "CAM-R1 21:14:05",
         "The dealer's card flipped on the deal; burned in the pit boss's presence and replaced.",
         Decision.APPROVED, "Seen on camera; burned correctly."),
        ("Escribas", "misdrawn_card", "7S", False, "under_shoe", None, "CAM-E 22:40:12",
         "A second card came out stuck to the first; nobody saw it.", Decision.REJECTED,
         "The clip shows the card face up: it was exposed, so it cannot go under the shoe."),
        ("R-2", "misdrawn_card", "AD", True, "to_box", 3, "CAM-R2 23:05:48",
         "Card drawn for box 2 by mistake while box 3 was drawing.", None, ""),
    ]:
        table = Table.objects.select_related("pit").filter(name=name).first()
        if not _playable(table):
            continue
        record = Round.objects.filter(table=table, status=RoundStatus.RECORDED).order_by("-chain_index").first()
        incident = services.incident_report(table=table, kind=kind, card=card, exposed=exposed,
                                            resolution=resolution, to_box=to_box, dealer=dealer,
                                            reported_by=inspector, round=record, evidence=evidence, note=note)
        if decision:
            services.incident_decide(incident=incident, decided_by=boss, decision=decision, comment=comment)
        made.append(f"incident at {name} ({decision or 'awaiting pitboss1'})")
    return made


def _correction(people) -> list[str]:
    """dealer1 corrects a wrong payout at R-1; it awaits pitboss1."""
    if Round.objects.filter(supersedes__isnull=False).exists():
        return []
    for record in Round.objects.filter(table__name="R-1", status=RoundStatus.RECORDED).order_by("-chain_index"):
        settlement = engine.settle(record.document)
        wrong = [f for f in settlement["findings"] if f["code"] == "WRONG_AMOUNT" and f.get("event") is not None]
        if not wrong:
            continue
        document = dict(record.document)
        document["events"] = [dict(ev) for ev in document["events"]]
        for finding in wrong:
            document["events"][finding["event"]]["amount"] = _amount(finding["expected"]["amount"])
        reason = "; ".join(f["message"] for f in wrong) + " The player was paid the difference."
        services.round_amend(round=record, document=document, amended_by=people["dealer1"], reason=reason)
        return [f"a correction of round {record.chain_index} at R-1 awaiting pitboss1"]
    return []


def _amount(text: str):
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else text
