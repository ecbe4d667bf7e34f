"""Incident pages: the report form, each table's incident log, and the pit boss's queue of incidents
and round corrections with approve/reject — four-eyes refusals shown, nothing changed."""

import pytest
from django.test import Client
from django.urls import reverse

from dealing import services
from dealing.models import Approval, Incident, Round

pytestmark = pytest.mark.django_db


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report(**changes) -> dict:
    data = {
        "table": "R-1",
        "kind": "dealer_card_exposed",
        "card": "kh",
        "exposed": "on",
        "resolution": "burned",
        "dealer": "dealer1",
        "evidence": "CAM-4 21:14:07",
        "note": "Flipped while dealing to himself.",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def reported(staff, tables, **fields) -> Incident:
    values = dict(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    values.update(fields)
    return services.incident_report(**values)


def test_an_inspector_reports_an_incident_and_it_shows_in_the_tables_log(staff, tables):
    inspector = client_as(staff.inspector)
    form = inspector.get(reverse("dealing:incident_new") + "?table=R-1")
    assert form.status_code == 200
    assert 'value="R-1" selected' in form.content.decode()
    response = inspector.post(reverse("dealing:incident_new"), report())
    incident = Incident.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("dealing:table_incidents", kwargs={"name": "R-1"})
    assert (incident.kind, incident.card, incident.exposed, incident.resolution) == (
        "dealer_card_exposed",
        "KH",
        True,
        "burned",
    )
    assert incident.reported_by == staff.inspector and incident.dealer == staff.dealer
    assert incident.evidence == "CAM-4 21:14:07" and incident.status == "reported"
    log = inspector.get(response["Location"]).content.decode()
    assert "CAM-4 21:14:07" in log and "reported" in log and "Flipped while dealing" in log


def test_a_report_names_a_round_and_a_box(staff, tables, logged):
    record = logged(tables.ochko, staff.dealer)
    boss = client_as(staff.pitboss)
    prefilled = boss.get(reverse("dealing:incident_new") + f"?round={record.pk}").content.decode()
    # The form shows the round's number at its table (issue #20 item 2), never its database id.
    assert f'value="{record.table_round}"' in prefilled
    response = boss.post(
        reverse("dealing:incident_new"),
        report(kind="misdrawn_card", card="9D", resolution="to_box", to_box="3", round=str(record.table_round)),
    )
    assert response.status_code == 302
    incident = Incident.objects.get()
    assert incident.round == record and incident.to_box == 3 and incident.resolution == "to_box"


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"card": "XX"}, "card", "XX is not a card"),
        ({"card": "5H"}, "card", "5♥ is not in the 21 Ochko pack."),
        ({"card": "5H", "dealer": ""}, "card", "5♥ is not in the 21 Ochko pack."),  # said at once, with other errors
        ({"card": ""}, "card", "This field is required"),
        ({"resolution": "to_box"}, "to_box", "On which box"),
        ({"table": "R-X"}, "table", "Select a valid choice"),  # a table of another pit is not offered
        ({"dealer": "dealer-c"}, "dealer", "Select a valid choice"),
        ({"round": "999999"}, "round", "There is no round 999999"),
        ({"kind": None}, "kind", "This field is required"),
    ],
)
def test_bad_reports_are_refused_next_to_the_field(staff, tables, changes, field, message):
    response = client_as(staff.inspector).post(reverse("dealing:incident_new"), report(**changes))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert any(message in e for e in errors.get(field, [])), errors
    assert Incident.objects.count() == 0


def test_the_pit_boss_approves_from_his_queue(staff, tables):
    incident = reported(staff, tables)
    boss = client_as(staff.pitboss)
    queue = boss.get(reverse("dealing:pit_queue"))
    assert [i.pk for i in queue.context["incidents"]] == [incident.pk]
    html = queue.content.decode()
    assert "Dealer&#x27;s card exposed" in html
    response = boss.post(
        reverse("dealing:incident_decide", args=[incident.pk]),
        {"decision": "approved", "comment": "Burned in my presence."},
    )
    assert response.status_code == 302 and response["Location"] == reverse("dealing:pit_queue")
    incident.refresh_from_db()
    assert incident.status == "approved"
    approval = Approval.objects.get()
    assert (approval.decided_by, approval.decision, approval.comment) == (
        staff.pitboss,
        "approved",
        "Burned in my presence.",
    )
    after = boss.get(reverse("dealing:pit_queue"))
    assert list(after.context["incidents"]) == []
    assert "Decision recorded" in after.content.decode()


