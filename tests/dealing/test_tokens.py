"""Tokens that end (django-rest-knox; issue 18, item 2): each login a new token that expires, the
logout of one token or of all, revocation on a password change or a deactivation, and device
tokens for machines, issued by an admin with a name, listed and revocable."""

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from casino import services
from casino.models import DeviceToken, SecurityEvent
from casino.roles import DEALER
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
TOKEN_ALL = "/api/v1/auth/token/all/"
ROUNDS = "/api/v1/rounds/"


def _login(user) -> dict:
    response = APIClient().post(TOKEN, {"username": user.username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _with(key) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_each_login_is_a_new_token_that_expires_in_twelve_hours(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    first, second = _login(dealer), _login(dealer)
    assert first["token"] != second["token"]
    expiry = parse_datetime(first["expiry"])
    assert abs(expiry - (timezone.now() + timedelta(hours=12))) < timedelta(minutes=1)
    assert _with(first["token"]).get(ROUNDS).status_code == 200
    assert _with(second["token"]).get(ROUNDS).status_code == 200
    assert not AuthToken.objects.filter(digest__contains=first["token"]).exists()  # only a digest is kept


@override_settings(REST_KNOX={"TOKEN_TTL": timedelta(hours=2), "AUTH_HEADER_PREFIX": "Token"})
def test_the_lifetime_is_a_setting(make_user, floor):
    expiry = parse_datetime(_login(make_user(DEALER, pits=floor.pits))["expiry"])
    assert abs(expiry - (timezone.now() + timedelta(hours=2))) < timedelta(minutes=1)


def test_an_expired_token_is_refused(make_user, floor):
    key = _login(make_user(DEALER, pits=floor.pits))["token"]
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    response = _with(key).get(ROUNDS)
    assert response.status_code == 401 and response.json()["message"] == "Invalid token."


def test_delete_revokes_the_token_it_is_made_with(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    kept, revoked = _login(dealer)["token"], _login(dealer)["token"]
    assert _with(revoked).delete(TOKEN).status_code == 204
    assert _with(revoked).get(ROUNDS).status_code == 401
    assert _with(kept).get(ROUNDS).status_code == 200
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.TOKEN_REVOKED, user=dealer).count() == 1
    assert APIClient().delete(TOKEN).status_code == 401  # anonymous: nothing to revoke


def test_delete_with_a_session_has_no_token_to_revoke(make_user, floor):
    client = Client()
    client.force_login(make_user(DEALER, pits=floor.pits))
    response = client.delete(TOKEN)
    assert response.status_code == 400 and response.json()["extra"]["code"] == "no_token"


def test_logout_all_revokes_every_persons_token_but_not_the_devices(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    keys = [_login(dealer)["token"] for _n in range(3)]
    _device, device_key = services.device_token_issue(name="Shoe 7", user=dealer)
    assert _with(keys[0]).delete(TOKEN_ALL).status_code == 204
    assert all(_with(key).get(ROUNDS).status_code == 401 for key in keys)
    assert _with(device_key).get(ROUNDS).status_code == 200


def test_a_password_change_revokes_the_users_tokens(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    key = _login(dealer)["token"]
    dealer.first_name = "Renamed"
    dealer.save()  # nothing of his credentials changed
    assert _with(key).get(ROUNDS).status_code == 200
    dealer.set_password("a-new-long-password")
    dealer.save()
    assert _with(key).get(ROUNDS).status_code == 401
    assert SecurityEvent.objects.filter(
        kind=SecurityEvent.Kind.TOKEN_REVOKED, detail__startswith="password changed"
    ).exists()


def test_a_deactivation_revokes_every_token_device_ones_too(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    key = _login(dealer)["token"]
    device, device_key = services.device_token_issue(name="Table system R-1", user=dealer)
    dealer.is_active = False
    dealer.save()
    assert not AuthToken.objects.filter(user=dealer).exists()
    device.refresh_from_db()
    assert device.revoked_at is not None and not device.is_live
    dealer.is_active = True
    dealer.save()
    assert _with(key).get(ROUNDS).status_code == 401 and _with(device_key).get(ROUNDS).status_code == 401


def test_a_device_token_has_a_name_no_expiry_and_is_revocable(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    device, key = services.device_token_issue(name="Electronic shoe 3", user=dealer)
    assert device.token.expiry is None and device.is_live
    assert _with(key).get(ROUNDS).status_code == 200
    services.device_token_revoke(device=device)
    assert _with(key).get(ROUNDS).status_code == 401
    device.refresh_from_db()
    assert device.revoked_at is not None and device.token is None  # the record stays, listed as revoked


@override_settings(DEVICE_TOKEN_TTL_DAYS=30)
def test_a_device_token_may_have_a_long_lifetime(make_user, floor):
    device, _key = services.device_token_issue(name="Shoe 9", user=make_user(DEALER, pits=floor.pits))
    assert abs(device.token.expiry - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)


def test_an_admin_issues_lists_and_revokes_device_tokens(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    admin = Client()
    admin.force_login(make_user("superuser"))
    response = admin.post(reverse("admin:casino_devicetoken_add"), {"name": "Shoe 11", "user": dealer.pk}, follow=True)
    assert response.status_code == 200
    device = DeviceToken.objects.get(name="Shoe 11")
    shown = [str(message) for message in response.context["messages"]]
    key = next(text.rsplit(": ", 1)[1] for text in shown if "shown only now" in text)
    assert _with(key).get(ROUNDS).status_code == 200
    listing = admin.get(reverse("admin:casino_devicetoken_changelist"))
    assert "Shoe 11" in listing.content.decode()
    admin.post(reverse("admin:casino_devicetoken_changelist"), {"action": "revoke", "_selected_action": [device.pk]})
    assert _with(key).get(ROUNDS).status_code == 401
    device.refresh_from_db()
    assert device.revoked_at is not None
    # People's and devices' tokens stay apart: knox's list shows the tokens, ours which are devices.
    assert admin.get(reverse("admin:knox_authtoken_changelist")).status_code == 200


def test_the_device_token_admin_is_for_admins_only(make_user, floor):
    client = Client()
    client.force_login(make_user(DEALER, pits=floor.pits))
    assert client.get(reverse("admin:casino_devicetoken_changelist")).status_code == 302  # to the admin login


def test_on_postgresql_a_token_call_reads_its_token_user_roles_and_pits_in_one_query(make_user, floor):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        pytest.skip("the one-query read is PostgreSQL's (casino/authentication.py)")
    _token, key = services.token_issue(user=make_user(DEALER, pits=floor.pits))
    client = _with(key)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/tables/").status_code == 200
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum("knox_authtoken" in q for q in sql) == 1
    assert not any('"auth_user_groups"' in q and "knox_authtoken" not in q for q in sql)


def test_expired_tokens_are_purged_by_the_hourly_task(make_user, floor, eager):
    from casino.tasks import tokens_purge_expired

    dealer = make_user(DEALER, pits=floor.pits)
    kept = _login(dealer)["token"]
    _login(dealer)
    AuthToken.objects.exclude(token_key=kept[:15]).update(expiry=timezone.now() - timedelta(minutes=1))
    assert tokens_purge_expired.delay().get() == 1
    assert AuthToken.objects.get().token_key == kept[:15]
