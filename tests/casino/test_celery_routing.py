"""Celery's queues (casino/settings.py): each task goes to its queue, each has time limits, a worker
started without -Q serves every queue, and beat keeps its schedule in a configured file."""

from pathlib import Path

import pytest
from django.conf import settings

from casino.celery import app

ROUTES = {
    "audit.tasks.audit_round": "audit",
    "audit.tasks.audit_rounds": "audit",
    "audit.tasks.audit_shoe": "audit",
    "audit.tasks.audit_run_plan": "audit",
    "audit.tasks.audit_run_chunk": "audit",
    "audit.tasks.audit_nightly": "audit",
    "audit.tasks.audit_overdue_rounds": "audit",
    "audit.tasks.audit_resume_stalled": "audit",
    "audit.tasks.audit_chunks_expired": "audit",
    "dealing.tasks.chain_checkpoint": "audit",
    "dealing.tasks.chain_verify": "reports",
    "books.tasks.signals_scan_daily": "reports",
    "casino.ping": "notifications",
    "casino.tokens_purge_expired": "notifications",
    "notifications.tasks.send_emails": "notifications",
    "notifications.tasks.email_sweep": "notifications",
    "notifications.tasks.digest_daily": "notifications",
    "live.events_prune": "reports",
}


def queue_of(name: str) -> str:
    route = app.amqp.router.route({}, name)
    return route["queue"].name


def test_every_task_of_the_project_is_listed_here():
    app.loader.import_default_modules()  # autodiscovery, as a worker does at start
    ours = {name for name in app.tasks if not name.startswith("celery.")}
    assert ours == set(ROUTES)


@pytest.mark.parametrize("task, queue", sorted(ROUTES.items()))
def test_each_task_routes_to_its_queue(task, queue):
    assert queue_of(task) == queue


def test_a_task_sent_to_a_queue_of_its_own_keeps_it():
    # audit runs given a queue (`audit_rounds --queue bulk`) send their tasks there explicitly.
    route = app.amqp.router.route({"queue": "bulk"}, "audit.tasks.audit_run_chunk")
    assert route["queue"].name == "bulk"


def test_a_worker_without_q_serves_every_queue():
    assert {q.name for q in app.amqp.queues.consume_from.values()} >= {"audit", "reports", "notifications"}


def test_every_task_has_a_soft_and_a_hard_limit_and_the_long_ones_more():
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit
    for name in ("dealing.tasks.chain_verify", "books.tasks.signals_scan_daily", "audit.tasks.audit_nightly"):
        limits = settings.CELERY_TASK_ANNOTATIONS[name]
        assert app.conf.task_soft_time_limit < limits["soft_time_limit"] < limits["time_limit"]
        app.loader.import_default_modules()
        task = app.tasks[name]
        assert (task.soft_time_limit, task.time_limit) == (limits["soft_time_limit"], limits["time_limit"])
    # Redis hands a late-acknowledged task to another worker after the visibility timeout: it must
    # outlast every hard limit of an audit task.
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > app.conf.task_time_limit


def test_beat_keeps_its_schedule_under_the_project_not_tmp():
    path = Path(app.conf.beat_schedule_filename)
    # Under the project's var/ (wherever the checkout is, a CI clone in /tmp included), not the
    # system's temporary directory that a reboot empties.
    assert path.parent == Path(settings.BASE_DIR) / "var" / "celerybeat"


def test_beat_creates_the_directory_of_its_schedule_file(tmp_path):
    from casino.celery import Scheduler

    path = tmp_path / "var" / "celerybeat" / "schedule"
    scheduler = Scheduler(app=app, schedule_filename=str(path), lazy=False)
    try:
        assert path.parent.is_dir()
        assert "chain-checkpoint" in scheduler.schedule  # CELERY_BEAT_SCHEDULE's entries, kept there
    finally:
        scheduler.close()
