"""Findings written in bulk (an audit chunk's rounds: bulk_create, no post_save) reach the live
floor as one event per batch and pit, naming the tables whose tiles changed; not one per finding."""

import pytest

from audit import services as audit_services
from audit import subscribers as audit_subscribers
from audit.models import Finding
from casino.roles import PIT_BOSS
from live.models import LiveEvent
from tests.audit.conftest import log_rounds, people  # noqa: F401
from tests.live.streams import live_events, read_stream

pytestmark = pytest.mark.django_db(transaction=True)


def newest() -> int:
    return LiveEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def findings_after(cursor):
    return list(LiveEvent.objects.filter(kind="finding", pk__gt=cursor).order_by("pk"))


@pytest.fixture
def logged(people, floor, log_rounds, monkeypatch):  # noqa: F811
    """Rounds with wrong payouts at a table of each pit, logged but not yet audited (no worker).
    Their audits are not queued: without a broker, tasks run in-process and would audit them now."""
    monkeypatch.setattr(audit_subscribers, "queue_round_audits", lambda round_ids: None)
    a = log_rounds(floor.table_a, people.dealer, n=5, seed=3, mistake_rate=1.0, kinds=["wrong_amount"])
    b = log_rounds(floor.table_b, people.other_dealer, n=3, seed=4, mistake_rate=1.0, kinds=["wrong_amount"])
    assert not Finding.objects.exists()
    return [r.pk for r, _sim in a + b]


def test_a_batch_is_one_event_per_pit_naming_its_tables(logged, floor, settings):
    settings.LIVE_REDIS_URL = ""
    cursor = newest()
    audit_services.rounds_audit(round_ids=logged)
    per_table = {t: Finding.objects.filter(table=t).count() for t in (floor.table_a, floor.table_b)}
    assert per_table[floor.table_a] >= 5 and per_table[floor.table_b] >= 3
    events = findings_after(cursor)
    assert [(e.pit_id, e.table_id, e.payload) for e in events] == [
        (floor.pit_a.pk, None, {"bulk": True, "tables": [floor.table_a.pk], "findings": per_table[floor.table_a]}),
        (floor.pit_b.pk, None, {"bulk": True, "tables": [floor.table_b.pk], "findings": per_table[floor.table_b]}),
    ]
    # Audited again, the same findings: nothing written, nothing told.
    cursor = newest()
    audit_services.rounds_audit(round_ids=logged)
    assert findings_after(cursor) == []


def test_the_pit_boss_hears_of_his_pits_batch_at_once(logged, make_user, floor, settings):
    settings.LIVE_REDIS_URL = ""
    boss_a = make_user(PIT_BOSS, pits=[floor.pit_a])
    cursor = newest()
    code, blocks = read_stream(
        boss_a,
        query=f"?after={cursor}",
        during=lambda: audit_services.rounds_audit(round_ids=logged),
        wait_for=99,
        timeout=4,
    )
    # Read for a while: his notifications of the critical findings come on the same stream.
    found = [e for e in live_events(blocks) if e["kind"] == "finding"]
    assert code == 200 and [(e["pit"], e["data"]["tables"]) for e in found] == [(floor.pit_a.pk, [floor.table_a.pk])]
