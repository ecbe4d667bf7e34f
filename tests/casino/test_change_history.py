"""The history of every change to the floor's configuration and people (issue 35, item 5): pits,
tables (limits, house rules), staff (their pits) and users (their roles), each with who made it,
when, before and after; an auditor's page with filters, pages and a CSV export."""

import csv
import io
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.models import Pit, Staff, Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

PAGE = "/security/changes/"


@pytest.fixture
def admin_client(make_user):
    admin = make_user("superuser", username="chief")
    client = Client()
    client.force_login(admin)
    client.user = admin
    return client


def _csv(response) -> list[list[str]]:
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbf")  # every CSV carries the byte-order mark (issue #35)
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_an_admins_change_to_a_tables_limits_is_recorded_with_him(admin_client, make_user, floor):
    table = floor.table_a
    form = admin_client.get(reverse("admin:casino_table_change", args=[table.pk]))
    data = {k: v for k, v in form.context["adminform"].form.initial.items() if v is not None}
    data.update(pit=table.pit_id, min_bet="200", max_bet="6000", rules="{}", chips="[100, 500]", is_active="on")
    response = admin_client.post(reverse("admin:casino_table_change", args=[table.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    latest = table.history.order_by("-history_id").first()
    assert latest.history_user == admin_client.user and latest.history_type == "~"
    assert (latest.min_bet, latest.max_bet) == (200, 6000)

    auditor = Client()
    auditor.force_login(make_user(AUDITOR))
    page = auditor.get(PAGE, {"kind": "table"})
    assert page.status_code == 200
    change = page.context["changes"][0]
    assert (change.by, change.subject, change.action) == ("chief", "R-1", "~")
    fields = {name: (before, after) for name, _label, before, after in change.fields}
    assert fields["min_bet"][1] == "200.00" and fields["max_bet"][1] == "6000.00"
    assert fields["min_bet"][0] != "200.00"
    html = page.content.decode()
    assert "chief" in html and "6000.00" in html


def test_a_staff_members_pits_and_a_users_roles_are_recorded_before_and_after(admin_client, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dmitri")
    staff = Staff.objects.get(user=dealer)
    response = admin_client.post(
        reverse("admin:casino_staff_change", args=[staff.pk]),
        {"user": dealer.pk, "badge": "D-9", "pits": [floor.pit_a.pk, floor.pit_b.pk]},
    )
    assert response.status_code == 302
    assert staff.history.filter(history_user=admin_client.user).exists()
    dealer.groups.add(Group.objects.get(name=PIT_BOSS))

    auditor = Client()
    auditor.force_login(make_user(AUDITOR))
    staff_change = next(c for c in auditor.get(PAGE, {"kind": "staff"}).context["changes"] if c.subject == "dmitri")
    fields = {name: (before, after) for name, _label, before, after in staff_change.fields}
    assert fields["pits"] == ("Pit A", "Pit A, Pit B") or fields["badge"][1] == "D-9"
    pits_rows = [
        {name: (before, after) for name, _label, before, after in c.fields}
        for c in auditor.get(PAGE, {"kind": "staff"}).context["changes"]
        if c.subject == "dmitri"
    ]
    assert any(row.get("pits") == ("Pit A", "Pit A, Pit B") for row in pits_rows)
    user_change = next(c for c in auditor.get(PAGE, {"kind": "user"}).context["changes"] if c.subject == "dmitri")
    fields = {name: (before, after) for name, _label, before, after in user_change.fields}
    assert fields["groups"] == ("dealer", "dealer, pit_boss")


def test_a_login_and_a_password_leave_no_trace_in_the_history(make_user):
    dealer = make_user(DEALER)
    rows = dealer.history.count()
    assert Client().post("/accounts/login/", {"username": dealer.username, "password": PASSWORD}).status_code == 302
    dealer.refresh_from_db()
    assert dealer.last_login is not None and dealer.history.count() == rows
    assert not hasattr(dealer.history.model, "password")


def test_filters_by_kind_and_date_and_pages(make_user, floor, client_for):
    for n in range(55):
        Pit.objects.create(name=f"Pit {n:02d}")
    auditor = client_for(AUDITOR)
    first = auditor.get(PAGE, {"kind": "pit"})
    assert len(first.context["changes"]) == 50 and {c.kind for c in first.context["changes"]} == {"pit"}
    assert first.context["changes"][0].subject == "Pit 54"  # newest first
    second = auditor.get(PAGE, {"kind": "pit", "page": 2})
    assert [c.subject for c in second.context["changes"]][-1] == "Pit A"
    subjects = {c.subject for c in first.context["changes"]} | {c.subject for c in second.context["changes"]}
    assert len(subjects) == 57  # 55 new pits and the floor's two, each once
    tomorrow = (timezone.localdate() + timedelta(days=1)).isoformat()
    assert auditor.get(PAGE, {"since": tomorrow}).context["changes"] == []
    assert auditor.get(PAGE, {"until": tomorrow, "kind": "table"}).context["changes"]


@pytest.mark.parametrize(
    "query", [{"kind": "casino"}, {"since": "yesterday"}, {"since": "2026-02-02", "until": "2026-02-01"}, {"page": "0"}]
)
def test_bad_filters_are_answered_with_the_form_not_a_500(client_for, floor, query):
    response = client_for(AUDITOR).get(PAGE, query)
    assert response.status_code == 400 and response.context["form"].errors


def test_the_csv_export_has_one_line_per_changed_field(client_for, floor):
    Table.objects.filter(pk=floor.table_a.pk).update(name="ignored")  # an update() bypasses history
    table = Table.objects.get(pk=floor.table_a.pk)
    table.max_bet = table.max_bet + 1
    table.save()
    response = client_for(AUDITOR).get(PAGE, {"kind": "table", "export": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = _csv(response)
    assert rows[0] == ["when", "by", "kind", "object", "action", "field", "before", "after"]
    changed = [row for row in rows[1:] if row[4] == "changed"]
    assert {row[5] for row in changed} >= {"maximum Ante"}
    created = [row for row in rows[1:] if row[4] == "created"]
    assert {row[3] for row in created} == {"R-1", "R-2"}


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, PIT_BOSS, TRAINEE, None])
def test_roles_other_than_auditor_and_admin_are_refused(client_for, floor, role):
    client = client_for(role)  # None: anonymous
    response = client.get(PAGE)
    if role is None:
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 403
    assert client.get(PAGE, {"export": "csv"}).status_code in (302, 403)


def test_an_admin_reads_it_too(admin_client):
    assert admin_client.get(PAGE).status_code == 200
