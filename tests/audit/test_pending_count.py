"""The dashboard's rounds not audited yet (issue 17): read from their pending audit rows, not by an
anti-join of every round of the period — the same rounds, within the period, in force and in the
user's scope."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.scope import scope_q
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

    assert _dashboard_pending(people.auditor) == _direct(people.auditor) == 3
    assert _dashboard_pending(people.pit_boss) == _direct(people.pit_boss) == 2  # pit A only
