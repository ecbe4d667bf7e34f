"""Corrections: a new revision at the end of the chain awaits a pit boss; the old one stays in force
until he approves; four eyes."""

import pytest

from casino.errors import ServiceError
from dealing import chain, services
from dealing.choices import AuditStatus, Decision, RoundStatus
from dealing.models import Approval, Round
from tests.dealing.conftest import mutated
from tests.factories import StaffFactory, UserFactory

pytestmark = pytest.mark.django_db


def wrong_payout(table, deal):
    """A round with one wrong payout (the simulator's injected mistake) and its correction."""
    for seed in range(50):
        doc = deal(table, seed=seed, mistake="wrong_amount")
        fixed = deal(table, seed=seed)
        if doc["events"] != fixed["events"]:
            fixed["id"] = doc["id"]
            return doc, fixed
    raise AssertionError("no seed gave a wrong payout")


@pytest.fixture
def amended(staff, tables, deal):
    doc, fixed = wrong_payout(tables.ochko, deal)
    original, _ = services.round_log(document=doc, logged_by=staff.dealer)
    amendment = services.round_amend(
        round=original,
        document=fixed,
        amended_by=staff.dealer,
        reason="Box paid 200 instead of 300; the player was paid the difference.",
    )
    return original, amendment


def test_a_correction_is_a_new_pending_revision_at_the_end_of_the_chain(staff, tables, amended):
    original, amendment = amended
    original.refresh_from_db()
    assert original.status == RoundStatus.RECORDED
    assert amendment.status == RoundStatus.PENDING and amendment.revision == 2
    assert amendment.supersedes == original and amendment.uid == original.uid
    assert amendment.chain_index == original.chain_index + 1 and amendment.prev_sha256 == original.sha256
    assert amendment.sha256 == chain.round_hash(amendment)
    assert amendment.document["id"] == str(original.uid) and amendment.dealer == staff.dealer
    assert amendment.audit_status == AuditStatus.PENDING  # audited once approved


def test_approval_puts_the_correction_in_force(staff, amended):
    original, amendment = amended
    approval = services.round_amendment_decide(
        round=amendment, decided_by=staff.pitboss, decision=Decision.APPROVED, comment="Seen on camera."
    )
    original.refresh_from_db()
    amendment.refresh_from_db()
    assert (original.status, amendment.status) == (RoundStatus.SUPERSEDED, RoundStatus.RECORDED)
    assert amendment.audit_status in (AuditStatus.CLEAN, AuditStatus.PENDING)
    assert (approval.round, approval.decided_by, approval.decision) == (amendment, staff.pitboss, Decision.APPROVED)
    # The corrected round is now the one to correct; the superseded one is not.
    with pytest.raises(ServiceError) as err:
        services.round_amend(round=original, document=original.document, amended_by=staff.dealer, reason="again")
    assert err.value.status == 409 and err.value.extra["code"] == "not_in_force"


def test_rejection_leaves_the_round_as_it_was(staff, amended):
    original, amendment = amended
    with pytest.raises(ServiceError) as err:
        services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision=Decision.REJECTED)
    assert err.value.extra["code"] == "comment_required"
    services.round_amendment_decide(
        round=amendment, decided_by=staff.pitboss, decision=Decision.REJECTED, comment="The camera shows 200 was right."
    )
    original.refresh_from_db()
    amendment.refresh_from_db()
    assert (original.status, amendment.status) == (RoundStatus.RECORDED, RoundStatus.REJECTED)
    with pytest.raises(ServiceError) as err:
        services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision=Decision.APPROVED)
    assert err.value.status == 409 and err.value.extra["code"] == "not_pending"
    # A new correction may follow a rejected one; it takes the next revision number.
    doc = mutated(amendment.document)
    again = services.round_amend(round=original, document=doc, amended_by=staff.pitboss, reason="Second look.")
    assert again.revision == 3


def test_one_pending_correction_at_a_time_and_it_must_change_something(staff, amended):
    original, amendment = amended
    with pytest.raises(ServiceError) as err:
        services.round_amend(round=original, document=amendment.document, amended_by=staff.pitboss, reason="x")
    assert err.value.status == 409 and err.value.extra["code"] == "amendment_pending"
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision=Decision.REJECTED, comment="no")
    with pytest.raises(ServiceError) as err:
        services.round_amend(round=original, document=original.document, amended_by=staff.pitboss, reason="x")
    assert err.value.extra["code"] == "no_change"


