"""Issue #35: incidents held to the procedure — a round log's incident needs a real pit boss of the
table's pit, and an incident record out of seed 004's procedure is flagged."""

import pytest

from audit.models import Finding
from audit.services import rounds_audit
from dealing import services

pytestmark = pytest.mark.django_db


def _with_incident(deal, table, approved_by):
    doc = deal(table, seed=3, incidents=1.0)
    [incident] = [ev for ev in doc["events"] if ev["e"] == "incident"]
    incident["approved_by"] = approved_by
    return doc


@pytest.mark.parametrize(
    "approver, flagged",
    [
        ("pitboss1", False),  # a pit boss of Pit A, where R-1 stands
        ("nobody", True),  # a name alone
        ("inspector1", True),  # a real user, not a pit boss
        ("pitboss-c", True),  # a pit boss, of another pit
    ],
)
def test_a_round_logs_incident_needs_a_pit_boss_of_the_tables_pit(staff, tables, deal, approver, flagged):
    doc = _with_incident(deal, tables.ochko, approver)
    record, created = services.round_log(document=doc, logged_by=staff.dealer)
    assert created  # a dealer's mistake is stored with the round (round-format.md), never refused
    rounds_audit(round_ids=[record.pk])
    found = [(f.code, f.params.get("rule"), f.params.get("by")) for f in Finding.objects.filter(round=record)]
    unapproved = [f for f in found if f[0] == "INCIDENT_UNAPPROVED"]
    assert unapproved == ([("INCIDENT_UNAPPROVED", "not_pit_boss", approver)] if flagged else [])


def test_an_inactive_pit_boss_is_no_approver(staff, tables, deal):
    staff.pitboss2.is_active = False
    staff.pitboss2.save()
    record, _ = services.round_log(document=_with_incident(deal, tables.ochko, "pitboss2"), logged_by=staff.dealer)
    rounds_audit(round_ids=[record.pk])
    assert Finding.objects.filter(round=record, code="INCIDENT_UNAPPROVED").count() == 1
