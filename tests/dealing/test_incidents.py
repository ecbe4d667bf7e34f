"""Incidents: an inspector or pit boss reports, a pit boss of the table's pit decides — four eyes."""

import pytest

from casino.errors import ServiceError
from dealing import selectors, services
from dealing.choices import Decision, IncidentStatus
from dealing.models import Approval, Incident
from tests.factories import StaffFactory, UserFactory

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
        evidence="CAM-3 21:14:05",
    )
    values.update(fields)
    return services.incident_report(**values)


def test_an_inspector_reports_an_incident(staff, tables, logged):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    record = logged(tables.ochko, staff.dealer, seed=1)
    incident = _report(staff, tables, round=record, note="  Card flashed on the deal.  ")
    assert (incident.card, incident.status, incident.shoe, incident.round) == (
        "KH",
        IncidentStatus.REPORTED,
        shoe,
        record,
    )
    assert incident.note == "Card flashed on the deal."
    placed = _report(staff, tables, kind="misdrawn_card", resolution="to_box", to_box=3, reported_by=staff.pitboss)
    assert placed.to_box == 3


@pytest.mark.parametrize(
    "who, allowed",
    [
        ("inspector", True),
        ("pitboss", True),
        ("admin", True),
        ("dealer", False),
        ("auditor", False),
        ("trainee", False),
        ("inspector_c", False),
        ("nobody", False),
    ],
)
def test_who_reports(staff, tables, who, allowed):
    if allowed:
        _report(staff, tables, reported_by=getattr(staff, who))
    else:
        with pytest.raises(ServiceError) as err:
            _report(staff, tables, reported_by=getattr(staff, who))
        assert err.value.status == 403
        assert not Incident.objects.exists()


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"kind": "card_eaten"}, "bad_kind"),
        ({"card": "ZZ"}, "bad_card"),
        ({"card": "5H"}, "card_not_in_pack"),
        ({"resolution": "lost"}, "bad_resolution"),
        ({"resolution": "to_box"}, "bad_box"),
        ({"resolution": "to_box", "to_box": 7}, "bad_box"),
        ({"to_box": 2}, "bad_box"),
        ({"exposed": "yes"}, "bad_exposed"),
        ({"evidence": "x" * 121}, "too_long"),
        ({"note": "nul \x00"}, "bad_text"),
    ],
)
def test_a_bad_report_is_refused_and_stores_nothing(staff, tables, fields, code):
    with pytest.raises(ServiceError) as err:
        _report(staff, tables, **fields)
    assert err.value.extra["code"] == code
    assert not Incident.objects.exists()


def test_the_dealer_round_and_shoe_belong_to_the_table(staff, tables, logged):
    elsewhere_round = logged(tables.ochko_b, staff.dealer, seed=2)
    other_shoe = services.shoe_start(table=tables.ochko_b, shuffled_by=staff.dealer)
    for fields, code in [
        ({"dealer": staff.dealer_c}, "unknown_dealer"),
        ({"dealer": staff.inspector}, "unknown_dealer"),
        ({"round": elsewhere_round}, "round_mismatch"),
        ({"shoe": other_shoe}, "shoe_mismatch"),
    ]:
        with pytest.raises(ServiceError) as err:
            _report(staff, tables, **fields)
        assert err.value.extra["code"] == code


def test_a_pit_boss_approves_or_rejects_once(staff, tables):
    incident = _report(staff, tables)
    approval = services.incident_decide(
        incident=incident, decided_by=staff.pitboss, decision=Decision.APPROVED, comment="Burned in my presence."
    )
    incident.refresh_from_db()
    assert incident.status == IncidentStatus.APPROVED
    assert (approval.incident, approval.decided_by, approval.comment) == (
        incident,
        staff.pitboss,
        "Burned in my presence.",
    )
    with pytest.raises(ServiceError) as err:
        services.incident_decide(incident=incident, decided_by=staff.pitboss2, decision=Decision.REJECTED, comment="no")
    assert err.value.status == 409 and err.value.extra["code"] == "already_decided"
    rejected = _report(staff, tables)
    with pytest.raises(ServiceError) as err:
        services.incident_decide(incident=rejected, decided_by=staff.pitboss, decision=Decision.REJECTED)
    assert err.value.extra["code"] == "comment_required"
    services.incident_decide(
        incident=rejected, decided_by=staff.pitboss, decision=Decision.REJECTED, comment="The clip shows no exposure."
    )
    rejected.refresh_from_db()
    assert rejected.status == IncidentStatus.REJECTED
    assert Approval.objects.count() == 2


def test_four_eyes_on_incidents(staff, pits, tables, logged):
    boss = UserFactory(username="boss-dealer", role=["pit_boss", "dealer"])
    StaffFactory(user=boss, pits=[pits.a])
    own_report = _report(staff, tables, reported_by=staff.pitboss)
    dealt_by_him = _report(staff, tables, dealer=boss)
    record = logged(tables.ochko, boss, seed=3)  # boss dealt the round; the incident names another dealer
    at_his_round = _report(staff, tables, round=record)
    for incident, who, code in [
        (own_report, staff.pitboss, "own_report"),
        (dealt_by_him, boss, "own_round"),
        (at_his_round, boss, "own_round"),
        (own_report, staff.inspector, "forbidden"),
        (own_report, staff.dealer, "forbidden"),
        (own_report, staff.auditor, "forbidden"),
        (own_report, staff.pitboss_c, "forbidden"),
    ]:
        with pytest.raises(ServiceError) as err:
            services.incident_decide(incident=incident, decided_by=who, decision=Decision.APPROVED)
        assert err.value.status == 403 and err.value.extra["code"] == code, (who, code)
    assert not Approval.objects.exists()
    services.incident_decide(incident=own_report, decided_by=staff.pitboss2, decision=Decision.APPROVED)
    services.incident_decide(incident=dealt_by_him, decided_by=staff.pitboss, decision=Decision.APPROVED)


def test_the_pit_boss_queue_leaves_out_what_he_may_not_decide(staff, tables):
    mine = _report(staff, tables, reported_by=staff.pitboss)
    theirs = _report(staff, tables)
    _report(staff, tables, table=tables.elsewhere, dealer=staff.dealer_c, reported_by=staff.inspector_c)
    assert list(selectors.pending_incidents(user=staff.pitboss)) == [theirs]
    assert list(selectors.pending_incidents(user=staff.pitboss2)) == [mine, theirs]
    assert not selectors.pending_incidents(user=staff.inspector).exists()
