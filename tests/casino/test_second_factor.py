"""The second factor (issue 37, item 7): pit bosses, auditors and admins give a TOTP code after the
password (OTP_REQUIRED_ROLES); until they do, a session reaches only the enrol, verify and logout
pages; tokens for them need the code too; wrong codes are refused, logged and slowed down."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice
from rest_framework.test import APIClient

from casino.config import OTP_ADMIN, OTP_ROLE_NAMES, otp_required_roles_from
from casino.demo import DEMO_TOTP_KEY
from casino.identity import OPEN_URL_NAMES
from casino.models import SecurityEvent
from casino.roles import AUDITOR, DEALER, PIT_BOSS, ROLES
from tests.casino.test_url_roles import build_url, served_methods, url_patterns, walk_floor  # noqa: F401
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"
PRODUCTION_DEFAULT = ("pit_boss", "auditor", "admin")


@pytest.fixture(autouse=True)
def otp_on(settings):
    """The production default (the suite's settings require none: its tests sign in with force_login)."""
    settings.OTP_REQUIRED_ROLES = PRODUCTION_DEFAULT


def code(device, steps_ahead: int = 0) -> str:
    """The code the authenticator shows now (or `steps_ahead` 30-second steps later)."""
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"


def wrong(right: str) -> str:
    return f"{(int(right) + 1) % 1_000_000:06d}"


def signed_in(username: str) -> Client:
    """A client past the password only, as the login page leaves it."""
    client = Client(raise_request_exception=False)
    response = client.post(LOGIN, {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def unthrottle(device) -> None:
    """As if the wait after a wrong code were over (only the throttling fields: the device's other
    fields, such as the last code used, stay as the server left them)."""
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)


def enrolled(user) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)


# --- configuration -----------------------------------------------------------------------------


def test_the_role_names_the_setting_takes_are_the_roles_and_admin():
    assert set(OTP_ROLE_NAMES) == {*ROLES, OTP_ADMIN}
    assert otp_required_roles_from(" pit_boss, auditor ,admin") == PRODUCTION_DEFAULT
    assert otp_required_roles_from("") == ()
    with pytest.raises(ImproperlyConfigured, match="pitboss"):
        otp_required_roles_from("pitboss,auditor")


def test_production_requires_it_of_pit_bosses_auditors_and_admins_unless_told_otherwise():
    def read(extra: dict) -> str:
        env = {k: v for k, v in os.environ.items() if k not in ("OTP_REQUIRED_ROLES", "DJANGO_SETTINGS_MODULE")}
        env.update(DEBUG="1", **extra)
        script = "import casino.settings as s; print(','.join(s.OTP_REQUIRED_ROLES))"
        return subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        ).stdout.strip()

    assert read({}) == "pit_boss,auditor,admin"
    assert read({"OTP_REQUIRED_ROLES": "auditor"}) == "auditor"
    assert read({"OTP_REQUIRED_ROLES": ""}) == ""


# --- the gate ----------------------------------------------------------------------------------


def test_an_auditor_reaches_no_page_without_the_second_factor(walk_floor):
    users, objects = walk_floor
    client = signed_in("auditor1")
    verify = reverse("casino:otp_verify")
    open_paths = {reverse(name) for name in OPEN_URL_NAMES}
    problems, checked = [], 0
    for pattern in url_patterns():
        url = build_url(pattern, objects)
        if url in open_paths:
            continue
        for method in served_methods(pattern):
            response = getattr(client, method)(url)
            checked += 1
            if url.startswith("/api/"):
                ok = response.status_code == 403 and response.json()["extra"]["code"] == "second_factor_required"
            else:
                ok = response.status_code == 302 and response["Location"].startswith(verify)
            if not ok:
                problems.append(f"{method.upper()} {url} ({pattern.name}): {response.status_code}")
    # The admin site too, and nothing in between has opened the session.
    admin = client.get("/admin/")
    assert admin.status_code == 302 and admin["Location"].startswith(verify)
    assert checked > 100
    assert not problems, "\n".join(problems)