def test_a_rejection_needs_a_comment_and_htmx_gets_the_item_back(staff, tables):
    incident = reported(staff, tables)
    boss = client_as(staff.pitboss)
    url = reverse("dealing:incident_decide", args=[incident.pk])
    response = boss.post(url, {"decision": "rejected"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith("<article")
    assert "Say why it is rejected." in html
    incident.refresh_from_db()
    assert incident.status == "reported"
    response = boss.post(
        url, {"decision": "rejected", "comment": "The clip shows no exposure."}, HTTP_HX_REQUEST="true"
    )
    assert "Rejected" in response.content.decode()
    incident.refresh_from_db()
    assert incident.status == "rejected"


def test_four_eyes_a_pit_boss_never_decides_his_own_report(staff, tables):
    own = reported(staff, tables, reported_by=staff.pitboss)
    boss = client_as(staff.pitboss)
    queue = boss.get(reverse("dealing:pit_queue"))
    assert list(queue.context["incidents"]) == []
    assert [i.pk for i in queue.context["waiting_incidents"]] == [own.pk]
    assert "you reported it" in queue.content.decode()
    response = boss.post(reverse("dealing:incident_decide", args=[own.pk]), {"decision": "approved"}, follow=True)
    assert "You reported this incident; another pit boss decides on it." in response.content.decode()
    own.refresh_from_db()
    assert own.status == "reported" and not Approval.objects.exists()
    # The other pit boss of the pit decides it.
    client_as(staff.pitboss2).post(reverse("dealing:incident_decide", args=[own.pk]), {"decision": "approved"})
    own.refresh_from_db()
    assert own.status == "approved"


def test_a_round_correction_is_approved_from_the_queue(staff, tables, logged, deal):
    original = logged(tables.ochko, staff.dealer)
    document = dict(original.document)
    document["stakes"] = [dict(s) for s in document["stakes"]]
    document["stakes"][0]["player"] = "P-CORRECTED"
    amendment = services.round_amend(
        round=original, document=document, amended_by=staff.pitboss, reason="Wrong player id on box 1."
    )
    # The pit boss who made the correction waits for another.
    mine = client_as(staff.pitboss).get(reverse("dealing:pit_queue"))
    assert list(mine.context["amendments"]) == [] and "you made the correction" in mine.content.decode()
    boss2 = client_as(staff.pitboss2)
    queue = boss2.get(reverse("dealing:pit_queue"))
    assert [r.pk for r in queue.context["amendments"]] == [amendment.pk]
    assert "Wrong player id on box 1." in queue.content.decode()
    boss2.post(reverse("dealing:amendment_decide", args=[amendment.pk]), {"decision": "approved", "comment": "ok"})
    amendment.refresh_from_db()
    original.refresh_from_db()
    assert (amendment.status, original.status) == ("recorded", "superseded")
    page = boss2.get(reverse("dealing:round_detail", args=[amendment.pk])).content.decode()
    assert "Revisions" in page and "Wrong player id on box 1." in page
    assert Round.objects.count() == 2


def test_the_incident_log_filters_by_status(staff, tables):
    a = reported(staff, tables)
    b = reported(staff, tables, card="QS")
    services.incident_decide(incident=b, decided_by=staff.pitboss, decision="approved")
    inspector = client_as(staff.inspector)
    pending = inspector.get(reverse("dealing:table_incidents", kwargs={"name": "R-1"}) + "?status=reported")
    assert [i.pk for i in pending.context["incidents"]] == [a.pk]
    everything = inspector.get(reverse("dealing:incident_list"))
    assert {i.pk for i in everything.context["incidents"]} == {a.pk, b.pk}
    # A dealer sees the incidents where he was the dealer.
    assert {i.pk for i in client_as(staff.dealer).get(reverse("dealing:incident_list")).context["incidents"]} == {
        a.pk,
        b.pk,
    }
    assert list(client_as(staff.dealer2).get(reverse("dealing:incident_list")).context["incidents"]) == []


def test_the_incident_log_pages_older_and_newer_by_key(staff, tables, monkeypatch):
    """No cap of 200 and no OFFSET: "older" from the newest page reaches every incident once, a
    report made meanwhile changes nothing there, and "newer" leads back."""
    monkeypatch.setattr("dealing.views.incidents.PAGE_SIZE", 2)
    made = [reported(staff, tables, card=card) for card in ("KH", "QS", "JD", "TC", "9H")]
    inspector = client_as(staff.inspector)
    seen, params = [], {"status": "reported"}
    while True:
        response = inspector.get(reverse("dealing:incident_list"), params)
        seen += [i.pk for i in response.context["incidents"]]
        page = response.context["page"]
        if not page.older:
            break
        assert "older=" in response.content.decode()
        reported(staff, tables, card="8S")  # reported between two page loads
        params = {"status": "reported", "older": page.older}
    assert seen == [i.pk for i in reversed(made)]
    back = inspector.get(reverse("dealing:incident_list"), {"status": "reported", "newer": page.newer})
    assert [i.pk for i in back.context["incidents"]] == [made[2].pk, made[1].pk]


def _pdf_text(body: bytes) -> str:
    import io

    from pypdf import PdfReader

    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages).replace("\n", " ")


def test_an_incidents_file_as_pdf_with_its_record_procedure_and_decisions(staff, tables):
    """Issue #35, exports: an incident's file (PDF) holds the record, its departure from the procedure
    and the pit boss's decision; it is the incident list's door: the pits' staff and auditors read it,
    a pit boss of another pit gets 404, a trainee 403, anyone signed out the login page."""
    incident = reported(staff, tables, note="Сдал себе открытую карту.", evidence="CAM-4 21:14:07")
    services.incident_decide(incident=incident, decided_by=staff.pitboss, decision="approved", comment="Burned.")
    url = reverse("dealing:incident_file", kwargs={"pk": incident.pk})
    response = client_as(staff.auditor).get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f"incident-{incident.pk}-R-1-" in response["Content-Disposition"]
    text = _pdf_text(response.content)
    assert f"Инцидент {incident.pk}" in text and "R-1" in text
    assert "Сдал себе открытую карту." in text and "CAM-4 21:14:07" in text
    assert "pitboss1" in text and "Burned." in text and "inspector1" in text

    for user, code in [
        (staff.pitboss2, 200),
        (staff.inspector, 200),
        (staff.dealer, 200),  # the dealer of the incident reads his own record
        (staff.pitboss_c, 404),
        (staff.trainee, 403),
    ]:
        assert client_as(user).get(url).status_code == code, user
    assert Client().get(url).status_code == 302
    listing = client_as(staff.pitboss).get(reverse("dealing:table_incidents", kwargs={"name": "R-1"})).content.decode()
    assert url in listing