def test_a_correction_keeps_the_rounds_id_table_and_needs_a_reason(staff, tables, deal):
    original, _ = services.round_log(document=deal(tables.ochko, seed=3), logged_by=staff.dealer)
    doc = deal(tables.ochko, seed=4)
    count = Round.objects.count()
    for document, reason, code in [
        (doc, "typo", "id_mismatch"),
        (mutated(doc, id=None), "", "reason_required"),
        (mutated(doc, id=None, table={"name": "R-9"}), "typo", "table_mismatch"),
        (mutated(doc, id=None, events=doc["events"] + [{"e": "nonsense"}]), "typo", "unknown_event"),
    ]:
        with pytest.raises(ServiceError) as err:
            services.round_amend(round=original, document=document, amended_by=staff.dealer, reason=reason)
        assert err.value.extra["code"] == code
    assert Round.objects.count() == count
    amendment = services.round_amend(
        round=original, document=mutated(doc, id=None), amended_by=staff.dealer, reason="wrong sheet"
    )
    assert amendment.document["id"] == str(original.uid)


@pytest.mark.parametrize(
    "who, allowed",
    [
        ("dealer", True),
        ("pitboss", True),
        ("admin", True),
        ("dealer2", False),
        ("inspector", False),
        ("auditor", False),
        ("trainee", False),
        ("pitboss_c", False),
    ],
)
def test_who_corrects_a_round(staff, tables, deal, who, allowed):
    original, _ = services.round_log(document=deal(tables.ochko, seed=5), logged_by=staff.dealer)
    doc = mutated(deal(tables.ochko, seed=6), id=None)
    if allowed:
        services.round_amend(round=original, document=doc, amended_by=getattr(staff, who), reason="fix")
    else:
        with pytest.raises(ServiceError) as err:
            services.round_amend(round=original, document=doc, amended_by=getattr(staff, who), reason="fix")
        assert err.value.status == 403
        assert Round.objects.count() == 1


def test_four_eyes_on_corrections(staff, pits, tables, deal):
    # A pit boss who also deals (both roles) dealt one round; he corrected another.
    boss = UserFactory(username="boss-dealer", role=["pit_boss", "dealer"])
    StaffFactory(user=boss, pits=[pits.a, pits.b])
    dealt_by_boss, _ = services.round_log(document=deal(tables.ochko, seed=7, dealer="boss-dealer"), logged_by=boss)
    own_round = services.round_amend(
        round=dealt_by_boss,
        document=mutated(deal(tables.ochko, seed=8), id=None),
        amended_by=staff.pitboss,
        reason="fix",
    )
    staff.pitboss = boss
    by_dealer, _ = services.round_log(document=deal(tables.ochko, seed=9), logged_by=staff.dealer)
    own_amendment = services.round_amend(
        round=by_dealer, document=mutated(deal(tables.ochko, seed=10), id=None), amended_by=staff.pitboss, reason="fix"
    )
    cases = [
        (own_round, staff.pitboss, "own_round"),  # a round he dealt
        (own_amendment, staff.pitboss, "own_amendment"),  # a correction he made
        (own_amendment, staff.dealer, "forbidden"),  # not a pit boss (the round's own dealer)
        (own_amendment, staff.inspector, "forbidden"),
        (own_amendment, staff.auditor, "forbidden"),
        (own_amendment, staff.pitboss_c, "forbidden"),  # another pit's boss
    ]
    for amendment, who, code in cases:
        with pytest.raises(ServiceError) as err:
            services.round_amendment_decide(round=amendment, decided_by=who, decision=Decision.APPROVED)
        assert err.value.status == 403 and err.value.extra["code"] == code, (who, code)
    assert not Approval.objects.exists()
    services.round_amendment_decide(round=own_round, decided_by=staff.pitboss2, decision=Decision.APPROVED)
    services.round_amendment_decide(round=own_amendment, decided_by=staff.pitboss2, decision=Decision.APPROVED)
    assert Approval.objects.count() == 2


def test_a_decision_is_approved_or_rejected(staff, amended):
    _, amendment = amended
    with pytest.raises(ServiceError) as err:
        services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="maybe")
    assert err.value.extra["code"] == "bad_decision"


def test_a_round_not_awaiting_a_decision_is_refused(staff, tables, deal):
    original, _ = services.round_log(document=deal(tables.ochko, seed=11), logged_by=staff.dealer)
    with pytest.raises(ServiceError) as err:
        services.round_amendment_decide(round=original, decided_by=staff.pitboss, decision=Decision.APPROVED)
    assert err.value.status == 409