def test_with_the_right_code_he_goes_on_to_the_page_he_asked_for(walk_floor):
    users, _objects = walk_floor
    client = signed_in("auditor1")
    floor = reverse("casino:floor")
    sent = client.get(floor)
    assert sent.status_code == 302
    page = client.get(sent["Location"])
    assert page.status_code == 200 and page.context["next"] == floor
    assert not page.context["nav_menu"]  # nothing offered that would only redirect here
    device = TOTPDevice.objects.get(user=users["auditor1"])
    assert device.key == DEMO_TOTP_KEY
    response = client.post(reverse("casino:otp_verify"), {"code": code(device), "next": floor})
    assert response.status_code == 302 and response["Location"] == floor
    assert client.get(floor).status_code == 200
    assert client.get(reverse("audit:dashboard")).status_code == 200
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.SECOND_FACTOR, user=users["auditor1"]).exists()


def test_a_wrong_code_is_refused_logged_and_slows_the_next_try(make_user, floor, settings):
    # A minute's wait after the first wrong code (1 s by default), so a slow test machine still
    # makes the next try inside it.
    settings.OTP_TOTP_THROTTLE_FACTOR = 60
    auditor = make_user(AUDITOR, pits=floor.pits)
    device = enrolled(auditor)
    client = signed_in(auditor.username)
    right = code(device)
    refused = client.post(reverse("casino:otp_verify"), {"code": wrong(right)})
    assert refused.status_code == 200
    assert "not right" in refused.content.decode()
    assert client.get(reverse("casino:floor")).status_code == 302  # still held at the gate
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.SECOND_FACTOR_FAILED, user=auditor).count() == 1
    # At once again, even with the right code: wait first (doubling, kept on the device).
    throttled = client.post(reverse("casino:otp_verify"), {"code": right})
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) >= 1
    assert client.get(reverse("casino:floor")).status_code == 302
    # Signing in again does not reset the count: the password gives no new guesses.
    client.post(reverse("logout"))
    again = signed_in(auditor.username)
    assert again.post(reverse("casino:otp_verify"), {"code": right}).status_code == 429


@pytest.mark.parametrize("typed", ["", "12345", "1234567", "abcdef", "１２３４５６"])
def test_a_code_that_is_not_six_digits_is_refused_with_a_reason(make_user, floor, typed):
    auditor = make_user(AUDITOR, pits=floor.pits)
    enrolled(auditor)
    client = signed_in(auditor.username)
    response = client.post(reverse("casino:otp_verify"), {"code": typed})
    assert response.status_code == 200 and response.context["form"].errors["code"]
    assert client.get(reverse("casino:floor")).status_code == 302


def test_a_first_sign_in_enrols_an_authenticator_from_its_qr_code(make_user, floor):
    boss = make_user(PIT_BOSS, pits=floor.pits)
    client = signed_in(boss.username)
    floor_url = reverse("casino:floor")
    sent = client.get(floor_url)
    assert sent["Location"].startswith(reverse("casino:otp_enrol"))
    page = client.get(sent["Location"])
    assert page.status_code == 200 and page.context["next"] == floor_url
    qr = client.get(reverse("casino:otp_qr"))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    assert qr.content.lstrip().startswith(b"<svg")
    device = TOTPDevice.objects.get(user=boss, confirmed=False)
    # The key as text is the QR code's, for typing into an app.
    from base64 import b32encode

    assert page.context["key"].replace(" ", "") == b32encode(device.bin_key).decode()
    bad = client.post(reverse("casino:otp_enrol"), {"code": wrong(code(device))})
    assert bad.status_code == 200 and bad.context["form"].errors["code"]
    unthrottle(device)
    done = client.post(reverse("casino:otp_enrol"), {"code": code(device), "next": floor_url})
    assert done.status_code == 302 and done["Location"] == floor_url
    assert client.get(floor_url).status_code == 200
    device.refresh_from_db()
    assert device.confirmed
    # The key is never shown again.
    assert client.get(reverse("casino:otp_qr")).status_code == 404
    assert client.get(reverse("casino:otp_enrol"))["Location"].startswith(reverse("casino:otp_verify"))
    assert SecurityEvent.objects.filter(kind=SecurityEvent.Kind.SECOND_FACTOR_ENROLLED, user=boss).exists()


