"""The API benchmark end to end, small (what `make bench` measures at 3,000 rounds): a real gunicorn
on the test database, every round stored on an intact chain, and every round's audit queued to
Redis exactly once — also those a worker still held when gunicorn stopped it (audit/dispatch.py)."""

import pytest
from django.conf import settings
from django.db import connection

from dealing.bench import WARMUP_PER_CLIENT, api_ingestion

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.CELERY_TASK_ALWAYS_EAGER,
                       reason="needs PostgreSQL and Redis (DATABASE_URL, CELERY_BROKER_URL); `bash .ci/run` has both"),
]


def test_every_round_posted_is_stored_chained_and_its_audit_queued_once(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the API benchmark needs PostgreSQL")
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    # The server works on this test's database, where the benchmark makes its throwaway floor.
    monkeypatch.setenv("DATABASE_URL", f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}")
    result = api_ingestion(clients=2, rounds=60, workers=1, threads=2)
    stored = 60 + 2 * WARMUP_PER_CLIENT
    assert result["statuses"] == {"201": 60}
    assert result["stored"] == stored and result["chain"] == "intact"
    assert result["audits_queued"].startswith(f"{stored} of {stored} rounds in "), result["audits_queued"]
    assert "twice" not in result["audits_queued"]
    assert result["cleanup"] == "throwaway tables, dealer and rounds removed"
    assert result["rounds_per_s"] > 0 and result["p99_ms"] >= result["p50_ms"] > 0
