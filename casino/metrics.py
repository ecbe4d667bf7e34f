"""The Prometheus exposition at `/metrics`: django-prometheus's request metrics plus the figures of
the floor that apps register here, read at scrape time.

The floor is the bottom layer and cannot read rounds or audits itself, so an app above it registers
a collector (`register`) from its AppConfig.ready(); each scrape calls every collector afresh, so the
figures come from PostgreSQL and Redis, not from counters of one process among many.

Behind gunicorn with several workers set PROMETHEUS_MULTIPROC_DIR (deploy/gunicorn.conf.py): the
request metrics of every worker are then merged (prometheus_client's multiprocess mode); without it
each scrape sees the one worker that answered.
"""

import hmac
import ipaddress
import os

from django.conf import settings
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST

# The project's own figures, kept apart from the default registry so that multiprocess mode (which
# reads the workers' files instead of that registry) still reports them.
project_registry = CollectorRegistry(auto_describe=True)
_registered: set[str] = set()


def register(name: str, collector) -> None:
    """Adds a scrape-time collector once, whatever the number of calls (a test settings reload)."""
    if name not in _registered:
        project_registry.register(collector)
        _registered.add(name)


def exposition() -> bytes:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        base = CollectorRegistry()
        multiprocess.MultiProcessCollector(base)
    else:
        base = REGISTRY
    return generate_latest(base) + generate_latest(project_registry)


def may_scrape(request) -> bool:
    """From loopback without a proxy in between (a proxy on the same host would make every caller
    loopback: a forwarded request is not), or with `Authorization: Bearer <METRICS_TOKEN>`."""
    token = settings.METRICS_TOKEN
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if token and header.startswith("Bearer "):
        return hmac.compare_digest(header.removeprefix("Bearer ").strip().encode(), token.encode())
    if "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_FORWARDED" in request.META:
        return False
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False
