"""`GET /healthz` (liveness) and `GET /readyz` (readiness per dependency), no login needed; the
details, as staff see them (what anonymous probes see: test_health_anonymous.py)."""

import pytest
from django.db import OperationalError

from casino import selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client_for):
    return client_for("superuser")


@pytest.fixture
def database_down(monkeypatch):
    """The readiness check's query fails as an unreachable PostgreSQL does; the rest of the request
    (the session's user) still works, so staff see the details."""
    from django.db.backends.utils import CursorWrapper

    real = CursorWrapper.execute

    def health_check_fails(self, sql, params=None):
        if sql == "SELECT 1":
            raise OperationalError("connection refused")
        return real(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", health_check_fails)


@pytest.fixture
def broker_down(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://:secret@127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def checkpoints_unwritable(settings, tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("a file where the directory should be")
    settings.CHECKPOINT_DIR = blocked / "checkpoints"
    return settings.CHECKPOINT_DIR


def test_healthz_is_200_whatever_the_dependencies(client, database_down, broker_down, checkpoints_unwritable):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_readyz_ok(staff, settings):
    response = staff.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["checkpoints"] == {"ok": True, "path": str(settings.CHECKPOINT_DIR)}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["broker"] == {"ok": True, "url": None, "mode": "eager"}
    else:  # .ci/run: a real Redis
        assert body["broker"]["mode"] == "broker"
        assert body["broker"]["url"].startswith("redis://127.0.0.1:6379")


def test_readyz_is_200_degraded_when_the_broker_is_down(staff, broker_down):
    response = staff.get("/readyz")
    assert response.status_code == 200  # rounds are still logged; their audits wait for the sweep
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["checkpoints"]["ok"] is True
    assert body["broker"]["ok"] is False
    assert body["broker"]["mode"] == "broker"
    assert body["broker"]["url"] == "redis://127.0.0.1:1/0"  # the password is not shown
    assert "secret" not in response.content.decode()


def test_readyz_is_503_when_the_database_is_down(staff, database_down):
    response = staff.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"]["ok"] is False
    assert body["database"]["error"] == "OperationalError: connection refused"


def test_readyz_is_degraded_when_the_checkpoint_directory_cannot_be_written(staff, checkpoints_unwritable):
    response = staff.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checkpoints"]["ok"] is False
    assert body["checkpoints"]["path"] == str(checkpoints_unwritable)
    assert body["checkpoints"]["error"].startswith(("FileExistsError", "NotADirectoryError"))


def test_the_readiness_check_leaves_no_file_behind(settings):
    assert selectors.checkpoint_dir_health()["ok"]
    assert not [p for p in settings.CHECKPOINT_DIR.iterdir() if p.name.startswith(".readyz-")]
