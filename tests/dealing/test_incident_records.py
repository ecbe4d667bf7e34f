"""Issue #35 item 2: an incident record is held to seed 004's procedure — out of procedure it carries
INCIDENT_RESOLUTION (code, message, the rules page's line), and a pit boss approves it only with a
written reason; the findings stay on the record."""

import pytest
from django.test import Client
from django.urls import reverse

from casino.errors import ServiceError
from dealing import services
from dealing.choices import IncidentStatus

pytestmark = pytest.mark.django_db


def _report(staff, tables, **fields):
    values = dict(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="kh",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    values.update(fields)
    return services.incident_report(**values)


@pytest.mark.parametrize(
    "kind, exposed, resolution, rule",
    [
        ("dealer_card_exposed", True, "under_shoe", "exposed_dealer_card"),
        ("dealer_card_exposed", True, "to_box", "exposed_dealer_card"),
        ("misdrawn_card", False, "to_box", "unseen_card"),
        ("misdrawn_card", True, "under_shoe", "exposed_card"),
        ("dealer_card_exposed", True, "burned", None),
        ("misdrawn_card", False, "under_shoe", None),
        ("misdrawn_card", False, "burned", None),  # "under the shoe (burned)": item 7
        ("misdrawn_card", True, "burned", None),
        ("misdrawn_card", True, "to_box", None),
    ],
)
def test_an_incident_record_is_held_to_the_procedure(api, staff, tables, kind, exposed, resolution, rule):
    to_box = 2 if resolution == "to_box" else None
    incident = _report(staff, tables, kind=kind, exposed=exposed, resolution=resolution, to_box=to_box)
    body = api(staff.pitboss).get(f"/api/v1/incidents/{incident.pk}/").json()
    if rule is None:
        assert body["procedure"] == []
        return
    [finding] = body["procedure"]
    assert (finding["code"], finding["severity"], finding["params"]["rule"]) == ("INCIDENT_RESOLUTION", "major", rule)
    assert finding["message"] and finding["rule_line"].startswith("rules/ochko.md, Incidents during a round")


def test_a_pit_boss_approves_an_out_of_procedure_record_only_saying_why(api, staff, tables):
    incident = _report(staff, tables, resolution="under_shoe")
    with pytest.raises(ServiceError) as refused:
        services.incident_decide(incident=incident, decided_by=staff.pitboss, decision="approved")
    assert (refused.value.status, refused.value.extra["code"]) == (400, "out_of_procedure")
    incident.refresh_from_db()
    assert incident.status == IncidentStatus.REPORTED and not incident.approvals.exists()
    response = api(staff.pitboss).post(f"/api/v1/incidents/{incident.pk}/approve/", data={}, format="json")
    assert response.status_code == 400 and response.json()["extra"]["code"] == "out_of_procedure"
    approval = services.incident_decide(
        incident=incident, decided_by=staff.pitboss, decision="approved", comment="card slid under before we saw it"
    )
    assert approval.comment == "card slid under before we saw it"
    # Approved, and still flagged: the record's findings do not go away with the approval.
    body = api(staff.pitboss).get(f"/api/v1/incidents/{incident.pk}/").json()
    assert body["status"] == "approved" and [f["code"] for f in body["procedure"]] == ["INCIDENT_RESOLUTION"]


def test_a_record_within_procedure_is_approved_without_a_comment(staff, tables):
    incident = _report(staff, tables)
    services.incident_decide(incident=incident, decided_by=staff.pitboss, decision="approved")
    incident.refresh_from_db()
    assert incident.status == IncidentStatus.APPROVED


def test_the_pages_show_the_flag(staff, tables):
    _report(staff, tables, resolution="under_shoe")
    client = Client()
    client.force_login(staff.pitboss)
    for url in (reverse("dealing:pit_queue"), reverse("dealing:table_incidents", kwargs={"name": "R-1"})):
        page = client.get(url).content.decode()
        assert "Out of procedure" in page and "INCIDENT_RESOLUTION" in page, url
