"""The whole record in the keyed chain (issue #36, items 1 and 2): incidents, shoe events, verdicts,
findings, reviews, shifts, float events, halt overrides, the security log and staff identity.

On a small populated floor each relation is tampered with by raw SQL — a column UPDATEd, a row
DELETEd, a forged row INSERTed, two dealers' usernames swapped — and `chain_verify` names the
relation, the stored table and the link; the scheduled checkpoint finds it in one run, signs it
into the log (so the dashboard shows it) and announces it through `hooks.chain_broken`. An
untouched floor, and one changed only through the services (an incident decided, a finding
reviewed, a shift closed, a user renamed), verifies without a false alarm. PostgreSQL only."""

from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection

from audit import services as audit_services
from audit.models import Finding, Review
from books import services as books_services
from books.models import FloatEvent, TableShift
from casino import services as casino_services
from casino.models import SecurityEvent
from dealing import checkpoint_log, hooks, services
from dealing.chain_selectors import chain_health
from dealing.models import ChainCheck, Incident, IncidentAttachment, RecordLink, RoundAudit, ShoeEvent
from dealing.services import record_links
from dealing.tasks import chain_checkpoint

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _postgresql_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("the tamper battery runs on PostgreSQL (the production database; .ci/run sets DATABASE_URL)")


def _sql(statement, params=()):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


class Floor:
    """One table's shoe with a burn, four rounds (one paid wrong: findings, one reviewed), an
    incident decided, a shift opened, signed, with a fill requested and approved, a security event;
    a checkpoint signs it all."""

    def __init__(self, staff, tables, logged):
        self.staff = staff
        table = tables.ochko
        shoe = services.shoe_start(table=table, shuffled_by=staff.dealer)
        self.burn = services.shoe_burn(shoe=shoe, card="KH", reason="paid", fee=Decimal(5), recorded_by=staff.dealer)
        rounds = [logged(table, staff.dealer, seed=k) for k in range(3)]
        rounds.append(logged(table, staff.dealer2, seed=7, mistake="wrong_amount"))
        for record in rounds:
            audit_services.round_audit(round_id=record.pk)
        self.rounds = rounds
        self.finding = Finding.objects.filter(round=rounds[-1]).order_by("pk").first()
        assert self.finding is not None, "the wrong payment was not found by the audit"
        audit_services.finding_review(
            finding_ids=[self.finding.pk], auditor=staff.auditor, status="confirmed", classification="dealer_error"
        )
        self.incident = services.incident_report(
            table=table,
            kind="dealer_card_exposed",
            card="7S",
            exposed=True,
            resolution="burned",
            dealer=staff.dealer,
            reported_by=staff.inspector,
        )
        services.incident_decide(incident=self.incident, decided_by=staff.pitboss, decision="approved")
        self.photo = services.incident_attach(
            incident=self.incident,
            added_by=staff.inspector,
            upload=SimpleUploadedFile("cam.png", b"\x89PNG\r\n\x1a\n" + bytes(32), "image/png"),
        )
        services.incident_classify(
            incident=self.incident,
            reviewed_by=staff.pitboss,
            classification="dealer_error",
            money_direction="saved",
            money="200",
            reason="Burned at once.",
        )
        self.review = services.incident_sign_off(incident=self.incident, signed_by=staff.auditor)
        self.shift = books_services.shift_open(table=table, counted_by=staff.dealer, counts={"100": 20})
        self.shift = books_services.shift_open_sign(shift=self.shift, signed_by=staff.pitboss)
        self.fill = books_services.transfer_request(
            shift=self.shift, kind="fill", counts={"100": 5}, requested_by=staff.dealer
        )
        self.fill = books_services.transfer_approve(event=self.fill, approved_by=staff.pitboss)
        self.security = casino_services.security_event_record(kind="login", user=staff.dealer, address="10.0.0.1")
        check = services.checkpoint_write_all()
        assert check.ok and not check.breaks, check.message
        report = services.chain_verify()
        assert report.breaks == [], [str(b) for b in report.breaks]


@pytest.fixture
def floor(staff, tables, logged):
    return Floor(staff, tables, logged)


@pytest.fixture
def announced():
    heard: list[list[str]] = []
    hooks.subscribe_chain_broken(heard.append)
    yield heard
    hooks.unsubscribe_chain_broken(heard.append)


def _copy_row(model, pk, **changes):
    """INSERT a forged copy of a row (a new id), with some columns changed."""
    table = model._meta.db_table
    columns = [f.column for f in model._meta.concrete_fields if not f.primary_key]
    values = [f"%s AS {c}" if c in changes else c for c in columns]
    _sql(
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} FROM {table} WHERE id = %s",
        [*[changes[c] for c in columns if c in changes], pk],
    )


