"""Who may scrape `/metrics`: loopback, or anyone with the METRICS_TOKEN bearer token."""

import pytest

pytestmark = pytest.mark.django_db


def test_loopback_may_scrape(client):
    for address in ("127.0.0.1", "::1"):
        response = client.get("/metrics", REMOTE_ADDR=address)
        assert response.status_code == 200, address
        assert b"casino_rounds_logged_total" in response.content


def test_another_address_is_refused_without_the_token(client, settings):
    settings.METRICS_TOKEN = "scrape-secret"
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 403
    wrong = client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION="Bearer not-it")
    assert wrong.status_code == 403


def test_another_address_with_the_token_may_scrape(client, settings):
    settings.METRICS_TOKEN = "scrape-secret"
    response = client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION="Bearer scrape-secret")
    assert response.status_code == 200
    assert b"casino_audit_backlog" in response.content


def test_no_token_configured_means_loopback_only(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION="Bearer ").status_code == 403


def test_a_request_forwarded_by_a_proxy_on_the_same_host_is_not_loopback(client):
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert response.status_code == 403
