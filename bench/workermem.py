"""A Celery worker's peak memory auditing a bounded slice of a database of any size.

`worker_memory()` re-audits the rounds of the newest day (an audit run over that day and the
`tables` given, every round, `only_unaudited=False`) with `workers` fresh solo workers, and reads each worker's peak RSS
(VmHWM) at the end. With bench/clone.py's copies one day apart or more, the slice is the same
rounds (bench/scale.py: 6 of the 30 tables, about 20,000 rounds) in a database of 100,000 or of
10,000,000: what grows with the database, if
anything, shows as the difference.
"""

import time
import uuid

from django.db import transaction
from django.utils import timezone

from bench.audit import peak_rss_mb, wait_for_run, workers_running
from dealing.models import Round


def worker_memory(*, workers: int = 2, env: dict | None = None, day=None, tables=(), timeout: float = 3600) -> dict:
    from django.conf import settings

    from audit import services

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"note": "no broker: no worker to measure"}
    if day is None:
        newest = Round.objects.order_by("-played_at").values_list("played_at", flat=True).first()
        day = timezone.localdate(newest)
    queue = f"scale-mem-{uuid.uuid4().hex[:8]}"
    with workers_running(
        workers, queue, env={**(env or {}), "CONN_MAX_AGE": "600", "AUDIT_SWEEP_INTERVAL_S": "0"}
    ) as procs:
        baseline = [peak_rss_mb(proc.pid) for proc in procs]
        started = time.perf_counter()
        with transaction.atomic():
            run = services.audit_run_start(date_from=day, date_to=day, tables=tables, only_unaudited=False, queue=queue)
        run = wait_for_run(run.pk, timeout=timeout)
        seconds = time.perf_counter() - started
        rss = [peak_rss_mb(proc.pid) for proc in procs]
    return {
        "day": str(day),
        "tables": [t.name for t in tables],
        "rounds_in_database": Round.objects.count(),
        "rounds_audited": run.rounds_done,
        "status": run.status,
        "seconds": round(seconds, 1),
        "rounds_per_s": round(run.rounds_done / seconds) if seconds else None,
        "worker_peak_rss_mb_ready": baseline,
        "worker_peak_rss_mb": rss,
    }