# (kind, relation the break names, tampering) — each on a fresh floor.
TAMPERINGS = {
    "incident status": ("dealing_incident", lambda f: _sql("UPDATE dealing_incident SET status='reported' WHERE id=%s", [f.incident.pk])),
    "incident note": ("dealing_incident", lambda f: _sql("UPDATE dealing_incident SET note='nothing seen' WHERE id=%s", [f.incident.pk])),
    "incident deleted": ("dealing_incident", lambda f: (
        _sql("DELETE FROM dealing_approval WHERE incident_id=%s", [f.incident.pk]),
        _sql("DELETE FROM dealing_incidentreview WHERE incident_id=%s", [f.incident.pk]),
        _sql("DELETE FROM dealing_incidentattachment WHERE incident_id=%s", [f.incident.pk]),
        _sql("DELETE FROM dealing_incident WHERE id=%s", [f.incident.pk]),
    )),
    "incident forged": ("dealing_incident", lambda f: _copy_row(Incident, f.incident.pk, card="AS")),
    "incident review money": ("dealing_incidentreview", lambda f: _sql(
        "UPDATE dealing_incidentreview SET money=0 WHERE id=%s", [f.review.pk])),
    "incident second reviewer struck": ("dealing_incidentreview", lambda f: _sql(
        "UPDATE dealing_incidentreview SET second_by_id=NULL, second_at=NULL WHERE id=%s", [f.review.pk])),
    "attachment hash": ("dealing_incidentattachment", lambda f: _sql(
        "UPDATE dealing_incidentattachment SET sha256=repeat('0', 64) WHERE id=%s", [f.photo.pk])),
    "attachment forged": ("dealing_incidentattachment", lambda f: _copy_row(
        IncidentAttachment, f.photo.pk, name="forged.png")),
    "burn fee": ("dealing_shoeevent", lambda f: _sql("UPDATE dealing_shoeevent SET fee=0 WHERE id=%s", [f.burn.pk])),
    "burn deleted": ("dealing_shoeevent", lambda f: _sql("DELETE FROM dealing_shoeevent WHERE id=%s", [f.burn.pk])),
    "burn forged": ("dealing_shoeevent", lambda f: _copy_row(ShoeEvent, f.burn.pk, position=99)),
    "verdict set to clean": ("dealing_roundaudit", lambda f: _sql(
        "UPDATE dealing_roundaudit SET status='clean' WHERE round_id=%s", [f.rounds[-1].pk])),
    "verdict set back to pending": ("dealing_roundaudit", lambda f: _sql(
        "UPDATE dealing_roundaudit SET status='pending' WHERE round_id=%s", [f.rounds[-1].pk])),
    "verdict deleted": ("dealing_roundaudit", lambda f: _sql(
        "DELETE FROM dealing_roundaudit WHERE round_id=%s", [f.rounds[0].pk])),
    "finding deleted": ("audit_finding", lambda f: (
        _sql("UPDATE audit_review SET finding_id=NULL WHERE finding_id=%s", [f.finding.pk]),
        _sql("DELETE FROM audit_finding WHERE id=%s", [f.finding.pk]),
    )),
    "finding severity": ("audit_finding", lambda f: _sql("UPDATE audit_finding SET severity='info' WHERE id=%s", [f.finding.pk])),
    "finding review status": ("audit_finding", lambda f: _sql(
        "UPDATE audit_finding SET status='dismissed' WHERE id=%s", [f.finding.pk])),
    "finding forged": ("audit_finding", lambda f: _copy_row(Finding, f.finding.pk, fingerprint="forged")),
    "review decision": ("audit_review", lambda f: _sql("UPDATE audit_review SET status='dismissed'")),
    "review deleted": ("audit_review", lambda f: _sql("DELETE FROM audit_review")),
    "review forged": ("audit_review", lambda f: _copy_row(Review, Review.objects.get().pk, comment="fine")),
    "shift opening": ("books_tableshift", lambda f: _sql(
        "UPDATE books_tableshift SET opening_total=1000 WHERE id=%s", [f.shift.pk])),
    "shift forged": ("books_tableshift", lambda f: _copy_row(TableShift, f.shift.pk, status="closed")),
    "float event amount": ("books_floatevent", lambda f: _sql(
        "UPDATE books_floatevent SET amount=50 WHERE id=%s", [f.fill.pk])),
    "float event deleted": ("books_floatevent", lambda f: (
        _sql("DELETE FROM books_slip WHERE event_id=%s", [f.fill.pk]),  # its slip, or the row cannot go
        _sql("DELETE FROM books_floatevent WHERE id=%s", [f.fill.pk]),
    )),
    "float event forged": ("books_floatevent", lambda f: _copy_row(FloatEvent, f.fill.pk, amount=Decimal(900))),
    "slip renumbered": ("books_slip", lambda f: _sql(
        "UPDATE books_slip SET number = number + 1 WHERE event_id=%s", [f.fill.pk])),
    "slip void written in": ("books_slip", lambda f: _sql(
        "UPDATE books_slip SET void_reason='lost', void_requested_by_id=%s, void_requested_at=now() "
        "WHERE event_id=%s", [f.staff.pitboss.pk, f.fill.pk])),
    "slip print forged": ("books_slipprint", lambda f: _sql(
        "INSERT INTO books_slipprint (slip_id, printed_by_id, printed_at, reprint) "
        "SELECT id, %s, now(), false FROM books_slip WHERE event_id=%s", [f.staff.dealer.pk, f.fill.pk])),
    "slip counter wound back": ("books_slipcounter", lambda f: _sql(
        "UPDATE books_slipcounter SET last_number = last_number - 1 WHERE kind='fill'")),
    "security event kind": ("casino_securityevent", lambda f: _sql(
        "UPDATE casino_securityevent SET kind='logout' WHERE id=%s", [f.security.pk])),
    "security event deleted": ("casino_securityevent", lambda f: _sql("DELETE FROM casino_securityevent")),
    "security event forged": ("casino_securityevent", lambda f: _copy_row(SecurityEvent, f.security.pk, username="x")),
    "usernames swapped": ("auth_user", lambda f: (
        _sql("UPDATE auth_user SET username='swap-tmp' WHERE id=%s", [f.staff.dealer.pk]),
        _sql("UPDATE auth_user SET username='dealer1' WHERE id=%s", [f.staff.dealer2.pk]),
        _sql("UPDATE auth_user SET username='dealer2' WHERE id=%s", [f.staff.dealer.pk]),
    )),
    "halt override forged": ("dealing_haltoverride", lambda f: _sql(
        "INSERT INTO dealing_haltoverride (round_id, event, codes, overridden_by_id, reason, at) "
        "VALUES (%s, 3, 'WRONG_AMOUNT', %s, 'kept', now())", [f.rounds[-1].pk, f.staff.pitboss.pk])),
    "table_round renumbered": ("dealing_round", lambda f: _sql(
        "UPDATE dealing_round SET table_round = table_round + 10 WHERE id=%s", [f.rounds[1].pk])),
    "table_round swapped": ("dealing_round", lambda f: (
        _sql("UPDATE dealing_round SET table_round = 0 WHERE id=%s", [f.rounds[0].pk]),
        _sql("UPDATE dealing_round SET table_round = 1 WHERE id=%s", [f.rounds[1].pk]),
        _sql("UPDATE dealing_round SET table_round = 2 WHERE id=%s", [f.rounds[0].pk]),
    )),
    "record links rewritten": ("dealing_recordlink", lambda f: _sql(
        "UPDATE dealing_recordlink SET payload = payload || '{\"note\": \"x\"}' "
        "WHERE relation='dealing_incident' AND link=(SELECT MAX(link) FROM dealing_recordlink WHERE relation='dealing_incident')")),
    "newest record links deleted": ("dealing_recordlink", lambda f: _sql(
        "DELETE FROM dealing_recordlink WHERE relation='books_floatevent'")),
}  # fmt: skip


