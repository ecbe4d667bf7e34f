"""The floor's figures for `/metrics` (casino/metrics.py), read when Prometheus scrapes: rounds
logged, the audit backlog, the sweep's repairs, the Celery queues' depth, the newest checkpoint's
age and the last verification of the chains, and the witness's state (reachable, failures, backlog).

Each figure is read on its own: one that cannot be read now (the database or the broker away) is
left out of this scrape and `casino_metrics_read_ok{figure=…}` says 0, rather than the scrape
failing — a scrape that fails shows nothing at all, which is no help during an outage.
"""

import logging
import time

from django.conf import settings
from django.core.cache import cache
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

log = logging.getLogger(__name__)

SWEEP_REPAIRS_KEY = "metrics:audit-sweep-repairs"


def count_sweep_repairs(rounds: int) -> None:
    """Adds `rounds` audited by a sweep (their message lost) to the count kept in the shared cache,
    so the web process that is scraped sees what every worker repaired."""
    if rounds <= 0:
        return
    try:
        cache.add(SWEEP_REPAIRS_KEY, 0, timeout=None)
        cache.incr(SWEEP_REPAIRS_KEY, rounds)
    except Exception:  # a cache away costs the metric, never the sweep
        log.warning("could not count %d rounds repaired by the sweep in the cache", rounds, exc_info=True)


def sweep_repairs() -> int:
    return int(cache.get(SWEEP_REPAIRS_KEY, 0))


def queue_depths() -> dict[str, int]:
    """Messages waiting in each Celery queue (Redis list lengths; the priority lists kombu keeps
    beside a queue counted in). Empty with eager tasks."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.CELERY_BROKER_URL.startswith("redis://"):
        return {}
    import redis

    # kombu's Redis transport: a queue's messages of priority p > 0 wait in "<queue>\x06\x16<p>".
    separator, steps = "\x06\x16", (0, 3, 6, 9)
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        depths = {}
        for queue in settings.CELERY_QUEUE_NAMES:
            keys = [queue] + [f"{queue}{separator}{step}" for step in steps if step]
            with client.pipeline() as pipe:
                for key in keys:
                    pipe.llen(key)
                depths[queue] = sum(pipe.execute())
        return depths
    finally:
        client.close()


class FloorCollector:
    """A prometheus_client custom collector; `collect` runs at every scrape."""

    def describe(self):
        return []  # no registration-time collect (it would query the database at start-up)

    def collect(self):
        from . import dashboard

        read_ok = GaugeMetricFamily(
            "casino_metrics_read_ok",
            "Whether the figure could be read at this scrape (1) or not (0).",
            labels=["figure"],
        )

        def read(figure, reader):
            try:
                value = reader()
            except Exception:  # reported as read_ok 0; the scrape goes on
                log.warning("metrics: could not read %s", figure, exc_info=True)
                read_ok.add_metric([figure], 0)
                return None
            read_ok.add_metric([figure], 1)
            return value

        rounds = read("rounds", dashboard.rounds_logged_count)
        if rounds is not None:
            yield CounterMetricFamily("casino_rounds_logged", "Rounds logged, all tables.", value=rounds)
        backlog = read("audit_backlog", dashboard.audit_backlog_count)
        if backlog is not None:
            yield GaugeMetricFamily("casino_audit_backlog", "Rounds in force waiting for their audit.", value=backlog)
        repairs = read("sweep_repairs", sweep_repairs)
        if repairs is not None:
            yield CounterMetricFamily(
                "casino_audit_sweep_repairs",
                "Rounds audited by the workers' sweep because their audit message never arrived (kept in the cache).",
                value=repairs,
            )
        depths = read("queues", queue_depths)
        if depths is not None:
            family = GaugeMetricFamily(
                "casino_celery_queue_length", "Messages waiting in a Celery queue.", labels=["queue"]
            )
            for queue, depth in sorted(depths.items()):
                family.add_metric([queue], depth)
            yield family
        chain = read("chain", dashboard.chain_figures)
        if chain is not None:
            newest = chain["checkpoint_at"]
            if newest is not None:
                yield GaugeMetricFamily(
                    "casino_checkpoint_age_seconds",
                    "Seconds since the newest signed checkpoint was written.",
                    value=max(0.0, time.time() - newest.timestamp()),
                )
            verification = chain["verification"]
            if verification is not None:
                yield GaugeMetricFamily(
                    "casino_chain_verification_ok",
                    "1 if the last verification of the chains passed, 0 if not.",
                    value=1 if verification.ok else 0,
                )
                yield GaugeMetricFamily(
                    "casino_chain_verification_timestamp_seconds",
                    "When the chains were last verified (Unix time).",
                    value=verification.at.timestamp(),
                )
        witness = read("witness", dashboard.witness_figures)
        if witness is not None:
            yield GaugeMetricFamily(
                "casino_witness_reachable",
                "1 if the witness answered the latest checkpoint, 0 if it was unreachable.",
                value=1 if witness["reachable"] else 0,
            )
            yield CounterMetricFamily(
                "casino_witness_failures",
                "Checkpoints the witness could not be reached for (each attempt counted).",
                value=witness["failures"],
            )
            yield GaugeMetricFamily(
                "casino_witness_backlog",
                "Checkpoints of the local log not yet countersigned by the witness.",
                value=witness["backlog"],
            )
            yield GaugeMetricFamily(
                "casino_witness_refused",
                "1 if the witness refused the latest checkpoint (the local log went backwards), else 0.",
                value=1 if witness["refused"] else 0,
            )
        yield read_ok
