"""dealing announces the rounds it commits (dealing.hooks) and audit subscribes: dealing never
imports audit, and audit alone writes the audit's state on a round."""

import pytest
from django.db import transaction

from dealing import hooks, services
from dealing.choices import AuditStatus, Decision
from dealing.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced():
    """What the hook announces during the test: [(round ids, bulk)]."""
    seen = []

    def subscriber(round_ids, *, bulk):
        seen.append((list(round_ids), bulk))

    hooks.subscribe(subscriber)
    yield seen
    hooks.unsubscribe(subscriber)


def test_a_logged_round_is_announced_once_its_transaction_commits(
    staff, tables, deal, announced, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        record, _ = services.round_log(document=deal(tables.ochko, seed=1), logged_by=staff.dealer)
        assert announced == []  # not before the commit
    assert announced == [([record.pk], False)]


def test_a_rolled_back_round_is_never_announced(staff, tables, deal, announced, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            services.round_log(document=deal(tables.ochko, seed=2), logged_by=staff.dealer)
            raise RuntimeError("the caller's transaction fails after the round was written")
    assert announced == [] and not Round.objects.exists()


def test_a_pending_correction_is_announced_when_approved(
    staff, tables, deal, announced, django_capture_on_commit_callbacks
):
    doc, fixed = next(
        (wrong, right)
        for seed in range(50)
        for wrong, right in [(deal(tables.ochko, seed=seed, mistake="wrong_amount"), deal(tables.ochko, seed=seed))]
        if wrong["events"] != right["events"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        original, _ = services.round_log(document=doc, logged_by=staff.dealer)
        amendment = services.round_amend(
            round=original,
            document=dict(fixed, id=doc["id"]),
            amended_by=staff.dealer,
            reason="Box paid 200 instead of 300.",
        )
    assert announced == [([original.pk], False)]  # pending: not in force, not announced
    with django_capture_on_commit_callbacks(execute=True):
        services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision=Decision.APPROVED)
    assert announced == [([original.pk], False), ([amendment.pk], False)]


def test_rounds_recorded_in_a_batch_are_announced_together_once(
    staff, tables, deal, announced, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic(), hooks.rounds_batched():
            ids = [
                services.round_log(document=deal(tables.ochko, seed=seed), logged_by=staff.dealer)[0].pk
                for seed in (4, 5, 6)
            ]
    assert announced == [(ids, True)]


def test_audit_subscribes_and_records_its_verdict_itself(
    staff, tables, deal, eager, django_capture_on_commit_callbacks
):
    from audit import subscribers

    assert hooks.is_subscribed(subscribers.rounds_committed)
    with django_capture_on_commit_callbacks(execute=True):
        record, _ = services.round_log(document=deal(tables.ochko, seed=7), logged_by=staff.dealer)
    record.refresh_from_db()
    assert record.audit_status == AuditStatus.CLEAN and record.audited_at is not None
    assert not hasattr(services, "round_record_audit")  # the audit's state is audit's (audit.state)
