"""The incidents and shoes API: reports, the pit boss's decisions, who sees what; loading shoes,
burns, dealer changes."""

from decimal import Decimal

import pytest

from dealing import services
from dealing.choices import IncidentStatus
from dealing.models import Approval, Incident, ShoeEvent
from tests.dealing.conftest import post_json

pytestmark = pytest.mark.django_db

INCIDENTS = "/api/v1/incidents/"
SHOES = "/api/v1/shoes/"


def _report(client, tables, **fields):
    body = {
        "table": tables.ochko.pk,
        "kind": "dealer_card_exposed",
        "card": "10h",
        "exposed": True,
        "resolution": "burned",
        "dealer": "dealer1",
        "evidence": "CAM-2 22:01",
        **fields,
    }
    return post_json(client, INCIDENTS, body)


def test_an_inspector_reports_and_a_pit_boss_approves(api, staff, tables):
    response = _report(api(staff.inspector), tables, note="Flashed on the deal.")
    assert response.status_code == 201, response.json()
    incident = response.json()
    assert (incident["card"], incident["status"], incident["reported_by"], incident["dealer"]) == (
        "TH",
        "reported",
        "inspector1",
        "dealer1",
    )
    assert incident["approvals"] == []
    url = f"{INCIDENTS}{incident['id']}/"
    assert post_json(api(staff.dealer), url + "approve/", {}).status_code == 403
    assert post_json(api(staff.inspector), url + "approve/", {}).status_code == 403
    response = post_json(api(staff.pitboss), url + "approve/", {"comment": "Burned before me."})
    assert response.status_code == 200
    assert response.json()["decision"] == "approved" and response.json()["incident"] == incident["id"]
    detail = api(staff.dealer).get(url).json()
    assert detail["status"] == "approved" and detail["approvals"][0]["comment"] == "Burned before me."
    assert post_json(api(staff.pitboss2), url + "reject/", {"comment": "late"}).status_code == 409


def test_a_pit_boss_never_decides_his_own_report(api, staff, tables):
    incident = _report(api(staff.pitboss), tables).json()
    response = post_json(api(staff.pitboss), f"{INCIDENTS}{incident['id']}/approve/", {})
    assert response.status_code == 403 and response.json()["extra"]["code"] == "own_report"
    response = post_json(api(staff.pitboss2), f"{INCIDENTS}{incident['id']}/reject/", {})
    assert response.status_code == 400 and response.json()["extra"]["code"] == "comment_required"
    response = post_json(api(staff.pitboss2), f"{INCIDENTS}{incident['id']}/reject/", {"comment": "No clip shows it."})
    assert response.status_code == 200
    assert Incident.objects.get().status == IncidentStatus.REJECTED
    assert Approval.objects.count() == 1


@pytest.mark.parametrize(
    "fields, where",
    [
        ({"card": "5H"}, "card"),
        ({"card": "??"}, "card"),
        ({"kind": "lost"}, "kind"),
        ({"resolution": "to_box"}, "to_box"),
        ({"resolution": "to_box", "to_box": 9}, "to_box"),
        ({"dealer": "ghost"}, "dealer"),
        ({"dealer": "inspector1"}, "dealer"),
        ({"table": 999999}, "table"),
        ({"note": "\x00"}, "note"),
    ],
)
def test_a_bad_report_names_the_field(api, staff, tables, fields, where):
    response = _report(api(staff.inspector), tables, **fields)
    assert response.status_code == 400, response.json()
    extra = response.json()["extra"]
    assert extra.get("path") == where or where in extra.get("fields", {}), extra
    assert not Incident.objects.exists()


def test_a_report_at_a_table_of_another_pit_is_refused(api, staff, tables):
    response = _report(api(staff.inspector), tables, table=tables.elsewhere.pk, dealer="dealer-c")
    assert response.status_code == 403


