"""The sweep every worker runs (audit/sweep.py): rounds left pending past the grace period are
audited from what PostgreSQL says, whatever the broker lost. In-process here; with a real worker
and a purged Redis queue in test_worker.py."""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from audit import services, sweep
from dealing.choices import AuditStatus
from dealing.models import Round
from tests.factories import audit_pending, awaiting_pit_boss


@pytest.mark.django_db
def test_the_sweep_audits_the_rounds_pending_past_the_grace_period_and_only_those(eager, floor, people, log_rounds):
    rows = log_rounds(floor.table_a, people.dealer, n=5, seed=9, mistake_rate=0.5)
    logged = [record for record, _sim in rows]
    verdicts = dict(Round.objects.filter(pk__in=[r.pk for r in logged]).values_list("pk", "audit_status"))
    now = timezone.now()
    # Their messages lost: pending, logged 2 minutes, 2 hours, 10 seconds ago; one a correction
    # awaiting its pit boss (not in force, so not audited).
    ages = {logged[0].pk: 120, logged[1].pk: 7200, logged[2].pk: 10, logged[3].pk: 120, logged[4].pk: 90}
    for pk, seconds in ages.items():
        Round.objects.filter(pk=pk).update(logged_at=now - timedelta(seconds=seconds))
    audit_pending(list(ages))
    awaiting_pit_boss(logged[3], corrects=logged[2])

    assert services.rounds_overdue_audit(grace=timedelta(seconds=60)) == 3
    after = dict(Round.objects.filter(pk__in=ages).values_list("pk", "audit_status"))
    for record in (logged[0], logged[1], logged[4]):
        assert after[record.pk] == verdicts[record.pk] != AuditStatus.PENDING  # the verdict of its own audit
    assert after[logged[2].pk] == AuditStatus.PENDING  # its message may still be on its way
    assert after[logged[3].pk] == AuditStatus.PENDING
    assert services.rounds_overdue_audit(grace=timedelta(seconds=60)) == 0


@pytest.mark.django_db
def test_a_sweep_audits_at_most_its_limit_oldest_first(eager, floor, people, log_rounds, monkeypatch):
    logged = [record for record, _sim in log_rounds(floor.table_a, people.dealer, n=5, seed=3)]
    Round.objects.filter(pk__in=[r.pk for r in logged]).update(logged_at=timezone.now() - timedelta(minutes=5))
    audit_pending([r.pk for r in logged])
    monkeypatch.setattr(services.rounds, "SWEEP_BATCH", 2)
    assert services.rounds_overdue_audit(grace=timedelta(seconds=60), limit=3) == 3
    pending = list(Round.objects.filter(audit_status=AuditStatus.PENDING).order_by("pk").values_list("pk", flat=True))
    assert pending == [r.pk for r in logged[3:]]
    assert services.rounds_overdue_audit(grace=timedelta(seconds=60), limit=3) == 2


def test_the_sweeper_runs_at_once_and_then_every_interval_until_stopped():
    calls = []
    twice = threading.Event()

    def count():
        calls.append(1)
        if len(calls) == 2:
            twice.set()
        if len(calls) == 1:
            raise RuntimeError("the database is away")  # logged; the next pass comes all the same

    sweeper = sweep.Sweeper(count, interval=0.05)
    sweeper.start()
    assert twice.wait(5)
    sweeper.stop()
    made = len(calls)
    assert not sweeper._thread.is_alive()
    threading.Event().wait(0.2)
    assert len(calls) == made


def test_a_worker_starts_its_sweeper_unless_the_interval_is_0(settings, monkeypatch):
    started = []
    monkeypatch.setattr(sweep.Sweeper, "start", lambda self: started.append(self))
    monkeypatch.setattr(sweep.Sweeper, "stop", lambda self, timeout=10: started.remove(self))
    settings.AUDIT_SWEEP_INTERVAL_S = 0
    sweep.on_worker_ready()
    assert started == []
    settings.AUDIT_SWEEP_INTERVAL_S = 30
    sweep.on_worker_ready()
    sweep.on_worker_ready()  # once per process
    assert len(started) == 1 and started[0]._interval == 30
    sweep.on_worker_shutdown()
    assert started == [] and not sweep.sweeper_running()
