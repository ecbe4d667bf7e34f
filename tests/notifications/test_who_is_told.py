"""Each kind of notification reaches the people it concerns and nobody else: the pit bosses of the
table's pit (never the one who reported what awaits approval, never those of another pit), the
auditors, the admins, the user who started a run."""

import json
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from audit import services as audit_services
from books.choices import ShiftStatus
from books.models import IntegritySignal, TableShift
from dealing import services
from dealing.chain_models import ChainCheck
from notifications.kinds import Kind
from notifications.models import Notification
from tests.dealing.test_amend import wrong_payout
from tests.dealing.test_terminal import EVENTS, STAKES, WRONG

pytestmark = pytest.mark.django_db


def told(kind) -> set[str]:
    return set(Notification.objects.filter(kind=kind).values_list("recipient__username", flat=True))


def halt_at(client, table, round_id):
    url = reverse("dealing:terminal_next", kwargs={"name": table.name})
    body = {"id": round_id, "stakes": STAKES, "events": EVENTS + WRONG}
    answer = client.post(url, json.dumps(body), content_type="application/json").json()
    assert answer["halt"], "the wrong payment must halt the terminal"


def test_a_halt_tells_the_pit_bosses_of_the_pit_once(staff, tables, client, django_capture_on_commit_callbacks):
    client.force_login(staff.dealer)
    round_id = str(uuid.uuid4())
    with django_capture_on_commit_callbacks(execute=True):
        halt_at(client, tables.ochko, round_id)
        halt_at(client, tables.ochko, round_id)  # the terminal asks again: the same halt, told once
    assert told(Kind.HALT) == {"pitboss1", "pitboss2"}
    assert Notification.objects.filter(kind=Kind.HALT).count() == 2
    row = Notification.objects.get(kind=Kind.HALT, recipient=staff.pitboss)
    assert row.title == "HALT at table R-1" and "WRONG_AMOUNT" in row.text
    assert row.url == reverse("dealing:terminal", kwargs={"name": "R-1"})
    # Another round halting at the same table is another halt.
    with django_capture_on_commit_callbacks(execute=True):
        halt_at(client, tables.ochko, str(uuid.uuid4()))
    assert Notification.objects.filter(kind=Kind.HALT, recipient=staff.pitboss).count() == 2