def test_who_sees_which_incidents(api, staff, tables):
    mine = services.incident_report(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    theirs = services.incident_report(
        table=tables.ochko_b,
        kind="misdrawn_card",
        card="7S",
        exposed=False,
        resolution="under_shoe",
        dealer=staff.dealer2,
        reported_by=staff.pitboss,
    )
    far = services.incident_report(
        table=tables.elsewhere,
        kind="dealer_card_exposed",
        card="AS",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer_c,
        reported_by=staff.inspector_c,
    )

    def seen(user, **params):
        return {i["id"] for i in api(user).get(INCIDENTS, params).json()["results"]}

    assert seen(staff.dealer) == {mine.pk}
    assert seen(staff.dealer2) == {theirs.pk}
    assert seen(staff.inspector) == seen(staff.pitboss) == {mine.pk, theirs.pk}
    assert seen(staff.inspector_c) == {far.pk}
    assert seen(staff.auditor) == {mine.pk, theirs.pk, far.pk}
    assert seen(staff.auditor, status="reported", table=tables.ochko_b.pk) == {theirs.pk}
    assert seen(staff.auditor, kind="misdrawn_card") == {theirs.pk}
    assert seen(staff.auditor, dealer="dealer-c") == {far.pk}
    assert api(staff.dealer).get(f"{INCIDENTS}{theirs.pk}/").status_code == 404
    assert post_json(api(staff.pitboss), f"{INCIDENTS}{far.pk}/approve/", {}).status_code == 404


def test_shoes_through_the_api(api, staff, tables):
    client = api(staff.dealer)
    response = post_json(client, SHOES, {"table": tables.ochko.pk})
    assert response.status_code == 201, response.json()
    shoe = response.json()
    assert (shoe["name"], shoe["decks"], shoe["is_open"], shoe["cards_left"], shoe["rounds"]) == (
        "R-1/1",
        8,
        True,
        288,
        0,
    )
    assert [e["kind"] for e in shoe["events"]] == ["shuffle"]
    url = f"{SHOES}{shoe['id']}/"
    burn = post_json(client, url + "burns/", {"card": "as", "reason": "paid", "fee": "50.00"})
    assert burn.status_code == 201 and burn.json()["card"] == "AS" and burn.json()["fee"] == "50.00"
    bad = post_json(client, url + "burns/", {"card": "AS", "reason": "paid"})
    assert bad.status_code == 400 and bad.json()["extra"]["code"] == "fee_required"
    bad = post_json(client, url + "burns/", {"card": "2C", "reason": "load"})
    assert bad.status_code == 400 and bad.json()["extra"]["code"] == "card_not_in_pack"
    change = post_json(api(staff.pitboss), url + "dealer-changes/", {"dealer": "dealer2"})
    assert change.status_code == 201 and change.json()["dealer"] == "dealer2"
    assert post_json(client, url + "dealer-changes/", {"dealer": "ghost"}).status_code == 400
    detail = client.get(url).json()
    assert [e["kind"] for e in detail["events"]] == ["shuffle", "burn", "dealer_change"]
    assert detail["cards_left"] == 287
    second = post_json(client, SHOES, {"table": tables.ochko.pk, "decks": 6}).json()
    assert second["name"] == "R-1/2" and second["decks"] == 6
    assert client.get(url).json()["is_open"] is False
    assert post_json(client, url + "burns/", {"card": "AS", "reason": "load"}).status_code == 409
    ended = post_json(client, f"{SHOES}{second['id']}/end/", {})
    assert ended.status_code == 200 and ended.json()["is_open"] is False
    listed = client.get(SHOES, {"table": tables.ochko.pk}).json()
    assert [s["name"] for s in listed["results"]] == ["R-1/2", "R-1/1"]
    assert client.get(SHOES, {"is_open": "true"}).json()["count"] == 0
    assert ShoeEvent.objects.count() == 4


def test_shoes_of_other_pits_are_out_of_sight(api, staff, tables):
    far = services.shoe_start(table=tables.elsewhere, shuffled_by=staff.dealer_c)
    assert api(staff.dealer).get(f"{SHOES}{far.pk}/").status_code == 404
    assert post_json(api(staff.dealer), f"{SHOES}{far.pk}/burns/", {"card": "AS", "reason": "load"}).status_code == 404
    assert post_json(api(staff.dealer), SHOES, {"table": tables.elsewhere.pk}).status_code == 403
    assert api(staff.dealer).get(SHOES).json()["count"] == 0
    assert api(staff.auditor).get(SHOES).json()["count"] == 1


@pytest.mark.parametrize(
    "fee, stored, code",
    [
        (50, "50.00", 201),  # issue #35 item 4: a number, as the round and shoe formats write amounts
        (50.5, "50.50", 201),
        ("50", "50.00", 201),
        (0.125, None, 400),  # more than 2 decimals
        (-5, None, 400),
        (True, None, 400),
        ("1e2", None, 400),
        ([50], None, 400),
    ],
)
def test_a_paid_burns_fee_is_a_number_or_a_decimal_string(api, staff, tables, fee, stored, code):
    client = api(staff.dealer)
    shoe = post_json(client, SHOES, {"table": tables.ochko.pk}).json()
    before = ShoeEvent.objects.count()
    burn = post_json(client, f"{SHOES}{shoe['id']}/burns/", {"card": "AS", "reason": "paid", "fee": fee})
    assert burn.status_code == code, burn.json()
    if stored is None:
        assert "fee" in burn.json()["extra"]["fields"] and ShoeEvent.objects.count() == before
    else:
        assert burn.json()["fee"] == stored
        assert ShoeEvent.objects.get(pk=burn.json()["id"]).fee == Decimal(stored)
