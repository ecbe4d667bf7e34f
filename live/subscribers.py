"""What the live pit listens to, so that no app below it names it: dealing's hooks (rounds logged,
the terminal's round in progress), audit's run progress, and the post_save of the records a pit
boss or an auditor watches. Each becomes one stored event (services.event_record)."""

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models.signals import post_save

from audit.models import AuditRun, Finding
from audit.signals import findings_written as audit_findings_written
from audit.signals import run_progressed
from books.models import FloatEvent, IntegritySignal, TableShift
from casino import signals
from casino.models import Table
from dealing import hooks
from dealing.models import Approval, HaltOverride, Incident, Round

from . import services


def rounds_logged(round_ids: list[int], *, bulk: bool) -> None:
    """One event per table of the rounds now in force (a bulk load: one per table, not per round)."""
    by_table: dict[int, dict] = {}
    for pk, table_id, pit_id, dealer in _logged_rows(round_ids):
        entry = by_table.setdefault(table_id, {"pit": pit_id, "rounds": 0})
        entry.update(last=pk, dealer=dealer)
        entry["rounds"] += 1
    for table_id, entry in by_table.items():
        services.event_record(
            "rounds_logged",
            pit_id=entry["pit"],
            table_id=table_id,
            payload={"rounds": entry["rounds"], "last": entry["last"], "dealer": entry["dealer"]},
        )


_CHUNK = 500  # ids a statement: far below any database's limit on bound parameters


def _logged_rows(round_ids: list[int]):
    """(id, table, pit, dealer's username) of each round, by id. In SQL of its own: the ORM's
    building of this query was a sixth of a logged round's CPU, run once for every round."""
    rounds, tables, users = Round._meta, Table._meta, get_user_model()._meta
    ids = sorted(round_ids)
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT r.id, r.table_id, t.pit_id, u.{users.get_field('username').column} "
                f"FROM {rounds.db_table} r JOIN {tables.db_table} t ON t.id = r.table_id "
                f"LEFT JOIN {users.db_table} u ON u.id = r.dealer_id "
                f"WHERE r.id IN ({', '.join(['%s'] * len(chunk))}) ORDER BY r.id",
                chunk,
            )
            yield from cursor.fetchall()


def table_progress(*, table, dealer, doc, followed) -> None:
    services.table_progress_record(table=table, dealer=dealer, doc=doc, followed=followed)


def _of_table(kind: str, table_id: int | None, payload: dict) -> None:
    pit_id = Table.objects.filter(pk=table_id).values_list("pit_id", flat=True).first() if table_id else None
    services.event_record(kind, pit_id=pit_id, table_id=table_id, payload=payload)


def incident_saved(sender, instance: Incident, created: bool, **kwargs) -> None:
    _of_table("incident", instance.table_id, {"id": instance.pk, "status": instance.status, "created": created})


def approval_saved(sender, instance: Approval, created: bool, **kwargs) -> None:
    if not created:
        return
    if instance.incident_id:
        table_id = Incident.objects.filter(pk=instance.incident_id).values_list("table_id", flat=True).first()
    else:
        table_id = Round.objects.order_by().filter(pk=instance.round_id).values_list("table_id", flat=True).first()
    _of_table("approval", table_id, {"id": instance.pk, "decision": instance.decision})


def halt_override_saved(sender, instance: HaltOverride, created: bool, **kwargs) -> None:
    if created:
        table_id = Round.objects.order_by().filter(pk=instance.round_id).values_list("table_id", flat=True).first()
        _of_table("halt_override", table_id, {"id": instance.pk})


def finding_saved(sender, instance: Finding, created: bool, **kwargs) -> None:
    _of_table("finding", instance.table_id, {"id": instance.pk, "status": instance.status, "code": instance.code})


def shift_saved(sender, instance: TableShift, created: bool, **kwargs) -> None:
    _of_table("shift", instance.table_id, {"id": instance.pk, "status": instance.status})


def float_event_saved(sender, instance: FloatEvent, created: bool, **kwargs) -> None:
    if created:
        table_id = TableShift.objects.filter(pk=instance.shift_id).values_list("table_id", flat=True).first()
        _of_table("float", table_id, {"id": instance.pk, "kind": instance.kind})


def signal_saved(sender, instance: IntegritySignal, created: bool, **kwargs) -> None:
    _of_table("integrity_signal", instance.table_id, {"id": instance.pk, "kind": instance.kind})


def findings_written(sender, tables: dict[int, int], **kwargs) -> None:
    """A batch of findings written in bulk (an audit chunk, a shoe): one event per pit it touched
    (a stream hears only of its pits), naming the tables whose tiles to re-read."""
    by_pit: dict[int, list[int]] = {}
    for table_id, pit_id in Table.objects.filter(pk__in=list(tables)).values_list("pk", "pit_id"):
        by_pit.setdefault(pit_id, []).append(table_id)
    for pit_id, ids in sorted(by_pit.items()):
        payload = {"bulk": True, "tables": sorted(ids), "findings": sum(tables[t] for t in ids)}
        services.event_record("finding", pit_id=pit_id, payload=payload)


def audit_run_saved(sender, instance: AuditRun, **kwargs) -> None:
    services.event_record("audit_run", pit_id=None, payload={"id": instance.pk, "status": instance.status})


def audit_run_progressed(sender, run_id: int, **kwargs) -> None:
    services.event_record("audit_run", pit_id=None, payload={"id": run_id})


_SAVED = (
    (Incident, incident_saved),
    (Approval, approval_saved),
    (HaltOverride, halt_override_saved),
    (Finding, finding_saved),
    (TableShift, shift_saved),
    (FloatEvent, float_event_saved),
    (IntegritySignal, signal_saved),
    (AuditRun, audit_run_saved),
)


def user_told(sender, user_id: int, payload: dict, **kwargs) -> None:
    """A notification for one user: pushed to his open pages only (the bell's count, a toast)."""
    services.event_record("notification", pit_id=None, user_id=user_id, payload=payload)


def connect() -> None:
    hooks.subscribe(rounds_logged)
    hooks.subscribe_progress(table_progress)
    run_progressed.connect(audit_run_progressed, dispatch_uid="live.audit_run_progressed")
    audit_findings_written.connect(findings_written, dispatch_uid="live.findings_written")
    signals.user_told.connect(user_told, dispatch_uid="live.user_told")
    for model, receiver in _SAVED:
        post_save.connect(receiver, sender=model, dispatch_uid=f"live.{model.__name__}")
