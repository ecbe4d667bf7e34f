"""The audit's state on a round: its `RoundAudit` row (status, engine version, time), beside the
round, which is never updated. Written only here, by audit, never by dealing: a pending row in the
transaction that writes the round (dealing.hooks.round_written → audit.subscribers), the verdict when
it is audited — one row (`round_record_audit`) or a chunk's rows in one multi-row
INSERT … ON CONFLICT DO UPDATE (`rounds_record_audit`). No round or stake row is written.

Which rounds still need an audit is therefore known from the database, through a partial index of
the pending rows (`round_audit_pending`): the sweep, the nightly run and the dashboard read those few
rows, not every round."""

from django.db import connection
from django.utils import timezone

from dealing import services as dealing_services
from dealing.choices import AuditStatus
from dealing.models import Round, RoundAudit

_TABLE = RoundAudit._meta.db_table
_ROUNDS = Round._meta.db_table
_SUPERSEDES = Round._meta.get_field("supersedes").column
_ROUND_KEYS = ", ".join(f"r.{Round._meta.get_field(name).column}" for name in ("played_at", "table", "dealer"))


def round_record_audit(*, round_id: int, status: str, engine_version: str) -> None:
    """The audit's verdict on a round (audit.services records many at once the same way)."""
    rounds_record_audit(by_status={status: [round_id]}, engine_version=engine_version)


def rounds_record_audit(*, by_status: dict[str, list[int]], engine_version: str) -> None:
    """The verdicts on many rounds (status → round ids) in one statement: an upsert of their
    RoundAudit rows, in id order (two writers of overlapping chunks lock the rows in the same order).
    The rows it writes stay locked until the caller's transaction ends."""
    for status in by_status:
        if status not in AuditStatus.values:
            raise ValueError(status)
    pairs = sorted((int(pk), status) for status, ids in by_status.items() for pk in ids)
    if not pairs:
        return
    now = timezone.now()
    if connection.vendor == "postgresql":
        # One statement with two array parameters, whatever the chunk's size (prepared once).
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_TABLE} (round_id, status, audited_at, engine_version) "
                "SELECT r, s, %s, %s FROM unnest(%s::bigint[], %s::text[]) AS v(r, s) "
                "ON CONFLICT (round_id) DO UPDATE SET status = EXCLUDED.status, "
                "audited_at = EXCLUDED.audited_at, engine_version = EXCLUDED.engine_version",
                [now, engine_version, [pk for pk, _ in pairs], [status for _, status in pairs]],
            )
        # Each verdict a new fact of the verdicts' chain (docs/chain.md), in this transaction.
        dealing_services.records_touched(RoundAudit, [pk for pk, _ in pairs])
        return
    RoundAudit.objects.bulk_create(
        [RoundAudit(round_id=pk, status=status, audited_at=now, engine_version=engine_version) for pk, status in pairs],
        update_conflicts=True,
        unique_fields=["round"],
        update_fields=["status", "audited_at", "engine_version"],
    )
    dealing_services.records_touched(RoundAudit, [pk for pk, _ in pairs])


def rounds_record_pending(*, round_ids) -> None:
    """Rounds just written, not audited yet: their pending rows (a row already there is kept), and
    the counter of rounds waiting for audit (audit.models.PendingRollup) raised by the rows inserted,
    in the same transaction — audit/rollups.py `changes` lowers it when their verdict is written."""
    from .pending_rollup import pending_rows_written, pending_written

    ids = sorted({int(pk) for pk in round_ids})
    if not ids:
        return
    if connection.vendor == "postgresql":
        # The counter's keys of the rows inserted come back with them (what `pending_written` would
        # read in a query of its own, once more for every round logged).
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH inserted AS (INSERT INTO {_TABLE} (round_id, status, audited_at, engine_version) "
                "SELECT r, %s, NULL, '' FROM unnest(%s::bigint[]) AS v(r) ON CONFLICT (round_id) DO NOTHING "
                f"RETURNING round_id) SELECT {_ROUND_KEYS} FROM inserted JOIN {_ROUNDS} r ON r.id = inserted.round_id "
                f"WHERE r.{_SUPERSEDES} IS NULL",
                [AuditStatus.PENDING.value, ids],
            )
            pending_rows_written(cursor.fetchall())
        return
    there = set(RoundAudit.objects.filter(round_id__in=ids).values_list("round_id", flat=True))
    inserted = [pk for pk in ids if pk not in there]
    RoundAudit.objects.bulk_create([RoundAudit(round_id=pk) for pk in inserted], ignore_conflicts=True)
    pending_written(inserted)
