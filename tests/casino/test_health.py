"""`GET /healthz`: database and broker reachability, no login needed; the details, as staff see
them (what anonymous probes see: test_health_anonymous.py)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client_for):
    return client_for("superuser")


def test_healthz_ok(staff, settings):
    response = staff.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["broker"] == {"ok": True, "url": None, "mode": "eager"}
    else:  # .ci/run: a real Redis
        assert body["broker"]["mode"] == "broker"
        assert body["broker"]["url"].startswith("redis://127.0.0.1:6379")


def test_healthz_is_503_when_the_broker_is_unreachable(staff, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://:secret@127.0.0.1:1/0"  # nothing listens on port 1
    response = staff.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is False
    assert body["broker"]["mode"] == "broker"
    assert body["broker"]["url"] == "redis://127.0.0.1:1/0"  # the password is not shown
    assert "secret" not in response.content.decode()


def test_healthz_is_503_when_the_database_fails(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(self, sql, params=None):
        raise RuntimeError("database went away")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"]["ok"] is False
