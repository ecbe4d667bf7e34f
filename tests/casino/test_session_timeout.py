"""A signed-in session ends after SESSION_IDLE_TIMEOUT minutes without a request (sliding: each
request restarts the clock); passwords are held to Django's validators (issue 37, item 7)."""

import time

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from casino.identity import LAST_SEEN
from casino.models import SecurityEvent
from casino.roles import DEALER
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer_client(make_user, floor, settings):
    settings.SESSION_IDLE_TIMEOUT = 30
    dealer = make_user(DEALER, pits=floor.pits)
    client = Client()
    assert client.post("/accounts/login/", {"username": dealer.username, "password": PASSWORD}).status_code == 302
    assert client.get(reverse("casino:floor")).status_code == 200
    client.user = dealer
    return client


def _idle_for(client, minutes: float) -> None:
    session = client.session
    session[LAST_SEEN] = int(time.time() - minutes * 60)
    session.save()


def test_a_session_idle_past_the_timeout_is_signed_out(dealer_client):
    _idle_for(dealer_client, 31)
    response = dealer_client.get(reverse("casino:floor"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # Signed out for good, not for one request.
    assert dealer_client.get(reverse("casino:floor")).status_code == 302
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGOUT, user=dealer_client.user).exists()


def test_activity_keeps_it_alive(dealer_client):
    _idle_for(dealer_client, 29)
    assert dealer_client.get(reverse("casino:floor")).status_code == 200
    # The clock restarted with that request: 29 more minutes are still within the timeout.
    assert time.time() - dealer_client.session[LAST_SEEN] < 5
    _idle_for(dealer_client, 29)
    assert dealer_client.get(reverse("casino:floor")).status_code == 200


def test_an_idle_api_session_is_signed_out_too(dealer_client):
    _idle_for(dealer_client, 45)
    assert dealer_client.get("/api/v1/tables/").status_code in (401, 403)


def test_zero_turns_the_timeout_off(dealer_client, settings):
    settings.SESSION_IDLE_TIMEOUT = 0
    _idle_for(dealer_client, 60 * 24)
    assert dealer_client.get(reverse("casino:floor")).status_code == 200


@pytest.mark.parametrize("password", ["demo", "12345678901", "password123", "casino-dealer1"])
def test_weak_passwords_are_refused(make_user, password):
    user = make_user(DEALER, username="casino-dealer1")
    with pytest.raises(ValidationError):
        validate_password(password, user)


def test_a_strong_password_passes(make_user):
    validate_password("pale-Horse-47-shuffles", make_user(DEALER))
