"""Login lockout (django-axes): after LOGIN_FAILURE_LIMIT failures for a username or from an
address, the login page and the token endpoint refuse for the cool-off, with a 429; a pit boss
unlocks his pits' staff, an admin anyone; every lockout is logged (issue 18, item 1)."""

import logging
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino.models import SecurityEvent
from casino.roles import DEALER, PIT_BOSS
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"
LIMIT = 5


def _page_login(client, username, password):
    return client.post(LOGIN, {"username": username, "password": password})


def _api_login(client, username, password, address="127.0.0.1"):
    return client.post(TOKEN, {"username": username, "password": password}, format="json", REMOTE_ADDR=address)


def test_the_login_page_locks_a_username_out_after_five_failures(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = Client()
    for _attempt in range(LIMIT - 1):
        assert _page_login(client, dealer.username, "wrong").status_code == 200  # the form again, with its error
    locked = _page_login(client, dealer.username, "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # Even the right password is refused now, and no session is opened.
    again = _page_login(client, dealer.username, PASSWORD)
    assert again.status_code == 429 and "_auth_user_id" not in client.session
    assert int(again["Retry-After"]) == 15 * 60


def test_the_token_endpoint_answers_429_in_the_error_shape(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    for _attempt in range(LIMIT - 1):
        response = _api_login(client, dealer.username, "wrong")
        assert response.status_code == 400 and response.json()["extra"]["code"] == "bad_credentials"
    response = _api_login(client, dealer.username, PASSWORD, address="10.0.0.9")  # a success in between resets
    assert response.status_code == 200
    for _attempt in range(LIMIT):
        response = _api_login(client, dealer.username, "wrong")
    assert response.status_code == 429
    body = response.json()
    assert set(body) == {"message", "extra"} and body["extra"]["code"] == "locked_out"
    assert "Too many failed logins" in body["message"] and body["extra"]["retry_after"] == 900
    refused = _api_login(client, dealer.username, PASSWORD, address="10.0.0.10")  # by username, from anywhere
    assert refused.status_code == 429 and "token" not in refused.json()


def test_one_address_trying_many_usernames_is_locked_out(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    for n in range(LIMIT):
        _api_login(client, f"nobody{n}", "wrong", address="10.1.1.1")
    assert _api_login(client, dealer.username, PASSWORD, address="10.1.1.1").status_code == 429
    assert _api_login(client, dealer.username, PASSWORD, address="10.1.1.2").status_code == 200


@override_settings(AXES_FAILURE_LIMIT=2, AXES_COOLOFF_TIME=timedelta(minutes=3))
def test_the_limit_and_the_cool_off_are_settings(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    _api_login(client, dealer.username, "wrong")
    response = _api_login(client, dealer.username, "wrong")
    assert response.status_code == 429 and response["Retry-After"] == "180"
    # Once the cool-off has passed the right password works again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=4))
    assert _api_login(client, dealer.username, PASSWORD).status_code == 200


def test_every_lockout_is_logged_and_recorded(make_user, floor, caplog):
    dealer = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    with caplog.at_level(logging.INFO):
        for _attempt in range(LIMIT):
            _api_login(client, dealer.username, "wrong", address="10.2.2.2")
    lines = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
    assert any(line.startswith("Locked out: username") and dealer.username in line for line in lines), lines
    assert any("AXES: Locking out" in line for line in lines), lines
    event = SecurityEvent.objects.get(kind=SecurityEvent.Kind.LOCKOUT)
    assert event.username == dealer.username and event.address == "10.2.2.2"
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN_FAILED, username=dealer.username).count() == LIMIT


def _lock_out(username):
    # Each from an address of its own: tries from an address locked already would not be counted.
    client = APIClient()
    address = f"10.3.{len(username)}.{AccessAttempt.objects.count()}"
    for _attempt in range(LIMIT):
        _api_login(client, username, "wrong", address=address)
    assert _api_login(client, username, PASSWORD, address="10.4.4.4").status_code == 429


def test_a_pit_boss_unlocks_the_staff_of_his_pits_only(make_user, floor):
    ours = make_user(DEALER, pits=[floor.pit_a])
    theirs = make_user(DEALER, pits=[floor.pit_b])
    _lock_out(ours.username)
    _lock_out(theirs.username)
    boss = Client()
    boss.force_login(make_user(PIT_BOSS, pits=[floor.pit_a]))
    page = boss.get(reverse("casino:lockouts"))
    assert page.status_code == 200
    assert page.context["usernames"] == [ours.username]

    refused = boss.post(reverse("casino:lockouts"), {"username": theirs.username}, follow=True)
    assert "not on your staff" in refused.content.decode()
    assert _api_login(APIClient(), theirs.username, PASSWORD, address="10.4.4.5").status_code == 429

    done = boss.post(reverse("casino:lockouts"), {"username": ours.username}, follow=True)
    assert "can log in again" in done.content.decode()
    assert _api_login(APIClient(), ours.username, PASSWORD, address="10.4.4.5").status_code == 200
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.UNLOCK, detail=f"unlocked {ours.username}").exists()


def test_an_admin_unlocks_anyone_and_a_dealer_no_one(make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_b])
    _lock_out(dealer.username)
    other = Client()
    other.force_login(make_user(DEALER, pits=floor.pits))
    assert other.get(reverse("casino:lockouts")).status_code == 403
    assert other.post(reverse("casino:lockouts"), {"username": dealer.username}).status_code == 403
    admin = Client()
    admin.force_login(make_user("superuser"))
    assert admin.get(reverse("casino:lockouts")).context["usernames"] == [dealer.username]
    admin.post(reverse("casino:lockouts"), {"username": dealer.username})
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.4.4.6").status_code == 200
    # axes' own admin pages list the attempts (and unlock addresses) for admins.
    assert admin.get(reverse("admin:axes_accessattempt_changelist")).status_code == 200


def test_the_environment_sets_the_limit_the_cool_off_and_what_is_locked():
    from tests.casino.test_settings import settings_of

    names = ("AXES_FAILURE_LIMIT", "AXES_COOLOFF_TIME", "LOGIN_LOCKOUT_BY", "TRUSTED_PROXY_COUNT")
    assert settings_of(*names, DEBUG="1") == {
        "AXES_FAILURE_LIMIT": 5,
        "AXES_COOLOFF_TIME": "0:15:00",
        "LOGIN_LOCKOUT_BY": ["username", "ip_address"],
        "TRUSTED_PROXY_COUNT": 0,
    }
    assert settings_of(
        *names,
        DEBUG="1",
        LOGIN_FAILURE_LIMIT="3",
        LOGIN_COOLOFF_MINUTES="60",
        LOGIN_LOCKOUT_BY="username,username+ip_address",
        TRUSTED_PROXY_COUNT="2",
    ) == {
        "AXES_FAILURE_LIMIT": 3,
        "AXES_COOLOFF_TIME": "1:00:00",
        "LOGIN_LOCKOUT_BY": ["username", ["username", "ip_address"]],
        "TRUSTED_PROXY_COUNT": 2,
    }
    # What axes locks is decided per login (casino.security.lockout_parameters), from that setting;
    # a retry during a lockout does not restart the cool-off; the address is read behind the proxies.
    assert settings_of(
        "AXES_LOCKOUT_PARAMETERS", "AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT", "AXES_CLIENT_IP_CALLABLE", DEBUG="1"
    ) == {
        "AXES_LOCKOUT_PARAMETERS": "casino.security.lockout_parameters",
        "AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT": False,
        "AXES_CLIENT_IP_CALLABLE": "casino.security.client_ip",
    }


def test_the_environment_sets_the_token_lifetimes():
    from tests.casino.test_settings import settings_of

    assert settings_of(
        "REST_KNOX", "DEVICE_TOKEN_TTL_DAYS", DEBUG="1", TOKEN_TTL_HOURS="8", DEVICE_TOKEN_TTL_DAYS="90"
    ) == {
        "REST_KNOX": {"TOKEN_TTL": "8:00:00", "AUTH_HEADER_PREFIX": "Token", "AUTO_REFRESH": False},
        "DEVICE_TOKEN_TTL_DAYS": 90,
    }


# --- a lockout that protects without locking the floor out (issue #36, item 7) -----------------


def test_attempts_during_a_lockout_do_not_extend_it(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = APIClient()
    for _attempt in range(LIMIT):
        _api_login(client, dealer.username, "wrong", address="10.6.6.6")
    locked_at = timezone.now() - timedelta(minutes=10)
    AccessAttempt.objects.update(attempt_time=locked_at)
    # A client retrying every few seconds, wrong password or right, during the last five minutes.
    for password in ("wrong", PASSWORD, "wrong", PASSWORD):
        assert _api_login(client, dealer.username, password, address="10.6.6.6").status_code == 429
    assert _page_login(Client(REMOTE_ADDR="10.6.6.6"), dealer.username, "wrong").status_code == 429
    attempt = AccessAttempt.objects.get()
    assert attempt.attempt_time == locked_at and attempt.failures_since_start == LIMIT
    # One lockout in the log, and each refused try as a failed login that says so.
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOCKOUT).count() == 1
    refused = SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN_FAILED, detail="refused: locked out")
    assert refused.count() == 5
    # Fifteen minutes after the failure that locked, the right password works, retries or not.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=15, seconds=1))
    assert _api_login(client, dealer.username, PASSWORD, address="10.6.6.6").status_code == 200


@pytest.mark.parametrize("role", [PIT_BOSS, "superuser"])
def test_failures_of_others_at_one_address_do_not_lock_out_who_unlocks(make_user, floor, role):
    """The floor reaches the site through one address: five failures there lock that address, but
    not the pit boss or the admin who would lift it."""
    dealer = make_user(DEALER, pits=floor.pits)
    unlocker = make_user(role, pits=floor.pits)
    for n in range(LIMIT):
        _api_login(APIClient(), f"typo{n}", "wrong", address="10.7.7.7")
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.7.7.7").status_code == 429
    assert _api_login(APIClient(), unlocker.username, PASSWORD, address="10.7.7.7").status_code == 200
    page = Client(REMOTE_ADDR="10.7.7.7")
    assert _page_login(page, unlocker.username, PASSWORD).status_code == 302
    assert page.get(reverse("casino:lockouts")).status_code == 200
    # His logging in does not lift the address's lockout for the others.
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.7.7.7").status_code == 429


def test_a_pit_boss_is_still_locked_by_failures_of_his_own_name(make_user, floor):
    boss = make_user(PIT_BOSS, pits=floor.pits)
    for _attempt in range(LIMIT):
        _api_login(APIClient(), boss.username, "wrong", address="10.8.8.8")
    assert _api_login(APIClient(), boss.username, PASSWORD, address="10.8.8.9").status_code == 429


def test_the_commands_unlock_a_username_and_an_address(make_user, floor):
    """README, "Lockouts": the way back in when whoever unlocks is locked out himself."""
    from django.core.management import call_command

    boss = make_user(PIT_BOSS, pits=floor.pits)
    dealer = make_user(DEALER, pits=floor.pits)
    for _attempt in range(LIMIT):
        _api_login(APIClient(), boss.username, "wrong", address="10.9.9.1")
    for n in range(LIMIT):
        _api_login(APIClient(), f"typo{n}", "wrong", address="10.9.9.2")
    assert _api_login(APIClient(), boss.username, PASSWORD, address="10.9.9.3").status_code == 429
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.9.9.2").status_code == 429
    call_command("axes_reset_username", boss.username, verbosity=0)
    assert _api_login(APIClient(), boss.username, PASSWORD, address="10.9.9.3").status_code == 200
    call_command("axes_reset_ip", "10.9.9.2", verbosity=0)
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.9.9.2").status_code == 200
    for _attempt in range(LIMIT):
        _api_login(APIClient(), dealer.username, "wrong", address="10.9.9.4")
    call_command("axes_reset", verbosity=0)  # everything
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.9.9.4").status_code == 200


@override_settings(LOGIN_LOCKOUT_BY=["username", ["username", "ip_address"]])
def test_without_the_address_lock_one_address_does_not_lock_out_the_others(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    other = make_user(DEALER, pits=floor.pits)
    for n in range(LIMIT):
        _api_login(APIClient(), f"typo{n}", "wrong", address="10.10.0.1")
    assert _api_login(APIClient(), other.username, PASSWORD, address="10.10.0.1").status_code == 200
    for _attempt in range(LIMIT):
        _api_login(APIClient(), dealer.username, "wrong", address="10.10.0.1")
    assert _api_login(APIClient(), dealer.username, PASSWORD, address="10.10.0.2").status_code == 429
    assert _api_login(APIClient(), other.username, PASSWORD, address="10.10.0.1").status_code == 200


def _via_proxy(client, username, password, *, client_address, forwarded=None, proxy="172.31.0.2"):
    chain = forwarded if forwarded is not None else f"198.51.100.99, {client_address}"
    return client.post(
        TOKEN,
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=chain,
    )


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_proxy_each_client_is_locked_by_his_own_address(make_user, floor):
    """One TLS proxy in front (REMOTE_ADDR is always the proxy): the address it appends to
    X-Forwarded-For is the client's; what the client wrote before it (the 198.51.100.99) counts for
    nothing."""
    dealer = make_user(DEALER, pits=floor.pits)
    for n in range(LIMIT):
        _via_proxy(APIClient(), f"typo{n}", "wrong", client_address="203.0.113.7")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.7"}
    assert _via_proxy(APIClient(), dealer.username, PASSWORD, client_address="203.0.113.7").status_code == 429
    assert _via_proxy(APIClient(), dealer.username, PASSWORD, client_address="203.0.113.8").status_code == 200
    login = SecurityEvent.objects.get(kind=SecurityEvent.Kind.TOKEN_ISSUED)
    assert login.address == "203.0.113.8"
    failed = SecurityEvent.objects.filter(kind=SecurityEvent.Kind.LOGIN_FAILED)
    assert set(failed.values_list("address", flat=True)) == {"203.0.113.7"}


@pytest.mark.parametrize(
    "count, forwarded, seen",
    [
        (0, "203.0.113.7", "172.31.0.2"),  # no proxy configured: the header is the client's own words
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "10.0.0.1, 203.0.113.7", "203.0.113.7"),
        (2, "10.0.0.1, 203.0.113.7, 172.31.0.9", "203.0.113.7"),
        (2, "203.0.113.7", "172.31.0.2"),  # fewer addresses than proxies: not through all of them
        (1, "not-an-address", "172.31.0.2"),
        (1, "", "172.31.0.2"),
        (1, " 2001:db8::1 ", "2001:db8::1"),
    ],
)
def test_the_client_address_behind_the_trusted_proxies(settings, rf, count, forwarded, seen):
    from casino.security import client_address, client_ip

    settings.TRUSTED_PROXY_COUNT = count
    request = rf.get("/", REMOTE_ADDR="172.31.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == seen and client_address(request) == seen
