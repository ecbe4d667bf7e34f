"""Reads of the floor."""

import json
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from dealing import engine

from . import house_rules
from .models import Pit, SecurityEvent, Staff, Table
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


# --- the second factor (issue 37, item 7) ----------------------------------------------------


def totp_device_confirmed(*, user):
    """The user's enrolled authenticator (a confirmed TOTP device), or None."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("pk").first()


def totp_device_pending(*, user):
    """The authenticator the user is enrolling (not confirmed yet), or None."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    return TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()


# --- the history of changes to the floor and its people (issue 35, item 5) --------------------

CHANGE_KINDS = ("pit", "table", "staff", "user")
# The fields each kind's history shows, in this order (the rest are bookkeeping: ids, history's own).
CHANGE_FIELDS = {
    "pit": ("name", "description"),
    "table": ("name", "pit", "variant", "min_bet", "max_bet", "boxes", "chips", "rules", "is_active"),
    "staff": ("user", "badge", "pits"),
    "user": ("username", "first_name", "last_name", "email", "is_active", "is_staff", "is_superuser", "groups"),
}


@dataclass
class Change:
    """One recorded change: when, by whom, to what, and each field that changed (before, after)."""

    at: object
    by: str
    kind: str
    action: str  # "+" created, "~" changed, "-" deleted (django-simple-history's history_type)
    subject: str
    # (field name, its label in the reader's language, before, after)
    fields: list[tuple[str, str, str, str]] = field(default_factory=list)


def _history_models() -> dict:
    return {
        "pit": Pit.history.model,
        "table": Table.history.model,
        "staff": Staff.history.model,
        "user": get_user_model().history.model,
    }


def _tracked_models() -> dict:
    return {"pit": Pit, "table": Table, "staff": Staff, "user": get_user_model()}


def change_field_label(kind: str, name: str) -> str:
    return str(_tracked_models()[kind]._meta.get_field(name).verbose_name)


def _shown(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def _snapshot(kind: str, record, names: dict) -> dict[str, str]:
    """The record's fields as text, foreign keys and memberships by name."""
    values = {}
    for name in CHANGE_FIELDS[kind]:
        if kind == "table" and name == "pit":
            values[name] = names["pit"].get(record.pit_id, f"#{record.pit_id}")
        elif kind == "staff" and name == "user":
            values[name] = names["user"].get(record.user_id, f"#{record.user_id}")
        elif name == "pits":
            values[name] = ", ".join(
                sorted(names["pit"].get(row.pit_id, f"#{row.pit_id}") for row in record.pits.all())
            )
        elif name == "groups":
            values[name] = ", ".join(sorted(names["group"].get(row.group_id, "") for row in record.groups.all()))
        else:
            values[name] = _shown(getattr(record, name))
    return values


def _subject(kind: str, record, names: dict) -> str:
    if kind == "staff":
        return names["user"].get(record.user_id, f"#{record.user_id}")
    return record.username if kind == "user" else record.name


def change_list(*, filters: dict | None = None, offset: int = 0, limit: int = 50) -> list[Change]:
    """Changes to pits, tables, staff and users, newest first, narrowed by `filters` (kind, since,
    until: dates in the casino's time zone, both included); `limit` of them after `offset`."""
    from django.contrib.auth.models import Group

    filters = filters or {}
    kinds = [filters["kind"]] if filters.get("kind") else list(CHANGE_KINDS)
    since, until = filters.get("since"), filters.get("until")
    records = []
    for kind in kinds:
        rows = _history_models()[kind].objects.select_related("history_user")
        if since:
            rows = rows.filter(history_date__date__gte=since)
        if until:
            rows = rows.filter(history_date__date__lte=until)
        records += [(kind, row) for row in rows.order_by("-history_date", "-history_id")[: offset + limit]]
    records.sort(key=lambda entry: (entry[1].history_date, entry[1].history_id), reverse=True)
    page = records[offset : offset + limit]
    names = {
        "pit": dict(Pit.objects.values_list("pk", "name")),
        "user": dict(get_user_model().objects.values_list("pk", "username")),
        "group": dict(Group.objects.values_list("pk", "name")),
    }
    changes = []
    for kind, record in page:
        after = _snapshot(kind, record, names)
        previous = record.prev_record if record.history_type != "+" else None
        before = _snapshot(kind, previous, names) if previous is not None else {}
        if record.history_type == "-":
            before, after = after, {}
        fields = [
            (name, change_field_label(kind, name), before.get(name, ""), after.get(name, ""))
            for name in CHANGE_FIELDS[kind]
            if before.get(name, "") != after.get(name, "")
        ]
        user = record.history_user
        changes.append(
            Change(
                at=record.history_date,
                by=user.get_username() if user is not None else "",
                kind=kind,
                action=record.history_type,
                subject=_subject(kind, record, names),
                fields=fields,
            )
        )
    return changes
