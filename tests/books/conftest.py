"""Fixtures of the books' tests: an ochko table (chips 1·100·500·1,000·5,000) in the `floor`'s Pit A,
its dealers and pit bosses, a shift opened and signed, rounds logged through dealing's services."""

import random
import uuid
from dataclasses import dataclass

import pytest

from books import services
from casino.models import Table
from dealing import services as dealing_services
from tests.dealing.conftest import deal_round

OPENING = {"100": 50, "500": 20, "1000": 10, "5000": 4}  # 5,000 + 10,000 + 10,000 + 20,000 = 45,000


@dataclass
class Crew:
    table: Table
    dealer: object
    dealer2: object
    pit_boss: object
    pit_boss2: object
    auditor: object
    inspector: object
    trainee: object
    outsider: object  # a pit boss of Pit B only


@pytest.fixture
def crew(floor, make_user) -> Crew:
    a = [floor.pit_a]
    # Chips of 1 besides: ochko pays 3:2, and a tray that matches the rounds to the unit can be counted.
    floor.table_a.chips = ["1", "100", "500", "1000", "5000"]
    floor.table_a.save(update_fields=["chips"])
    return Crew(
        floor.table_a,
        make_user("dealer", pits=a, username="dealer1"),
        make_user("dealer", pits=a, username="dealer2"),
        make_user("pit_boss", pits=a, username="pitboss1"),
        make_user("pit_boss", pits=a, username="pitboss2"),
        make_user("auditor", username="auditor1"),
        make_user("inspector", pits=a, username="inspector1"),
        make_user("trainee", pits=a, username="trainee1"),
        make_user("pit_boss", pits=[floor.pit_b], username="pitboss-b"),
    )


@pytest.fixture
def open_shift(crew):
    """open_shift(counts=OPENING) → a signed, open shift at R-1 counted by dealer1, signed by pitboss1."""

    def make(counts=None, tolerance=None):
        shift = services.shift_open(
            table=crew.table, counted_by=crew.dealer, counts=counts or OPENING, tolerance=tolerance
        )
        return services.shift_open_sign(shift=shift, signed_by=crew.pit_boss)

    return make


def log_rounds(table, dealer, n, *, seed=0, mistake=None, mistakes=0.0):
    """Deal and log `n` simulated rounds at `table` through dealing's real service; with `mistakes`
    each round has that chance of one of the simulator's mistakes."""
    rng = random.Random(seed)
    records = []
    for _ in range(n):
        kind = mistake
        if kind is None and mistakes and rng.random() < mistakes:
            kind = "random"
        doc = deal_round(table, dealer=dealer.username, rng=rng, mistake=kind)
        doc["id"] = str(uuid.uuid4())  # the same seed twice is still two rounds
        record, created = dealing_services.round_log(document=doc, logged_by=dealer)
        assert created
        records.append(record)
    return records


def fill(shift, crew, counts, kind="fill"):
    """A fill (or credit) requested by the dealer, approved by a pit boss, received by the dealer."""
    event = services.transfer_request(shift=shift, kind=kind, counts=counts, requested_by=crew.dealer)
    event = services.transfer_approve(event=event, approved_by=crew.pit_boss)
    return services.transfer_receive(event=event, received_by=crew.dealer, counts=counts)
