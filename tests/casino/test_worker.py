"""Celery: tasks run eagerly in the embedded mode, and a real worker takes them from the broker."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from casino.tasks import ping

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not settings.CELERY_TASK_ALWAYS_EAGER, reason="CELERY_BROKER_URL is set: tasks go to the broker")
def test_without_a_broker_tasks_run_in_process():
    assert ping.delay().get(timeout=1) == "pong"


@pytest.mark.worker
@pytest.mark.skipif(settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)")
def test_a_real_worker_takes_a_task_from_the_broker():
    # A queue of this test's own, so no other worker on the same broker takes the task.
    queue = f"test-{uuid.uuid4().hex[:8]}"
    # The worker serves the broker only: its sweep of unaudited rounds (audit/sweep.py) is off, as the
    # database it would read is not this test's.
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="tests.settings", AUDIT_SWEEP_INTERVAL_S="0")
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "casino",
            "worker",
            "--pool=solo",
            "--loglevel=warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-Q",
            queue,
            "-n",
            f"{queue}@%h",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert ping.apply_async(queue=queue).get(timeout=60) == "pong"
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
    assert "Traceback" not in output, output
