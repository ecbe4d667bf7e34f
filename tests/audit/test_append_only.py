"""Append-only rounds (issue #16 item 1): auditing rounds writes no round or stake row — the
verdicts go to the rounds' audit rows in one INSERT … ON CONFLICT DO UPDATE per chunk — and a
round logged gets its pending audit row in its own transaction."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit import services
from dealing.choices import AuditStatus
from dealing.models import Round, RoundAudit
from tests.factories import audit_pending

pytestmark = pytest.mark.django_db


def _writes(queries, table):
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
        and table in q["sql"].split("(")[0].split(" SET ")[0]
    ]


def test_a_logged_round_has_its_pending_audit_row_from_its_own_transaction(people, floor, log_rounds):
    # Tasks are not run here (no `eager`, no broker in tests without one: queued for later).
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=2)
    row = RoundAudit.objects.get(round=record)
    assert row.status in (AuditStatus.PENDING, AuditStatus.CLEAN)  # clean when the audit already ran in-process


def test_auditing_a_chunk_writes_no_round_or_stake_row_and_one_statement_for_its_verdicts(
    eager, people, floor, log_rounds
):
    rows = log_rounds(floor.table_a, people.dealer, n=12, seed=7, mistake_rate=0.5)
    ids = [record.pk for record, _sim in rows]
    audit_pending(ids)
    with CaptureQueriesContext(connection) as captured:
        totals = services.rounds_audit(round_ids=ids)
    assert totals.rounds == 12 and totals.with_findings and totals.clean  # both verdicts in one chunk
    assert _writes(captured.captured_queries, 'dealing_round"') == []
    assert _writes(captured.captured_queries, "dealing_stake") == []
    verdicts = _writes(captured.captured_queries, "dealing_roundaudit")
    assert len(verdicts) == 1 and "ON CONFLICT" in verdicts[0].upper()
    statuses = dict(Round.objects.filter(pk__in=ids).values_list("pk", "audit_status"))
    assert statuses == {pk: totals.statuses[pk] for pk in ids} and AuditStatus.PENDING not in statuses.values()
