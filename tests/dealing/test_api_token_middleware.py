"""API calls made with a token skip the session, authentication and messages middleware
(casino/middleware.py); everything else, and the language of the answer, is as before."""

import pytest
from django.test import Client
from django.utils import translation
from knox.models import AuthToken

from casino.middleware import is_token_api_call
from dealing.models import Round
from tests.dealing.conftest import to_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"


def _token(user) -> str:
    return AuthToken.objects.create(user=user)[1]


def test_a_token_call_logs_a_round_without_session_or_messages(staff, tables, deal):
    doc = deal(tables.ochko, seed=31)
    response = Client().post(
        ROUNDS, data=to_json(doc), content_type="application/json", HTTP_AUTHORIZATION=f"Token {_token(staff.dealer)}"
    )
    assert response.status_code == 201, response.json()
    assert Round.objects.get().logged_by == staff.dealer
    request = response.wsgi_request
    assert not hasattr(request, "session") and not hasattr(request, "_messages")
    assert request.user == staff.dealer  # set by DRF's token authentication
    assert "Cookie" not in response.get("Vary", "") and not response.cookies


def test_a_token_call_is_answered_in_the_language_it_asks_for(staff, tables, deal):
    response = Client().get(ROUNDS, HTTP_AUTHORIZATION="Token not-a-key", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 401
    with translation.override("ru"):
        assert response.json()["message"] == translation.gettext("Invalid token.") != "Invalid token."
    assert response["Content-Language"] == "ru"


def test_a_wrong_token_is_refused_even_beside_a_valid_session(staff, tables, deal):
    client = Client()
    client.force_login(staff.dealer)
    assert client.get(ROUNDS).status_code == 200  # the session alone is enough
    assert client.get(ROUNDS, HTTP_AUTHORIZATION="Token not-a-key").status_code == 401


def test_pages_and_session_api_calls_keep_their_session_and_csrf(staff, tables, deal):
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff.dealer)
    response = client.get(ROUNDS)
    assert response.status_code == 200 and hasattr(response.wsgi_request, "session")
    refused = client.post(ROUNDS, data=to_json(deal(tables.ochko, seed=32)), content_type="application/json")
    assert refused.status_code == 403  # a session call still needs its CSRF token
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "path, header, expected",
    [
        ("/api/v1/rounds/", "Token abc", True),
        ("/api/v1/rounds/", "token abc", True),
        ("/api/schema/", "Token abc", True),
        ("/api/v1/rounds/", "Bearer abc", False),
        ("/api/v1/rounds/", "Tokenabc", False),
        ("/api/v1/rounds/", "", False),
        ("/tables/", "Token abc", False),
    ],
)
def test_which_calls_are_token_api_calls(rf, path, header, expected):
    request = rf.get(path, HTTP_AUTHORIZATION=header) if header else rf.get(path)
    assert is_token_api_call(request) is expected
