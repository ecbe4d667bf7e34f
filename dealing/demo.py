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

from casino import demo, house_rules
from casino.models import Table
from dealing import engine, games, hooks, services

from .choices import Decision
from .models import Incident, Round, Shoe, in_force_q

SEED = 2026
# Rounds per demo table; each game's demo dealer (the `demo` slot of its dealing.games entry) deals
# them, with the mistakes its dealer may make (the simulators inject them).
PLAN = {
    "R-1": 90,
    "R-2": 60,
    "R-3": 50,  # ochko
    "Escribas": 50,
    "Sacerdotes": 30,
    "Faraón": 20,
    "Online-1": 20,  # blackjack salon (three tiers) / online
    "Casa-21": 40,  # veintiuno: one game night
}


def dealing_demo_load() -> list[str]:
    """Load what is missing; returns what was created, in words."""
    User = get_user_model()
    people = {
        u.username: u for u in User.objects.filter(username__in=["dealer1", "inspector1", "pitboss1", "auditor1"])
    }
    if not {"dealer1", "inspector1", "pitboss1"} <= set(people):
        return []
    created = []
    with transaction.atomic(), hooks.rounds_batched():
        for name, rounds in PLAN.items():
            table = Table.objects.select_related("pit").filter(name=name).first()
            if (
                not _playable(table)
                or Shoe.objects.filter(table=table).exists()
                or Round.objects.filter(table=table).exists()
            ):
                continue
            rng = random.Random(f"{SEED}-{name}")
            demo.progress(f"  dealing {rounds} demo rounds at {name}")
            dealt = games.get(table.variant).slot("demo")(table, people["dealer1"], rng, rounds)
            created.append(f"{dealt} demo rounds at {name}")
        created += _incidents(people)
        created += _correction(people)
    return created


def _playable(table) -> bool:
    """The table exists, its game deals demo rounds and the engine can deal it (a variant's module may
    not be there yet)."""
    game = games.get(table.variant) if table is not None else None
    if game is None or not game.demo:
        return False
    try:
        house_rules.in_force(table.variant, table.rules)
    except (house_rules.VariantUnavailable, engine.RoundError):
        return False
    return True


def _incidents(people) -> list[str]:
    if Incident.objects.exists():
        return []
    dealer, inspector, boss = people["dealer1"], people["inspector1"], people["pitboss1"]
    made = []
    for name, kind, card, exposed, resolution, to_box, evidence, note, decision, comment in [
        (
            "R-1",
            "dealer_card_exposed",
            "KH",
            True,
            "burned",
            None,
            "CAM-R1 21:14:05",
            "The dealer's card flipped on the deal; burned in the pit boss's presence and replaced.",
            Decision.APPROVED,
            "Seen on camera; burned correctly.",
        ),
        (
            "Escribas",
            "misdrawn_card",
            "7S",
            False,
            "under_shoe",
            None,
            "CAM-E 22:40:12",
            "A second card came out stuck to the first; nobody saw it.",
            Decision.REJECTED,
            "The clip shows the card face up: it was exposed, so it cannot go under the shoe.",
        ),
        (
            "R-2",
            "misdrawn_card",
            "AD",
            True,
            "to_box",
            3,
            "CAM-R2 23:05:48",
            "Card drawn for box 2 by mistake while box 3 was drawing.",
            None,
            "",
        ),
    ]:
        table = Table.objects.select_related("pit").filter(name=name).first()
        if not _playable(table):
            continue
        record = Round.objects.filter(in_force_q(), table=table).order_by("-chain_index").first()
        incident = services.incident_report(
            table=table,
            kind=kind,
            card=card,
            exposed=exposed,
            resolution=resolution,
            to_box=to_box,
            dealer=dealer,
            reported_by=inspector,
            round=record,
            evidence=evidence,
            note=note,
        )
        if decision:
            services.incident_decide(incident=incident, decided_by=boss, decision=decision, comment=comment)
        made.append(f"incident at {name} ({decision or 'awaiting pitboss1'})")
        made += _review(incident, name, boss, people.get("auditor1"))
    return made


# Surveillance's file on two of them: one reviewed and signed off, one waiting for its second reviewer.
REVIEWS = {
    "R-1": ("dealer_error", "saved", "0", "Burned before any decision; no money moved.", True),
    "Escribas": ("dealer_error", "saved", "500", "Caught before the box drew: its Bet would have been paid.", False),
}


def _review(incident, name, boss, auditor) -> list[str]:
    if name not in REVIEWS:
        return []
    classification, direction, money, reason, signed = REVIEWS[name]
    services.incident_classify(
        incident=incident,
        reviewed_by=boss,
        classification=classification,
        money_direction=direction,
        money=money,
        reason=reason,
    )
    if signed and auditor is not None:
        services.incident_sign_off(incident=incident, signed_by=auditor, comment="Agreed with the clip.")
        return [f"review of the incident at {name} (signed off)"]
    return [f"review of the incident at {name} (awaiting a second reviewer)"]


def _correction(people) -> list[str]:
    """dealer1 corrects a wrong payout at R-1; it awaits pitboss1."""
    if Round.objects.filter(supersedes__isnull=False).exists():
        return []
    for record in Round.objects.filter(in_force_q(), table__name="R-1").order_by("-chain_index"):
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
        return [f"a correction of round {record.table_round} at R-1 awaiting pitboss1"]
    return []


def _amount(text: str):
    value = Decimal(text)
    return int(value) if value == value.to_integral_value() else text
