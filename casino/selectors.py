"""Reads of the floor."""

from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from dealing import engine

from . import house_rules
from .models import Pit, SecurityEvent, Table
from .roles import PIT_BOSS, has_role, user_pits
from .scope import restrict


def table_list(*, user, filters: dict | None = None) -> QuerySet:
    """Tables in the pits the user may see, optionally narrowed by `TableFilter` fields."""
    from .filters import TableFilter

    tables = restrict(Table.objects.select_related("pit"), user)
    filterset = TableFilter(filters or {}, tables)
    if not filterset.is_valid():
        raise ValidationError({name: errors.as_data() for name, errors in filterset.errors.items()})
    return filterset.qs


@dataclass
class TableView:
    """A table as the floor page shows it: the model plus the rules the engine says are in force."""

    table: Table
    rules_in_force: dict | None  # None while the engine cannot read this variant
    rules_error: str = ""

    @property
    def box_numbers(self) -> range:
        return range(1, self.table.boxes + 1)


@dataclass
class PitView:
    pit: Pit
    tables: list[TableView] = field(default_factory=list)


def floor_overview(*, user) -> list[PitView]:
    """Every pit the user may see with its tables, open ones first, and their rules in force."""
    tables = Table.objects.order_by("-is_active", "name")
    pits = user_pits(user).prefetch_related(Prefetch("tables", queryset=tables))
    return [PitView(pit=pit, tables=[_table_view(t) for t in pit.tables.all()]) for pit in pits]


def _table_view(table: Table) -> TableView:
    try:
        return TableView(table, house_rules.in_force(table.variant, table.rules))
    except house_rules.VariantUnavailable:
        return TableView(table, None)
    except engine.RoundError as exc:
        # Stored rules the engine now rejects (its options changed): show why instead of failing.
        return TableView(table, None, exc.message)


def readiness_report(*, detailed: bool = True) -> dict:
    """Each dependency of a web process, for `GET /readyz`: the database, the broker, the checkpoint
    directory.

    Only the database is vital: without it nothing is logged, so `status` is "unavailable" and the
    view answers 503. A broker down or a checkpoint directory that cannot be written leaves rounds
    being logged — the audits wait for the sweep, the checkpoints for the next attempt — so the
    status is "degraded" and a load balancer keeps the process in service.

    `detailed` adds what each check found (the database's vendor, the broker's address without its
    password, the directory, the error of a failed check); otherwise only whether each is ok: a failed
    connection's error names the host, port and database, which is no business of an anonymous probe."""
    checks = {"database": _database_health(), "broker": _broker_health(), "checkpoints": checkpoint_dir_health()}
    if not checks["database"]["ok"]:
        status = "unavailable"
    elif all(check["ok"] for check in checks.values()):
        status = "ok"
    else:
        status = "degraded"
    if not detailed:
        checks = {name: {"ok": check["ok"]} for name, check in checks.items()}
    return {"status": status, **checks}


def checkpoint_dir_health() -> dict:
    """Whether a file can be created in CHECKPOINT_DIR now — what the next signed checkpoint needs.
    Created and removed at once; the directory itself is created as the checkpoint log would."""
    import tempfile
    from pathlib import Path

    directory = Path(settings.CHECKPOINT_DIR)
    report = {"ok": False, "path": str(directory)}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".readyz-"):
            pass
    except OSError as exc:
        report["error"] = f"{type(exc).__name__}: {exc}"
    else:
        report["ok"] = True
    return report


def _database_health() -> dict:
    from django.db import connection

    report = {"ok": False, "vendor": connection.vendor}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure to talk to the database is what this reports
        report["error"] = f"{type(exc).__name__}: {exc}"
    else:
        report["ok"] = True
    return report


def _broker_health() -> dict:
    from django.conf import settings
    from kombu import Connection

    from .config import redact_url

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "url": None, "mode": "eager"}
    report = {"ok": False, "url": redact_url(settings.CELERY_BROKER_URL), "mode": "broker"}
    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as exc:  # any failure to reach the broker is what this reports
        report["error"] = f"{type(exc).__name__}: {exc}"
    else:
        report["ok"] = True
    return report


# --- lockouts and the security log (issue 18) ------------------------------------------------


def locked_out_usernames(*, user) -> list[str]:
    """The usernames locked out now (axes) that `user` may unlock: an admin any; a pit boss those
    of the staff of his pits; anyone else none."""
    from axes.models import AccessAttempt

    if not has_role(user, PIT_BOSS):
        return []
    attempts = AccessAttempt.objects.filter(failures_since_start__gte=settings.AXES_FAILURE_LIMIT)
    if settings.AXES_COOLOFF_TIME:
        attempts = attempts.filter(attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME)
    if not user.is_superuser:
        staff = get_user_model().objects.filter(staff__pits__in=user_pits(user)).values("username")
        attempts = attempts.filter(username__in=staff)
    return sorted(set(attempts.exclude(username=None).exclude(username="").values_list("username", flat=True)))


def security_event_list(*, filters: dict | None = None) -> QuerySet:
    """The security log, newest first; `filters`: kind, user (part of a username), since / until
    (dates, inclusive)."""
    filters = filters or {}
    events = SecurityEvent.objects.all()
    if filters.get("kind"):
        events = events.filter(kind=filters["kind"])
    if filters.get("user"):
        events = events.filter(username__icontains=filters["user"])
    if filters.get("since"):
        events = events.filter(at__date__gte=filters["since"])
    if filters.get("until"):
        events = events.filter(at__date__lte=filters["until"])
    return events
