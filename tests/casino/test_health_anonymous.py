"""`GET /readyz` for anonymous probes: ok or degraded per component, nothing of what was found
(probing showed them the raw database error, with its host, port and database name)."""

import pytest
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper

from casino.roles import AUDITOR, DEALER

pytestmark = pytest.mark.django_db

OK = {"status": "ok", "database": {"ok": True}, "broker": {"ok": True}, "checkpoints": {"ok": True}}
DB_DOWN = {"status": "unavailable", "database": {"ok": False}, "broker": {"ok": True}, "checkpoints": {"ok": True}}
BROKER_DOWN = {"status": "degraded", "database": {"ok": True}, "broker": {"ok": False}, "checkpoints": {"ok": True}}

# What psycopg says when PostgreSQL cannot be reached: everything a probe should not learn.
DB_ERROR = (
    'connection failed: connection to server at "10.1.2.3", port 5433 failed: '
    'FATAL:  database "casino_prod" does not exist'
)


@pytest.fixture
def take_database_down(monkeypatch):
    """take_database_down(): from then on every query fails as an unreachable PostgreSQL does."""

    def unreachable(self, sql, params=None):
        raise OperationalError(DB_ERROR)

    return lambda: monkeypatch.setattr(CursorWrapper, "execute", unreachable)


@pytest.fixture
def database_down(take_database_down):
    take_database_down()


@pytest.fixture
def broker_down(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://:secret@127.0.0.1:1/0"  # nothing listens on port 1


def test_an_anonymous_probe_sees_only_ok_per_component(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == OK
    assert "no-cache" in response["Cache-Control"]


def test_an_anonymous_probe_learns_nothing_of_an_unreachable_database(client, database_down):
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == DB_DOWN
    for secret in ("10.1.2.3", "5433", "casino_prod", "OperationalError", "sqlite", "postgresql", "checkpoints-"):
        assert secret not in response.content.decode()


def test_an_anonymous_probe_learns_nothing_of_an_unreachable_broker(client, broker_down):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == BROKER_DOWN
    for secret in ("127.0.0.1", "redis", "secret", "mode"):
        assert secret not in response.content.decode()


@pytest.mark.parametrize("role", [DEALER, AUDITOR])
def test_floor_staff_without_the_admin_see_what_a_probe_sees(client_for, take_database_down, role):
    client = client_for(role)
    take_database_down()  # the session cookie's user cannot be read now: answered as a probe is
    response = client.get("/readyz")
    assert response.json() == DB_DOWN


def test_floor_staff_without_the_admin_see_no_details_when_all_is_well(client_for):
    assert client_for(DEALER).get("/readyz").json() == {
        "status": "ok",
        "database": {"ok": True},
        "broker": {"ok": True},
        "checkpoints": {"ok": True},
    }


def test_staff_see_the_database_error(client_for, monkeypatch):
    admin = client_for("superuser")
    real = CursorWrapper.execute

    def health_check_fails(self, sql, params=None):
        if sql == "SELECT 1":
            raise OperationalError(DB_ERROR)
        return real(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", health_check_fails)
    response = admin.get("/readyz")
    assert response.status_code == 503
    from django.db import connection

    assert response.json()["database"] == {
        "ok": False,
        "vendor": connection.vendor,
        "error": f"OperationalError: {DB_ERROR}",
    }


def test_staff_whose_session_cannot_be_read_get_the_probes_answer_not_a_500(client_for, take_database_down):
    admin = client_for("superuser")
    take_database_down()
    response = admin.get("/readyz")
    assert response.status_code == 503
    assert response.json() == DB_DOWN
