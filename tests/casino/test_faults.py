"""An unreachable database or broker: the API answers 503 in its error shape with Retry-After,
pages a plain 503 page; any other failure stays a 500 (casino/faults.py)."""

import json

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.db.backends.utils import CursorWrapper
from django.test import Client
from kombu.exceptions import OperationalError as BrokerError

from casino.faults import is_unavailable
from casino.roles import AUDITOR, DEALER

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged_in(client_for):
    """A dealer's client that gets the error response back instead of the exception re-raised."""

    def make(role=DEALER):
        client = client_for(role)
        quiet = Client(raise_request_exception=False)
        quiet.cookies = client.cookies
        return quiet

    return make


def _database_down(monkeypatch, error=OperationalError):
    def down(self, sql, params=None):
        raise error('connection to server at "10.1.2.3", port 5433 failed: Connection refused')

    monkeypatch.setattr(CursorWrapper, "execute", down)


def _assert_api_503(response):
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response["Retry-After"] == "10"
    body = json.loads(response.content)
    assert set(body) == {"message", "extra"}
    assert body["extra"] == {"code": "unavailable", "retry_after": 10}
    assert "10.1.2.3" not in response.content.decode()  # nothing of the connection leaks


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_the_api_answers_503_with_retry_after_when_the_database_is_down(logged_in, monkeypatch, error):
    client = logged_in()
    _database_down(monkeypatch, error)
    _assert_api_503(client.get("/api/v1/tables/"))
    _assert_api_503(client.post("/api/v1/rounds/", data=b"{}", content_type="application/json"))


def test_an_anonymous_api_call_meets_the_same_503(monkeypatch):
    _database_down(monkeypatch)
    response = Client(raise_request_exception=False).get("/api/v1/tables/", HTTP_AUTHORIZATION="Token abc")
    _assert_api_503(response)


def test_a_page_shows_a_plain_503_page_without_touching_the_database(logged_in, monkeypatch, settings):
    settings.RETRY_AFTER_SECONDS = 30
    client = logged_in()
    _database_down(monkeypatch)
    response = client.get("/tables/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Unavailable for a moment" in page
    assert "10.1.2.3" not in page and "Traceback" not in page
    assert "Log out" not in page  # no navigation: nothing that needs the user or the database


@pytest.mark.django_db(transaction=True)
def test_the_broker_down_when_a_run_is_queued_is_a_503(logged_in, monkeypatch):
    # Transactional: the run's message is sent when its transaction really commits, in the request.
    from audit import tasks

    def refused(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(tasks.audit_run_plan, "apply_async", refused)
    response = logged_in(AUDITOR).post("/api/v1/audit-runs/", data={}, content_type="application/json")
    _assert_api_503(response)


def test_a_broker_error_inside_a_request_is_a_503(rf):
    import sys

    from casino.faults import handler500

    request = rf.get("/api/v1/audit-runs/")
    try:
        raise BrokerError("Connection refused")
    except BrokerError:
        assert sys.exc_info()[0] is BrokerError
        response = handler500(request)
    _assert_api_503(response)


def test_any_other_failure_stays_a_500(logged_in, monkeypatch):
    client = logged_in()

    def bug(self, sql, params=None):
        raise ZeroDivisionError("a bug, not an outage")

    monkeypatch.setattr(CursorWrapper, "execute", bug)
    response = client.get("/api/v1/tables/")
    assert response.status_code == 500
    assert "Retry-After" not in response


def test_a_wrapped_connection_error_counts_as_unavailable():
    try:
        try:
            raise OperationalError("server closed the connection unexpectedly")
        except OperationalError as exc:
            raise RuntimeError("while logging a round") from exc
    except RuntimeError as outer:
        assert is_unavailable(outer)
    assert not is_unavailable(ValueError("no"))
    assert not is_unavailable(None)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a real PostgreSQL server to lose (.ci/run)")
def test_postgresql_unreachable_for_real(client_for, monkeypatch):
    # The connection is closed and its settings point at a port where nothing listens: the next
    # query of the request opens a connection, psycopg is refused, Django raises OperationalError.
    client = client_for(DEALER)
    quiet = Client(raise_request_exception=False)
    quiet.cookies = client.cookies
    connection.close()
    monkeypatch.setitem(connection.settings_dict, "PORT", "1")
    monkeypatch.setitem(connection.settings_dict, "HOST", "127.0.0.1")
    try:
        _assert_api_503(quiet.get("/api/v1/tables/"))
        page = quiet.get("/tables/")
        assert page.status_code == 503 and page["Retry-After"] == "10"
    finally:
        connection.close()
