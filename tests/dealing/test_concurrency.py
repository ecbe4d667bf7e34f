"""Concurrent writers on PostgreSQL: the table's row lock keeps one chain, the same id sent by many
clients at once is stored once. (SQLite serialises writers itself; these run where it matters.)"""

import threading

import pytest
from django.db import connection, connections

from dealing import services
from dealing.models import Round
from tests.dealing.conftest import deal_round

pytestmark = [
    # The flush after each test empties the role groups; casino's post_migrate handler puts them back.
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks are PostgreSQL's (SQLite serialises)"),
]


def in_threads(n, work):
    errors = []
    start = threading.Barrier(n)

    def run(k):
        try:
            start.wait()
            work(k)
        except Exception as exc:  # noqa: BLE001 - collected and reported by the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_concurrent_rounds_of_one_table_form_one_chain(staff, tables):
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    docs = [deal_round(tables.ochko, seed=k) for k in range(40)]

    def work(k):
        for doc in docs[k::8]:
            services.round_log(document=doc, logged_by=staff.dealer)

    assert in_threads(8, work) == []
    rounds = Round.objects.filter(table=tables.ochko).order_by("chain_index").select_related("supersedes")
    assert [r.chain_index for r in rounds] == list(range(40))
    assert services.chain_verify(table=tables.ochko).breaks == []
    assert sorted(r.number for r in rounds) == list(range(1, 41))
    assert len({r.position for r in rounds}) == 40


def test_the_same_round_sent_at_once_is_stored_once(staff, tables):
    doc = deal_round(tables.ochko, seed=1)
    created = []

    def work(k):
        record, made = services.round_log(document=doc, logged_by=staff.dealer)
        created.append(made)

    assert in_threads(6, work) == []
    assert sorted(created) == [False] * 5 + [True]
    assert Round.objects.count() == 1
    assert connection.vendor == "postgresql"