def test_roles_outside_the_setting_sign_in_with_the_password_alone(make_user, floor, settings):
    dealer = make_user(DEALER, pits=floor.pits)
    assert signed_in(dealer.username).get(reverse("casino:floor")).status_code == 200
    settings.OTP_REQUIRED_ROLES = ("auditor",)
    boss = make_user(PIT_BOSS, pits=floor.pits)
    assert signed_in(boss.username).get(reverse("casino:floor")).status_code == 200


def test_an_admin_is_held_too(make_user, floor, settings):
    admin = make_user("superuser")
    client = signed_in(admin.username)
    assert client.get(reverse("casino:floor"))["Location"].startswith(reverse("casino:otp_enrol"))
    settings.OTP_REQUIRED_ROLES = ()
    assert client.get(reverse("casino:floor")).status_code == 200


def test_an_api_call_with_the_session_is_refused_in_the_error_shape(make_user, floor):
    auditor = make_user(AUDITOR, pits=floor.pits)
    enrolled(auditor)
    response = signed_in(auditor.username).get("/api/v1/tables/")
    assert response.status_code == 403
    body = response.json()
    assert set(body) == {"message", "extra"} and body["extra"]["code"] == "second_factor_required"


def test_logging_out_and_the_health_probe_stay_open(make_user, floor):
    auditor = make_user(AUDITOR, pits=floor.pits)
    client = signed_in(auditor.username)
    assert client.get(reverse("healthz")).status_code in (200, 503)
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("casino:floor"))["Location"].startswith(reverse("login"))


# --- API tokens --------------------------------------------------------------------------------


def _token(username, otp=None):
    body = {"username": username, "password": PASSWORD}
    if otp is not None:
        body["otp"] = otp
    return APIClient().post(TOKEN, body, format="json")


def test_a_token_for_an_auditor_needs_his_code(make_user, floor):
    auditor = make_user(AUDITOR, pits=floor.pits)
    device = enrolled(auditor)
    missing = _token(auditor.username)
    assert missing.status_code == 400 and missing.json()["extra"]["code"] == "otp_required"
    bad = _token(auditor.username, wrong(code(device)))
    assert bad.status_code == 400 and bad.json()["extra"]["code"] == "bad_otp"
    unthrottle(device)
    used = code(device)
    ok = _token(auditor.username, used)
    assert ok.status_code == 200 and ok.json()["token"]
    listed = APIClient().get("/api/v1/tables/", HTTP_AUTHORIZATION=f"Token {ok.json()['token']}")
    assert listed.status_code == 200
    # The same code twice is refused (it was used).
    unthrottle(device)
    assert _token(auditor.username, used).json()["extra"]["code"] == "bad_otp"


def test_a_token_for_one_who_has_not_enrolled_says_so(make_user, floor):
    boss = make_user(PIT_BOSS, pits=floor.pits)
    response = _token(boss.username, "123456")
    assert response.status_code == 400 and response.json()["extra"]["code"] == "otp_not_enrolled"


def test_a_dealer_gets_a_token_with_the_password_alone(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    assert _token(dealer.username).status_code == 200


def test_a_wrong_password_is_refused_before_any_code_is_looked_at(make_user, floor):
    auditor = make_user(AUDITOR, pits=floor.pits)
    device = enrolled(auditor)
    response = APIClient().post(
        TOKEN, {"username": auditor.username, "password": "wrong", "otp": code(device)}, format="json"
    )
    assert response.status_code == 400 and response.json()["extra"]["code"] == "bad_credentials"
    device.refresh_from_db()
    assert device.last_t == -1  # the code was not spent
