"""The floor's figures at `/metrics` (audit/metrics.py), read at scrape time from the database,
the cache and the broker."""

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from audit import metrics
from dealing.choices import Decision
from dealing.engine.simulators import simulate
from dealing.models import ChainCheck, Round, in_force_q
from dealing.services import round_amend, round_amendment_decide, round_log
from tests.audit.conftest import sim_doc

pytestmark = pytest.mark.django_db


def scrape(client) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def test_rounds_backlog_checkpoint_and_verification(client, people, floor):
    before = scrape(client)
    # Logged outside on_commit (the test's transaction never commits): their audits are never
    # queued, so all three wait — the backlog.
    for sim in simulate("ochko", 3, seed=5, table_min=floor.table_a.min_bet, table_max=floor.table_a.max_bet):
        round_log(document=sim_doc(sim, table=floor.table_a, dealer=people.dealer), logged_by=people.dealer)
    ChainCheck.objects.create(kind=ChainCheck.Kind.CHECKPOINT, ok=True, at=timezone.now() - timedelta(seconds=120))
    ChainCheck.objects.create(kind=ChainCheck.Kind.CHECKPOINT, ok=False, at=timezone.now())  # not written
    ChainCheck.objects.create(kind=ChainCheck.Kind.VERIFICATION, ok=False, at=timezone.now())
    figures = scrape(client)
    assert figures[("casino_rounds_logged_total", ())] == before[("casino_rounds_logged_total", ())] + 3
    assert figures[("casino_audit_backlog", ())] == before[("casino_audit_backlog", ())] + 3
    # The newest checkpoint *written*: the failed attempt after it does not make it younger.
    assert 119 <= figures[("casino_checkpoint_age_seconds", ())] < 180
    assert figures[("casino_chain_verification_ok", ())] == 0
    assert figures[("casino_metrics_read_ok", (("figure", "rounds"),))] == 1


def test_rounds_logged_counts_each_round_in_force_once_audited_or_not(
    client, eager, people, floor, log_rounds, django_capture_on_commit_callbacks
):
    """The count is read from the day counters (audited + waiting), never a COUNT(*) of the rounds,
    so it must agree with the rounds themselves: once audited a round moves from the backlog to the
    audited counter and is still counted once; an approved correction replaces its round."""
    before = scrape(client)
    rows = log_rounds(floor.table_a, people.dealer, n=5, seed=7)
    after = scrape(client)
    assert after[("casino_rounds_logged_total", ())] == before[("casino_rounds_logged_total", ())] + 5
    assert after[("casino_audit_backlog", ())] == before[("casino_audit_backlog", ())]  # all audited
    original = rows[0][0]
    fixed = sim_doc(
        next(iter(simulate("ochko", 1, seed=99, table_min=floor.table_a.min_bet, table_max=floor.table_a.max_bet))),
        table=floor.table_a,
        dealer=people.dealer,
    )
    fixed["id"] = str(original.uid)
    amendment = round_amend(round=original, document=fixed, amended_by=people.dealer, reason="Another round's log.")
    with django_capture_on_commit_callbacks(execute=True):
        round_amendment_decide(
            round=amendment, decided_by=people.pit_boss, decision=Decision.APPROVED, comment="Seen on camera."
        )
    final = scrape(client)
    assert final[("casino_rounds_logged_total", ())] == after[("casino_rounds_logged_total", ())]
    assert final[("casino_rounds_logged_total", ())] == Round.objects.filter(in_force_q()).count()


def test_no_checkpoint_and_no_verification_yet_are_left_out(client):
    figures = scrape(client)
    names = {name for name, _labels in figures}
    assert "casino_checkpoint_age_seconds" not in names and "casino_chain_verification_ok" not in names
    assert "casino_rounds_logged_total" in names


def test_sweep_repairs_are_counted_in_the_shared_cache(client):
    before = scrape(client)[("casino_audit_sweep_repairs_total", ())]
    metrics.count_sweep_repairs(5)
    metrics.count_sweep_repairs(0)
    assert scrape(client)[("casino_audit_sweep_repairs_total", ())] == before + 5


def test_queue_depth_is_the_length_of_each_queue(client, settings):
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert not [name for name, _labels in scrape(client) if name == "casino_celery_queue_length"]
        return
    import redis

    queue = f"test-metrics-{uuid.uuid4().hex[:8]}"
    settings.CELERY_QUEUE_NAMES = [queue]
    r = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        r.lpush(queue, "a", "b")
        r.lpush(f"{queue}\x06\x163", "c")  # a message of priority 3 waits in a list of its own
        assert scrape(client)[("casino_celery_queue_length", (("queue", queue),))] == 3
    finally:
        r.delete(queue, f"{queue}\x06\x163")


def test_a_broker_down_leaves_the_queues_out_not_the_scrape(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    figures = scrape(client)
    assert figures[("casino_metrics_read_ok", (("figure", "queues"),))] == 0
    assert ("casino_audit_backlog", ()) in figures


def test_request_latency_by_view_is_exported(client):
    client.get("/healthz")
    names = {name for name, _labels in scrape(client)}
    assert "django_http_requests_latency_seconds_by_view_method_count" in names
