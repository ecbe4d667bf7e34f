"""The dashboard's rounds not audited yet (issue 17, issue 33): a counter per day, table and dealer
(PendingRollup) kept in the transaction that writes or clears each pending audit row — the same
rounds as the pending audit rows, within the period, in force and in the user's scope — and the
dashboard reads those few rows, not the pending audit rows."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit import pending_rollup, rollups
from audit.dashboard import audit_backlog_count
from audit.services.rounds import rounds_audit
from casino.scope import scope_q
from dealing import hooks
from dealing.choices import AuditStatus
from dealing.models import Round, audit_status_q, in_force_q
from tests.factories import audit_pending, superseded

pytestmark = pytest.mark.django_db


def _dashboard_pending(user) -> int:
    client = Client()
    client.force_login(user)
    return client.get(reverse("audit:dashboard")).context["d"]["pending"]


def _direct(user) -> int:
    """The rounds of the last 30 days a user sees that are in force and whose audit status is pending."""
    since = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=29)
    return Round.objects.filter(
        scope_q(Round, user), audit_status_q(AuditStatus.PENDING), in_force_q(), played_at__gte=since
    ).count()


def test_the_dashboard_counts_the_rounds_still_to_audit_in_its_period_and_scope(people, floor, log_rounds, eager):
    pit_a = [r for r, _sim in log_rounds(floor.table_a, people.dealer, n=6, seed=61)]
    pit_b = [r for r, _sim in log_rounds(floor.table_b, people.other_dealer, n=3, seed=62)]
    assert _dashboard_pending(people.auditor) == 0
    audit_pending([r.pk for r in pit_a[:4]] + [pit_b[0].pk])
    # Not counted: a round dealt before the period, and a round superseded by a correction.
    Round.objects.filter(pk=pit_a[0].pk).update(played_at=timezone.now() - timedelta(days=40))
    superseded(pit_a[1], by=pit_a[5], decided_by=people.pit_boss)
    # The factories write behind the services' back: the counters are what a rebuild gives.
    pending_rollup.pending_rebuild()

    assert _dashboard_pending(people.auditor) == _direct(people.auditor) == 3
    assert _dashboard_pending(people.pit_boss) == _direct(people.pit_boss) == 2  # pit A only


def test_the_counter_follows_every_round_written_and_audited(people, floor, log_rounds, monkeypatch):
    """No factory: rounds logged through the services while no audit runs (their commit announced to
    nobody) raise the counter in their own transaction; auditing them lowers it; it always equals the
    pending audit rows of the rounds in force, and the dashboard reads it without a pending row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with hooks.rounds_unannounced():  # nothing audits on commit
        pit_a = [r.pk for r, _sim in log_rounds(floor.table_a, people.dealer, n=5, seed=71)]
        pit_b = [r.pk for r, _sim in log_rounds(floor.table_b, people.other_dealer, n=2, seed=72)]
    assert audit_backlog_count() == 7
    assert _dashboard_pending(people.auditor) == _direct(people.auditor) == 7
    assert _dashboard_pending(people.pit_boss) == _direct(people.pit_boss) == 5
    assert rollups.differences() == []

    rounds_audit(round_ids=pit_a[:3] + pit_b[:1])
    assert audit_backlog_count() == 3
    assert _dashboard_pending(people.auditor) == _direct(people.auditor) == 3
    assert _dashboard_pending(people.pit_boss) == _direct(people.pit_boss) == 2
    rounds_audit(round_ids=pit_a[:3])  # audited again: nothing more to lower
    assert audit_backlog_count() == 3 and rollups.differences() == []

    with CaptureQueriesContext(connection) as queries:
        _dashboard_pending(people.auditor)
    assert not [q["sql"] for q in queries.captured_queries if "dealing_roundaudit" in q["sql"]]
    rounds_audit(round_ids=pit_a + pit_b)
    assert audit_backlog_count() == 0 == _dashboard_pending(people.auditor)