def test_every_newly_chained_relation_is_tampered_with():
    relations = {relation for relation, _ in TAMPERINGS.values()} - {"dealing_recordlink", "dealing_round"}
    chained = {r.name for r in record_links.relations()}
    assert relations == chained


@pytest.mark.parametrize("kind", sorted(TAMPERINGS))
def test_each_tampering_is_named_found_by_the_next_checkpoint_and_shown(
    kind, floor, announced, django_capture_on_commit_callbacks
):
    relation, tamper = TAMPERINGS[kind]
    tamper(floor)

    report = services.chain_verify()
    named = [b for b in report.breaks if relation in (b.relation, b.chain.removeprefix("records:"))]
    assert named, f"{kind}: not named as {relation}: {[str(b) for b in report.breaks]}"
    assert all(b.link is not None or b.row_id is not None for b in named)
    announced.clear()

    # The scheduled task (beat, every few minutes) finds it in one run, without the nightly walk…
    with pytest.raises(Exception) as failed, django_capture_on_commit_callbacks(execute=True):
        chain_checkpoint()
    assert relation in str(failed.value)
    # …signs it into the log, where no row an insider can rewrite hides it…
    signed, problem = checkpoint_log.latest()
    assert problem is None and not signed["verified"]["new"]["ok"]
    assert any(relation in text for text in signed["verified"]["new"]["breaks"])
    ChainCheck.objects.filter(ok=False).delete()
    ChainCheck.objects.create(kind=ChainCheck.Kind.VERIFICATION, ok=True, message="all fine")
    health = chain_health()
    assert any(relation in item["message"] for item in health["critical"] if item["what"] == "signed")
    # …and announces it to the subscribers at once.
    assert announced and any(relation in text for text in announced[0])


