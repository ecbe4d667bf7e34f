"""Concurrent writers on PostgreSQL: two openings of one table at once give one shift; fills
received and closing counts at once are taken one after the other (the shift's row lock)."""

import pytest
from django.db import connection  # noqa: F401 - read by the skipif condition

from books import selectors, services
from books.models import TableShift
from casino.errors import ServiceError
from tests.dealing.test_concurrency import _in_threads

from .conftest import OPENING

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks are PostgreSQL's (SQLite serialises)"),
]


def test_openings_at_once_give_one_shift(crew):
    refused = []

    def work(k):
        try:
            services.shift_open(table=crew.table, counted_by=crew.dealer if k % 2 else crew.dealer2, counts=OPENING)
        except ServiceError as exc:
            refused.append(exc.extra["code"])

    assert _in_threads(6, work) == []
    assert TableShift.objects.filter(table=crew.table).count() == 1
    assert refused == ["shift_live"] * 5


def test_many_hands_at_once_keep_the_books(crew, open_shift):
    shift = open_shift()

    def work(k):
        services.cash_record(shift=shift, kind="drop", amount="100", recorded_by=crew.dealer)
        services.transfer_request(shift=shift, kind="fill", counts={"500": 1}, requested_by=crew.dealer)

    assert _in_threads(6, work) == []
    books = selectors.shift_books(shift)
    assert books.drop == 600 and len(books.pending) == 6
