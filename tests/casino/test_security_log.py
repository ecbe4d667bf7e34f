"""The security log (issue 18, item 8): logins, failures, lockouts, tokens issued and revoked, and
refusals appended to `SecurityEvent`; read by admins and auditors on a page, filtered, exported."""

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from casino import services
from casino.models import SecurityEvent
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, ROLES, TRAINEE
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LOG = "/security/log/"
Kind = SecurityEvent.Kind


def test_a_login_a_failure_and_a_logout_on_the_page_are_recorded(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    client = Client(REMOTE_ADDR="10.5.5.5")
    client.post("/accounts/login/", {"username": dealer.username, "password": "wrong"})
    client.post("/accounts/login/", {"username": dealer.username, "password": PASSWORD})
    client.post("/accounts/logout/")
    kinds = list(SecurityEvent.objects.order_by("id").values_list("kind", "username", "address"))
    assert kinds == [
        (Kind.LOGIN_FAILED, dealer.username, "10.5.5.5"),
        (Kind.LOGIN, dealer.username, "10.5.5.5"),
        (Kind.LOGOUT, dealer.username, "10.5.5.5"),
    ]


def test_tokens_issued_and_revoked_are_recorded(make_user, floor):
    dealer = make_user(DEALER, pits=floor.pits)
    key = (
        APIClient()
        .post("/api/v1/auth/token/", {"username": dealer.username, "password": PASSWORD}, format="json")
        .json()["token"]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    client.delete("/api/v1/auth/token/")
    admin = make_user("superuser")
    device, _key = services.device_token_issue(name="Shoe 1", user=dealer, issued_by=admin)
    services.device_token_revoke(device=device, revoked_by=admin)
    events = list(SecurityEvent.objects.order_by("id").values_list("kind", "user", "detail"))
    assert events == [
        (Kind.TOKEN_ISSUED, dealer.pk, "person"),
        (Kind.TOKEN_REVOKED, dealer.pk, "logout"),
        (Kind.TOKEN_ISSUED, admin.pk, f"device 'Shoe 1' acting as {dealer.username}"),
        (Kind.TOKEN_REVOKED, admin.pk, "device 'Shoe 1'"),
    ]


def test_a_refused_page_and_a_refused_endpoint_are_recorded_with_why(make_user, floor):
    trainee = make_user(TRAINEE)
    client = Client()
    client.force_login(trainee)
    assert client.get(reverse("casino:floor")).status_code == 403
    _token, key = services.token_issue(user=trainee)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/drills/standards/").status_code == 403
    refusals = SecurityEvent.objects.filter(kind=Kind.REFUSAL, user=trainee).order_by("id")
    assert [event.detail for event in refusals] == [
        "GET /: Your role does not give access to this page.",
        "GET /api/v1/drills/standards/: Your role does not give access to this endpoint.",
    ]


@pytest.mark.parametrize(
    "role, status",
    [(AUDITOR, 200), ("superuser", 200), (PIT_BOSS, 403), (DEALER, 403), (INSPECTOR, 403), (TRAINEE, 403)],
)
def test_only_admins_and_auditors_read_the_log(client_for, floor, role, status):
    assert client_for(role).get(LOG).status_code == status
    assert client_for(role).get(LOG, {"export": "csv"}).status_code == status
    assert client_for(role).get(LOG, {"export": "xlsx"}).status_code == status


def test_anonymous_is_sent_to_log_in():
    response = Client().get(LOG)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.fixture
def events(make_user):
    dealer = make_user(DEALER, username="dealer-x")
    services.security_event_record(kind=Kind.LOGIN, user=dealer, address="10.0.0.1")
    services.security_event_record(kind=Kind.LOGIN_FAILED, username='=HYPERLINK("http://evil")', address="10.0.0.2")
    old = services.security_event_record(kind=Kind.LOCKOUT, username="dealer-x", address="10.0.0.3")
    SecurityEvent.objects.filter(pk=old.pk).update(at=timezone.now() - timedelta(days=10))
    return dealer


def test_the_log_filters_by_kind_user_and_date(client_for, events):
    auditor = client_for(AUDITOR)  # his own login is an event too: left out below

    def shown(**query):
        return [
            (e.kind, e.username)
            for e in auditor.get(LOG, query).context["events"]
            if e.username != auditor.user.username
        ]

    assert shown(kind=Kind.LOGIN) == [(Kind.LOGIN, "dealer-x")]
    assert shown(user="dealer-x") == [(Kind.LOGIN, "dealer-x"), (Kind.LOCKOUT, "dealer-x")]
    since = (timezone.now() - timedelta(days=1)).date().isoformat()
    assert [kind for kind, _user in shown(since=since)] == [Kind.LOGIN_FAILED, Kind.LOGIN]
    until = (timezone.now() - timedelta(days=5)).date().isoformat()
    assert shown(until=until) == [(Kind.LOCKOUT, "dealer-x")]


def test_the_csv_export_holds_what_the_filters_select_and_runs_no_formula(client_for, events):
    response = client_for(AUDITOR).get(LOG, {"kind": Kind.LOGIN_FAILED, "export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0] == ["when", "kind", "user", "address", "detail"]
    assert [row[1:4] for row in rows[1:]] == [["login_failed", '\'=HYPERLINK("http://evil")', "10.0.0.2"]]
    # The XLSX beside it: the same rows, the typed name a text cell, never a formula.
    import openpyxl

    xlsx = client_for(AUDITOR).get(LOG, {"kind": Kind.LOGIN_FAILED, "export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(b"".join(xlsx.streaming_content))).active
    cells = list(sheet.iter_rows())
    assert [c.value for c in cells[0]] == ["when", "kind", "user", "address", "detail"]
    assert cells[1][2].value == '=HYPERLINK("http://evil")' and cells[1][2].data_type == "s"


def test_the_log_is_read_only_in_the_admin(client_for):
    admin = client_for("superuser")
    assert admin.get(reverse("admin:casino_securityevent_changelist")).status_code == 200
    assert admin.get(reverse("admin:casino_securityevent_add")).status_code == 403


def test_every_role_is_covered():
    assert set(ROLES) == {AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE}