def test_an_untouched_floor_and_changes_through_the_services_raise_no_alarm(floor, announced):
    staff = floor.staff
    # A rename is a new fact of auth_user; the records keep the name the dealer had then.
    staff.dealer.username = "dealer1-renamed"
    staff.dealer.save()
    staff.dealer2.last_name = "Petrova"
    staff.dealer2.save()
    audit_services.finding_review(
        finding_ids=[floor.finding.pk],
        auditor=staff.auditor,
        status="dismissed",
        classification="no_error",
        comment="paid right after all",
    )
    books_services.transfer_receive(event=floor.fill, received_by=staff.dealer, counts={"100": 5})
    audit_services.round_audit(round_id=floor.rounds[0].pk)  # a re-audit
    casino_services.security_event_record(kind="logout", user=staff.dealer)
    assert chain_checkpoint().startswith("checkpoint")
    report = services.chain_verify()
    assert report.breaks == [], [str(b) for b in report.breaks]
    assert report.facts > 0
    assert announced == []
    assert not [item for item in chain_health()["critical"] if item["what"] in ("signed", "verification")]
    renames = RecordLink.objects.filter(relation="auth_user", row_id=staff.dealer.pk).order_by("link")
    assert [link.payload["username"] for link in renames] == ["dealer1", "dealer1-renamed"]
    burn = RecordLink.objects.filter(relation="dealing_shoeevent", row_id=floor.burn.pk).get()
    assert burn.payload["staff"]["recorded_by"] == "dealer1"  # the name he had when he recorded it


def test_rows_stored_before_their_relation_was_chained_are_linked_by_the_command(floor):
    RecordLink.objects.filter(relation="dealing_incident").delete()
    ChainCheck.objects.all().delete()
    for path in checkpoint_log.directory().glob("checkpoints-*.jsonl"):
        path.unlink()
    assert any("dealing_incident" in str(b) for b in services.chain_verify().breaks)
    call_command("link_records")
    assert RecordLink.objects.filter(relation="dealing_incident", row_id=floor.incident.pk).exists()
    assert services.chain_verify().breaks == []


def test_a_verdict_still_pending_needs_no_link(floor, logged, tables, staff):
    record = logged(tables.ochko, staff.dealer, seed=40)
    assert RoundAudit.objects.filter(round=record, status="pending").exists()
    assert not RecordLink.objects.filter(relation="dealing_roundaudit", row_id=record.pk).exists()
    assert services.chain_verify().breaks == []


def test_on_a_large_relation_each_checkpoint_compares_the_next_window_of_rows(floor, monkeypatch):
    """Past SCAN_ROWS rows a checkpoint compares a window of them, the next one each time (signed in
    the line): an old row edited is found within rows / SCAN_ROWS checkpoints, at a bounded cost."""
    monkeypatch.setattr(record_links, "SCAN_ROWS", 3)
    users = list(RecordLink.objects.filter(relation="auth_user").values_list("row_id", flat=True).distinct())
    assert len(users) > 6
    _sql("UPDATE auth_user SET first_name='Forged' WHERE id=%s", [max(users)])
    found_at = None
    for run in range(1, len(users) // 3 + 3):
        check = services.checkpoint_write_all()
        if check.breaks:
            found_at = run
            break
    assert found_at is not None and found_at <= len(users) // 3 + 1
    assert "auth_user" in check.breaks[0]["relation"]
    signed, _problem = checkpoint_log.latest()
    assert "records:auth_user" in signed["verified"]["scan"]
    # …and stays signed at the next checkpoint (its window is compared again), not cleared by moving on.
    assert services.checkpoint_write_all().breaks
    signed, _problem = checkpoint_log.latest()
    assert not signed["verified"]["new"]["ok"]
