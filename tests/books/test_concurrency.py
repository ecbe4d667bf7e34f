"""Concurrent writers on PostgreSQL: two openings of one table at once give one shift; fills
received and closing counts at once are taken one after the other (the shift's row lock); two
signal scans of one period at once store each signal once (an advisory lock)."""

import datetime as dt
import threading
from types import SimpleNamespace

import pytest
from django.db import connection  # noqa: F401 - read by the skipif condition

from books import selectors, services
from books.integrity import detection
from books.integrity import services as integrity_services
from books.models import IntegritySignal, TableShift
from casino.errors import ServiceError
from tests.dealing.test_concurrency import in_threads

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

    assert in_threads(6, work) == []
    assert TableShift.objects.filter(table=crew.table).count() == 1
    assert refused == ["shift_live"] * 5


def test_many_hands_at_once_keep_the_books(crew, open_shift):
    shift = open_shift()

    def work(k):
        services.cash_record(shift=shift, kind="drop", amount="100", recorded_by=crew.dealer)
        services.transfer_request(shift=shift, kind="fill", counts={"500": 1}, requested_by=crew.dealer)

    assert in_threads(6, work) == []
    books = selectors.shift_books(shift)
    assert books.drop == 600 and len(books.pending) == 6


def test_two_scans_of_one_period_at_once_store_each_signal_once(crew, monkeypatch):
    """The daily task and a command scanning the same period together: the second writes after the
    first, finds its signals and updates them (before, both inserted and one failed)."""
    found = [
        detection.Candidate(
            kind="lean",
            key=f"lean:d{crew.dealer.pk}",
            dealer=crew.dealer.pk,
            table=crew.table.pk,
            statistic=0.9,
            p_value=1e-6,
            p_adjusted=1e-5,
            evidence={"errors": 20},
        )
    ]
    together = threading.Barrier(2)

    def scan(**_data):  # both scans reach their writes at the same moment
        together.wait(timeout=10)
        return SimpleNamespace(flagged=found, candidates=found)

    monkeypatch.setattr(detection, "scan", scan)
    day = dt.date(2026, 11, 30)
    results = []
    assert in_threads(2, lambda k: results.append(integrity_services.signals_scan(date_from=day, date_to=day))) == []
    assert IntegritySignal.objects.filter(key=found[0].key).count() == 1
    assert sorted((len(r.created), len(r.updated)) for r in results) == [(0, 1), (1, 0)]
