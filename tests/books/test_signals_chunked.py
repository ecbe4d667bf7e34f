"""The nightly scan reads the floor's shoes through the chunked `floor_rounds` (`floor_shoes` and the
rounds' wagers; issue 38, item 5): the same counts whatever the chunk, the burns between rounds
counted, a bounded number of shoes held at once and a number of queries that grows with the chunks
read, not with the rounds."""

import datetime as dt
import random
import weakref

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from books.integrity import selectors
from books.protection import selectors as protection_selectors
from dealing import services as dealing_services
from dealing.engine import protection
from dealing.engine.blackjack.simulator.players import Player, simulate_table
from dealing.models import Round, ShoeEvent
from tests.factories import TableFactory

SHOES = 5
ROUNDS = 12  # a shoe's rounds logged


@pytest.fixture
def floor_of_shoes(crew):
    """Five shoes of a blackjack table, a counter among the players, a five burned after each loading."""
    table = TableFactory(name="BJ-C", pit=crew.table.pit, variant="blackjack", boxes=5, rules={"preset": "salon"})
    seated = [Player("ALICE", "random"), Player("COUNT", "counter"), Player("DASHA", "drifting")]
    dealt = simulate_table(random.Random(7), players=seated, shoes=SHOES, table_name=table.name, dealer="dealer1")
    for rounds in dealt:
        shoe = dealing_services.shoe_start(table=table, shuffled_by=crew.dealer)
        dealing_services.shoe_burn(shoe=shoe, card="5H", reason="load", recorded_by=crew.dealer)
        for d in rounds[:ROUNDS]:
            dealing_services.round_log(document=d.doc, logged_by=crew.dealer, table=table)
    return table


def _period():
    today = timezone.localdate()
    return dict(date_from=today - dt.timedelta(days=1), date_to=today)


def _reference() -> dict:
    """The counts the plain way: each shoe's rounds and burns by position, one shoe at a time."""
    out = {}
    for shoe_id in sorted(set(Round.objects.filter(shoe__isnull=False).values_list("shoe_id", flat=True))):
        items = [
            (e.position, {"e": "burn", "card": e.card}) for e in ShoeEvent.objects.filter(shoe_id=shoe_id, kind="burn")
        ]
        rounds = list(Round.objects.filter(shoe_id=shoe_id).order_by("position"))
        items += [(r.position, r.document) for r in rounds]
        items.sort(key=lambda i: i[0])
        states = protection.shoe_states("blackjack", [d for _p, d in items], decks=6)
        for state, r in zip(states, rounds, strict=True):
            out[r.pk] = state.true_count
    return out


@pytest.mark.django_db
def test_the_scan_counts_the_same_in_chunks_of_two_as_in_one_read(floor_of_shoes):
    whole = selectors.counted_rounds(**_period(), chunk=1000)
    chunked = selectors.counted_rounds(**_period(), chunk=2)
    assert len(whole) == SHOES * ROUNDS
    assert chunked == whole
    assert {c.round_id: c.true_count for c in chunked} == _reference()
    # The burned five is counted: every shoe's first round starts at Hi-Lo +1 over six decks less a card.
    firsts = {}
    for c in chunked:
        firsts.setdefault(c.shoe, c)
    assert len(firsts) == SHOES
    assert all(c.true_count == pytest.approx(52 / 311) for c in firsts.values())
    assert {p for c in chunked for p, _w in c.wagers} == {"ALICE", "COUNT", "DASHA"}


@pytest.mark.django_db
def test_the_scan_holds_one_chunk_of_shoes_at_a_time_and_its_queries_grow_with_the_chunks(floor_of_shoes, monkeypatch):
    alive_most = 0
    seen: list = []
    real = protection_selectors.floor_rounds

    def watched(**kwargs):
        nonlocal alive_most
        for log in real(**kwargs):
            seen.append(weakref.ref(log))
            alive_most = max(alive_most, sum(1 for ref in seen if ref() is not None))
            yield log
            del log

    monkeypatch.setattr(selectors, "floor_rounds", watched)
    with CaptureQueriesContext(connection) as one:
        selectors.counted_rounds(**_period(), chunk=1000)
    assert alive_most == SHOES  # read in one chunk, every shoe is held at once
    seen.clear()
    alive_most = 0
    with CaptureQueriesContext(connection) as few:
        selectors.counted_rounds(**_period(), chunk=1)
    assert len(seen) == SHOES
    assert alive_most <= 2  # the shoe being counted, and at most the one read before it
    # Each further chunk costs its own few queries (ids, stakes, shoes, burns, rounds, the
    # transaction's), never one a round: the 60 rounds read one shoe at a time cost fewer than 60 more.
    extra = len(few) - len(one)
    assert 0 < extra <= 8 * (SHOES - 1) < SHOES * ROUNDS
