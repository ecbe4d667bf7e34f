"""The API benchmark end to end, small (what `make bench` measures at 3,000 rounds): a real gunicorn
on the test database, every round stored on an intact chain, and every round's audit queued to
Redis exactly once — also those a worker still held when gunicorn stopped it (audit/dispatch.py)."""

import pytest
from django.conf import settings
from django.db import connection

from bench.api import WARMUP_PER_CLIENT, api_ingestion
from tests.conftest import current_database_url

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER,
        reason="needs PostgreSQL and Redis (DATABASE_URL, CELERY_BROKER_URL); `bash .ci/run` has both",
    ),
]


def test_every_round_posted_is_stored_chained_and_its_audit_queued_once(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the API benchmark needs PostgreSQL")
    # The server works on this test's database, where the benchmark makes its throwaway floor.
    monkeypatch.setenv("DATABASE_URL", current_database_url())
    result = api_ingestion(clients=2, rounds=60, workers=1, threads=2)
    stored = 60 + 2 * WARMUP_PER_CLIENT
    assert result["statuses"] == {"201": 60}
    assert result["stored"] == stored and result["chain"] == "intact"
    assert result["audits_queued"].startswith(f"{stored} of {stored} rounds in "), result["audits_queued"]
    assert "twice" not in result["audits_queued"]
    assert result["cleanup"] == "throwaway tables, dealer and rounds removed"
    assert result["rounds_per_s"] > 0 and result["p99_ms"] >= result["p50_ms"] > 0


def test_a_server_whose_database_connection_died_between_rounds_still_logs_the_next(monkeypatch):
    """PostgreSQL restarted, or the server's connection cut, while gunicorn keeps it for reuse
    (CONN_MAX_AGE): the next round is logged as usual — no 500 for the dealer."""
    import http.client

    from bench.api import Fixture, Server, round_bodies

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    monkeypatch.setenv("DATABASE_URL", current_database_url())
    fixture = Fixture.create(1)
    try:
        bodies = round_bodies(fixture, 1, 4, seed=5)[0]
        with Server(workers=1, threads=1) as server:
            client = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

            def post(body) -> int:
                client.request(
                    "POST",
                    "/api/v1/rounds/",
                    body,
                    {"Authorization": f"Token {fixture.token}", "Content-Type": "application/json"},
                )
                response = client.getresponse()
                response.read()
                return response.status

            assert post(bodies[0]) == 201
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                assert cursor.fetchone()[0] >= 1  # the server's kept connection
            assert [post(body) for body in bodies[1:]] == [201, 201, 201]
            client.close()
        assert fixture.check() == (4, True)
    finally:
        fixture.remove()