def test_an_incident_awaiting_approval_never_goes_to_its_reporter(staff, tables, django_capture_on_commit_callbacks):
    values = dict(
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="kh",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.incident_report(reported_by=staff.inspector, **values)
    assert told(Kind.INCIDENT_APPROVAL) == {"pitboss1", "pitboss2"}
    Notification.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        services.incident_report(reported_by=staff.pitboss, **values)
    assert told(Kind.INCIDENT_APPROVAL) == {"pitboss2"}  # never a request to approve one's own report


def test_a_correction_awaiting_approval_never_goes_to_who_proposed_it(
    staff, tables, deal, eager, django_capture_on_commit_callbacks
):
    doc, fixed = wrong_payout(tables.ochko, deal)
    original, _ = services.round_log(document=doc, logged_by=staff.dealer)
    with django_capture_on_commit_callbacks(execute=True):
        amendment = services.round_amend(round=original, document=fixed, amended_by=staff.pitboss2, reason="Box 2.")
    assert told(Kind.CORRECTION_APPROVAL) == {"pitboss1"}
    row = Notification.objects.get(kind=Kind.CORRECTION_APPROVAL)
    assert row.url == reverse("dealing:amendment_decide", args=[amendment.pk])


def test_a_critical_finding_tells_the_auditors_and_the_pit_bosses_of_the_pit(
    staff, tables, deal, eager, django_capture_on_commit_callbacks
):
    doc, _ = wrong_payout(tables.ochko, deal)
    with django_capture_on_commit_callbacks(execute=True):
        record, _ = services.round_log(document=doc, logged_by=staff.dealer)
    assert record.findings.filter(severity="critical").exists()
    assert told(Kind.CRITICAL_FINDING) == {"auditor1", "pitboss1", "pitboss2"}
    # The audit of the same round again finds the same: nobody is told twice.
    before = Notification.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        audit_services.audit_run_start(started_by=staff.auditor, tables=[tables.ochko], only_unaudited=False)
    assert Notification.objects.filter(kind=Kind.CRITICAL_FINDING).count() == 3
    assert Notification.objects.count() >= before


def test_a_failed_chain_check_tells_the_auditors_and_the_admins(staff, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ChainCheck.objects.create(kind=ChainCheck.Kind.VERIFICATION, ok=True, records=10)
    assert told(Kind.CHAIN_FAILED) == set()  # a check that passed tells no one
    with django_capture_on_commit_callbacks(execute=True):
        ChainCheck.objects.create(kind=ChainCheck.Kind.CHECKPOINT, ok=False, message="disk full")
    assert told(Kind.CHAIN_FAILED) == {"auditor1", "admin1"}
    assert Notification.objects.filter(kind=Kind.CHAIN_FAILED).first().title == "A checkpoint could not be written"


def test_a_break_found_by_a_checkpoint_tells_the_auditors_and_the_admins_once(
    staff, django_capture_on_commit_callbacks
):
    """The checkpoint re-checks a broken window until it is repaired: the same breaks tell no one twice,
    a new break tells again."""
    from dealing import hooks

    breaks = ["records:dealing_incident: dealing_incident, link 3, row id 12: the row differs from its link"]
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            hooks.chain_broken(breaks)
    assert told(Kind.CHAIN_FAILED) == {"auditor1", "admin1"}
    assert Notification.objects.filter(kind=Kind.CHAIN_FAILED).count() == 2
    assert Notification.objects.filter(kind=Kind.CHAIN_FAILED).first().title == "The chains failed verification"
    with django_capture_on_commit_callbacks(execute=True):
        hooks.chain_broken([*breaks, "records:books_floatevent: books_floatevent, link 9: a link is missing"])
    assert Notification.objects.filter(kind=Kind.CHAIN_FAILED).count() == 4


def _closed_shift(staff, table, closing_total):
    shift = TableShift.objects.create(
        table=table, status=ShiftStatus.OPEN, dealer=staff.dealer, opening={"100": 10}, opening_total=Decimal("1000")
    )
    shift.closing, shift.closing_total, shift.closing_counted_by = {"100": 9}, closing_total, staff.pitboss
    shift.save(update_fields=["closing", "closing_total", "closing_counted_by"])
    shift.status, shift.closed_by = ShiftStatus.CLOSED, staff.pitboss2
    shift.save(update_fields=["status", "closed_by"])
    return shift


def test_a_shift_closed_with_a_variance_tells_the_pit_bosses_and_the_auditors(
    staff, tables, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _closed_shift(staff, tables.ochko_b, Decimal("1000"))  # balanced: nothing to tell
    assert told(Kind.SHIFT_VARIANCE) == set()
    with django_capture_on_commit_callbacks(execute=True):
        shift = _closed_shift(staff, tables.ochko, Decimal("900"))
    assert told(Kind.SHIFT_VARIANCE) == {"pitboss1", "pitboss2", "auditor1"}
    row = Notification.objects.filter(kind=Kind.SHIFT_VARIANCE).first()
    assert "-100" in row.title and row.url == reverse("books:shift_detail", args=[shift.pk])


def test_an_integrity_signal_tells_the_auditors(staff, tables, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        IntegritySignal.objects.create(
            kind="favoured_player",
            key="dealer1|P-23",
            dealer=staff.dealer,
            player="P-23",
            table=tables.ochko,
            period_start=date(2026, 1, 1),
            period_end=date(2026, 1, 31),
            statistic=4.2,
            p_value=0.0001,
            p_adjusted=0.001,
        )
    assert told(Kind.INTEGRITY_SIGNAL) == {"auditor1"}


def test_an_audit_run_finished_tells_who_started_it_and_the_auditors(
    staff, tables, deal, eager, django_capture_on_commit_callbacks
):
    services.round_log(document=deal(tables.ochko, seed=1), logged_by=staff.dealer)
    with django_capture_on_commit_callbacks(execute=True):
        run = audit_services.audit_run_start(started_by=staff.admin, tables=[tables.ochko], only_unaudited=False)
    run.refresh_from_db()
    assert run.status == "done"
    assert told(Kind.AUDIT_RUN_FINISHED) == {"admin1", "auditor1"}
    row = Notification.objects.get(kind=Kind.AUDIT_RUN_FINISHED, recipient=staff.admin)
    assert row.title == f"Audit run #{run.pk} finished"


def test_a_first_review_asks_a_second_reviewer_never_the_reporter_the_dealer_or_the_first_reviewer(
    staff, tables, django_capture_on_commit_callbacks
):
    from dealing.services.incident_reviews import incident_classify, incident_sign_off

    incident = services.incident_report(
        reported_by=staff.inspector,
        table=tables.ochko,
        kind="dealer_card_exposed",
        card="kh",
        exposed=True,
        resolution="burned",
        dealer=staff.dealer,
    )
    review = dict(classification="dealer_error", money_direction="saved", money="50", reason="Caught on camera.")
    with django_capture_on_commit_callbacks(execute=True):
        incident_classify(incident=incident, reviewed_by=staff.pitboss, **review)
    # Who may sign off: the other pit boss of the pit and the auditors; no one of another pit.
    assert told(Kind.REVIEW_SIGN_OFF) == {"pitboss2", "auditor1"}
    row = Notification.objects.get(kind=Kind.REVIEW_SIGN_OFF, recipient=staff.auditor)
    assert row.title == f"Incident {incident.pk} at table R-1 awaits a second reviewer"
    assert row.text == "pitboss1 classified it: dealer error. Another person signs it off."
    assert row.url == reverse("dealing:incident_detail", args=[incident.pk])
    # A re-classification before the sign-off tells no one twice; the sign-off tells no one.
    with django_capture_on_commit_callbacks(execute=True):
        incident_classify(incident=incident, reviewed_by=staff.pitboss, **{**review, "money": "60"})
        incident_sign_off(incident=incident, signed_by=staff.pitboss2)
    assert Notification.objects.filter(kind=Kind.REVIEW_SIGN_OFF).count() == 2
