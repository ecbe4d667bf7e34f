"""The nightly audit is scheduled with Celery beat, and every scheduled task exists."""

from django.conf import settings

from casino.celery import app


def test_the_beat_schedule_names_real_audit_tasks():
    app.loader.import_default_modules()
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["audit-nightly"]["task"] == "audit.tasks.audit_nightly"
    assert schedule["audit-overdue-rounds"]["task"] == "audit.tasks.audit_overdue_rounds"
    for entry in schedule.values():
        assert entry["task"] in app.tasks, entry["task"]
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert options["visibility_timeout"] > 0 and settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
