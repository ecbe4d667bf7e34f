"""Fixtures of the ledger's tests: a veintiuno table in the `floor` fixture's Pit A, its staff, a night."""

from dataclasses import dataclass
from decimal import Decimal

import pytest

from casino.choices import Variant
from casino.models import Table
from ledger import services
from ledger.models import GameSession
from tests.factories import TableFactory

PLAYERS = ["Ana", "Beto", "Caro", "Dani"]


@dataclass
class Casa:
    table: Table
    dealer: object
    pit_boss: object
    auditor: object


@pytest.fixture
def casa(floor, make_user) -> Casa:
    table = TableFactory(
        name="Casa-21",
        pit=floor.pit_a,
        variant=Variant.VEINTIUNO,
        min_bet=Decimal(5),
        max_bet=Decimal(100),
        boxes=6,
        chips=["5", "10", "25", "50"],
    )
    return Casa(
        table,
        make_user("dealer", pits=[floor.pit_a], username="dealer1"),
        make_user("pit_boss", pits=[floor.pit_a], username="pitboss1"),
        make_user("auditor", username="auditor1"),
    )


@pytest.fixture
def night(casa):
    """night(players=..., first=...) → a night at Casa-21 whose first bank is `first` (by the draw)."""

    def make(players=PLAYERS, first="Ana", unit=5, buy_in=None, by=None) -> GameSession:
        session = services.session_create(
            table=casa.table,
            players=list(players),
            unit=unit,
            created_by=by or casa.dealer,
            buy_in=buy_in,
            name="Viernes",
        )
        low = iter(["2S", "3S", "4S", "5S", "6S", "7S", "JS"])
        cards = {p: ("AH" if p == first else next(low)) for p in players}
        services.session_draw(session=session, by=by or casa.dealer, cards=cards)
        session.refresh_from_db()
        return session

    return make


def deal(bank, seats, bank_cards, *, limits=(5, 50), draws=(), bank_to=None, uid=None, settle=True, declares=()):
    """A round/1 document of veintiuno written by hand: seats = [(place, player, bet, [cards…], plays)]
    where plays is a list of events after the deal (each a dict without "hand": the seat's hand is
    used); `declares`: the places declaring a natural at once. With `settle`, every hand is paid
    what the engine says it is owed and the bank goes where the engine says."""
    from dealing import engine

    events = []
    for place, _p, _bet, cards, _plays in seats:
        events.append({"e": "deal", "to": place, "card": cards[0]})
    events.append({"e": "deal", "to": "bank", "card": bank_cards[0]})
    for place, _p, bet, _cards, _plays in seats:
        events.append({"e": "bet", "stake": f"S{place}", "amount": bet})
    for place, _p, _bet, cards, _plays in seats:
        events.append({"e": "deal", "to": place, "card": cards[1]})
    events.append({"e": "deal", "to": "bank", "card": bank_cards[1]})
    for place in declares:
        events.append({"e": "declare", "hand": str(place)})
    for place, _p, _bet, _cards, plays in seats:
        for ev in plays:
            events.append({"hand": str(place), **ev})
    for card in draws:
        events.append({"e": "draw", "card": card})
    doc = {
        "format": "round/1",
        "variant": "veintiuno",
        "bank": bank,
        "stakes": [{"id": f"S{place}", "seat": place, "player": p} for place, p, *_ in seats],
        "events": events,
    }
    if limits is not None:
        doc["table"] = {"min": limits[0], "max": limits[1]}
    if uid:
        doc["id"] = uid
    if settle:
        owed = engine.replay({**doc, "table": doc.get("table") or {"min": 1, "max": 10**6}}).wagers
        for w in owed:
            ev = {
                "e": w.result,
                "stake": w.stake,
                "hand": w.hand,
                "wager": "bet",
                "amount": str(w.amount if w.result == "pay" else w.size),
            }
            events.append(ev)
        out = engine.replay({**doc, "table": doc.get("table") or {"min": 1, "max": 10**6}})
        events.append({"e": "bank_to", "player": bank_to or out.extra["bank_next"]})
    return doc


def audited(record):
    """The round record once the audit task has run on it. The task is queued when the round's
    transaction commits: embedded it ran eagerly then; against a real broker, or inside a test's
    transaction that never commits, it has not run, so it is run here (the task a worker runs)."""
    from audit.tasks import audit_round
    from dealing.choices import AuditStatus

    record.refresh_from_db()
    if record.audit_status == AuditStatus.PENDING:
        audit_round.apply(args=[record.pk])
        record.refresh_from_db()
    return record
