"""Concurrent writers on PostgreSQL: the table's row lock keeps one chain, the same id sent by many
clients at once is stored once. (SQLite serialises writers itself; these run where it matters.)"""

import threading

import pytest
from django.db import connection, connections, transaction

from audit import services as audit_services
from dealing import hooks, services
from dealing.choices import AuditStatus
from dealing.models import Round
from dealing.services.chain_link import Link
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


def test_an_audit_verdict_commits_while_the_next_round_is_being_logged_at_its_table(staff, tables):
    """A round being logged holds its table's row until it commits; the worker's verdict on the
    table's earlier round (its finding points at the table, a foreign key PostgreSQL checks at
    commit) must not wait for it. That wait closed a deadlock with the audit counters both raise:
    one POST /api/v1/rounds/ in 3,812 answered 500 on CI."""
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    with hooks.rounds_unannounced():
        earlier, _ = services.round_log(
            document=deal_round(tables.ochko, seed=2, mistake="wrong_amount"), logged_by=staff.dealer
        )
    locked, release = threading.Event(), threading.Event()

    def next_round_logging():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(Link.LOCK, [tables.ochko.pk])
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    writer = threading.Thread(target=next_round_logging)
    writer.start()
    assert locked.wait(10)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '5s'")
        status = audit_services.round_audit(round_id=earlier.pk)
    finally:
        release.set()
        writer.join()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert status == AuditStatus.FINDINGS
    assert earlier.findings.filter(code="WRONG_AMOUNT").exists()
