"""API throttling (casino/throttling.py): per token (each device token its own budget), per
logged-in user, per anonymous address; over budget → 429 with Retry-After, in the API's error
shape and in the schema. The suite runs unthrottled (tests/settings.py); these tests set tiny rates."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from casino import services
from casino.roles import DEALER

pytestmark = pytest.mark.django_db

TABLES = "/api/v1/tables/"


@pytest.fixture
def rates(settings):
    """rates(token=…, user=…, anon=…): the throttle rates for this test, counted afresh."""

    def set_rates(**scopes):
        cache.clear()
        framework = dict(settings.REST_FRAMEWORK)
        framework["DEFAULT_THROTTLE_RATES"] = {"token": None, "user": None, "anon": None, **scopes}
        settings.REST_FRAMEWORK = framework

    yield set_rates
    cache.clear()


def device_client(make_user, name: str) -> APIClient:
    _device, token = services.device_token_issue(name=name, user=make_user(DEALER))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_device_token_over_its_budget_gets_429_with_retry_after(rates, make_user):
    rates(token="2/minute")
    shoe = device_client(make_user, "shoe-1")
    assert [shoe.get(TABLES).status_code for _ in range(2)] == [200, 200]
    refused = shoe.get(TABLES)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    body = refused.json()
    assert set(body) == {"message", "extra"} and "throttled" in body["message"].lower()


def test_each_device_token_has_a_budget_of_its_own(rates, make_user):
    rates(token="1/minute")
    first, second = device_client(make_user, "shoe-1"), device_client(make_user, "shoe-2")
    assert first.get(TABLES).status_code == 200
    assert first.get(TABLES).status_code == 429
    assert second.get(TABLES).status_code == 200  # another machine, untouched by the first's excess


def test_a_logged_in_user_is_throttled_per_user(rates, client_for):
    rates(user="1/minute")
    dealer, other = client_for(DEALER), client_for(DEALER)
    assert dealer.get(TABLES).status_code == 200
    assert dealer.get(TABLES).status_code == 429
    assert other.get(TABLES).status_code == 200


def test_anonymous_callers_are_throttled_per_address(rates):
    # Anonymous calls reach the throttles only where no login is required: logging in.
    rates(anon="1/minute")
    login = "/api/v1/auth/token/"
    bad = {"username": "nobody", "password": "wrong"}
    first = APIClient(REMOTE_ADDR="10.0.0.1")
    assert first.post(login, bad, format="json").status_code in (400, 401)
    refused = first.post(login, bad, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert APIClient(REMOTE_ADDR="10.0.0.2").post(login, bad, format="json").status_code in (400, 401)


def test_the_schema_documents_429_with_retry_after(client_for):
    schema = client_for(DEALER).get(reverse("schema"), {"format": "json"}).json()
    answer = schema["paths"][TABLES]["get"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
