"""audit/dispatch.py: the audits of rounds logged close together share one Celery message, none is
sent twice or lost while the process lives, and what waits is sent when the process exits."""

import base64
import json
import threading
import time

import pytest
from django.conf import settings

from audit import dispatch
from audit.tasks import audit_rounds
from dealing.choices import AuditStatus


class Recorder:
    """A `send` that records its batches; `fail` makes the next calls raise."""

    def __init__(self, fail: int = 0):
        self.batches: list[list[int]] = []
        self.fail = fail
        self.calls = 0
        self.sent = threading.Event()

    def __call__(self, ids):
        self.calls += 1
        if self.fail:
            self.fail -= 1
            raise ConnectionError("broker down")
        self.batches.append(list(ids))
        self.sent.set()

    @property
    def ids(self):
        return [i for batch in self.batches for i in batch]


def test_rounds_logged_close_together_share_one_message():
    sent = Recorder()
    d = dispatch.Dispatcher(sent, linger=0.2)
    for i in range(1, 6):
        d.add([i])
    assert sent.sent.wait(2)
    d.close()
    assert sent.batches == [[1, 2, 3, 4, 5]]


def test_a_lone_round_is_sent_after_the_linger_not_at_exit():
    sent = Recorder()
    d = dispatch.Dispatcher(sent, linger=0.01)
    d.add([7])
    assert sent.sent.wait(2), "a lone id waits for no one but the linger"
    assert sent.batches == [[7]]
    d.close()
    assert sent.batches == [[7]]


def test_a_full_batch_goes_at_once_and_the_rest_follows():
    sent = Recorder()
    d = dispatch.Dispatcher(sent, linger=60, batch_max=3)
    d.add([1, 2, 3, 4])
    assert sent.sent.wait(2), "a full batch does not wait for the linger"
    assert sent.batches == [[1, 2, 3]]
    d.close()
    assert sent.batches == [[1, 2, 3], [4]]


def test_every_id_from_many_threads_is_sent_exactly_once_in_each_threads_order():
    sent = Recorder()
    d = dispatch.Dispatcher(sent, linger=0.005, batch_max=50)

    def logger(start):
        for i in range(start, start + 500):
            d.add([i])

    threads = [threading.Thread(target=logger, args=(k * 1000,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    d.close()
    ids = sent.ids
    assert sorted(ids) == sorted(k * 1000 + i for k in range(8) for i in range(500))
    for k in range(8):
        mine = [i for i in ids if k * 1000 <= i < (k + 1) * 1000]
        assert mine == sorted(mine)
    assert len(sent.batches) < 4000 / 2, "ids arriving together share messages"
    assert all(len(b) <= 50 for b in sent.batches)


def test_a_failed_send_is_tried_again_and_nothing_is_sent_twice():
    sent = Recorder(fail=2)
    d = dispatch.Dispatcher(sent, linger=0.001, retry_max=0.05)
    d.add([1, 2])
    deadline = time.monotonic() + 10
    while not sent.batches and time.monotonic() < deadline:
        d.add([])  # nothing new: the thread retries by itself
        time.sleep(0.05)
    d.close()
    assert sent.calls >= 3
    assert sent.ids == [1, 2]


def test_exit_sends_what_waits_even_mid_linger():
    sent = Recorder()
    d = dispatch.Dispatcher(sent, linger=3600)
    d.add([1, 2, 3])
    started = time.monotonic()
    d.close()
    assert sent.ids == [1, 2, 3]
    assert time.monotonic() - started < 5


def test_a_broker_down_for_long_costs_the_oldest_ids_not_memory(caplog):
    sent = Recorder(fail=10**6)
    d = dispatch.Dispatcher(sent, linger=0.001, max_pending=100, retry_max=0.01)
    d.add(range(150))
    assert "nightly audit" in caplog.text
    sent.fail = 0
    d.close()
    assert sent.ids == list(range(50, 150))


@pytest.mark.django_db
def test_one_message_audits_all_its_rounds(eager, floor, people, log_rounds, settings):
    settings.AUDIT_QUEUE_LINGER_MS = 0  # logged one by one, audited here by the batch task
    from dealing.models import Round
    from tests.factories import audit_pending

    logged = log_rounds(floor.table_a, people.dealer, n=4, seed=3, mistake_rate=0.5)
    audit_pending(Round.objects.all())
    ids = [record.pk for record, _ in logged]
    counts = audit_rounds.apply(args=[ids + [10**9]]).get()
    statuses = dict(Round.objects.filter(pk__in=ids).values_list("pk", "audit_status"))
    assert AuditStatus.PENDING not in statuses.values()
    assert sum(counts.values()) == 4
    assert counts == {s: list(statuses.values()).count(s) for s in set(statuses.values())}
    from audit.models import Finding

    assert any(sim.mistake for _, sim in logged) and not all(sim.mistake for _, sim in logged)
    for record, sim in logged:
        assert statuses[record.pk] == (AuditStatus.FINDINGS if sim.mistake else AuditStatus.CLEAN)
        codes = set(Finding.objects.filter(round=record).values_list("code", flat=True))
        assert (sim.code in codes) if sim.mistake else not codes


@pytest.mark.django_db
@pytest.mark.skipif(settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)")
def test_rounds_logged_reach_the_broker_as_one_audit_message(floor, people, log_rounds, monkeypatch):
    """CI: three rounds logged in quick succession become one `audit_rounds` message in Redis."""
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    before = client.llen("audit")  # audit.tasks.* route to the "audit" queue
    d = dispatch.Dispatcher(dispatch.send_round_audits, linger=3600)
    monkeypatch.setattr(dispatch, "process_dispatcher", lambda: d)
    logged = log_rounds(floor.table_a, people.dealer, n=3, seed=5)
    d.close()
    ids = [record.pk for record, _ in logged]
    found = []
    # Messages are pushed at the head: those sent since `before` (an earlier run may have left
    # messages about rounds with the same ids further down).
    for raw in client.lrange("audit", 0, client.llen("audit") - before - 1):
        message = json.loads(raw)
        if message["headers"]["task"] != "audit.tasks.audit_rounds":
            continue
        args = json.loads(base64.b64decode(message["body"]))[0]
        if set(args[0]) & set(ids):
            found.append(args[0])
    assert found == [ids]


def test_flush_sends_what_the_process_holds_at_once(monkeypatch, settings):
    dispatch.flush()
    sent = Recorder()
    monkeypatch.setattr(dispatch, "send_round_audits", sent)
    monkeypatch.setattr(dispatch, "batched", lambda: True)
    settings.AUDIT_QUEUE_LINGER_MS = 3_600_000
    dispatch.queue_round_audits([4, 5])
    dispatch.queue_round_audits([6])
    assert sent.batches == []
    dispatch.flush()
    assert sent.batches == [[4, 5, 6]]


@pytest.mark.django_db
def test_rounds_whose_audit_never_arrived_are_queued_again_once(eager, floor, people, log_rounds):
    """The sweep every 5 minutes takes the rounds logged 10–16 minutes ago and still pending (their
    message lost with a killed web process); older ones are the nightly run's, newer ones may still
    be on their way, and corrections awaiting a pit boss are not in force."""
    from datetime import timedelta

    from django.utils import timezone

    from audit.tasks import audit_overdue_rounds
    from dealing.models import Round
    from tests.factories import audit_pending, awaiting_pit_boss

    logged = [record for record, _ in log_rounds(floor.table_a, people.dealer, n=4, seed=9)]
    now = timezone.now()
    ages = {logged[0].pk: 12, logged[1].pk: 30, logged[2].pk: 1, logged[3].pk: 12}
    for pk, minutes in ages.items():
        Round.objects.filter(pk=pk).update(logged_at=now - timedelta(minutes=minutes))
    audit_pending(list(ages))
    awaiting_pit_boss(logged[3], corrects=logged[2])
    assert audit_overdue_rounds.apply().get() == 1
    statuses = dict(Round.objects.filter(pk__in=ages).values_list("pk", "audit_status"))
    assert statuses[logged[0].pk] == AuditStatus.CLEAN
    assert [statuses[r.pk] for r in logged[1:]] == [AuditStatus.PENDING] * 3
    assert audit_overdue_rounds.apply().get() == 0
