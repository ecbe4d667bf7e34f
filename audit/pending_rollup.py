"""The rounds waiting for their audit, counted per (day, table, dealer) in `PendingRollup`, so that
the dashboard's backlog is a sum of a few rows rather than a count of every pending verdict. Kept in
the same transactions as the other rollups (audit/rollups.py's `changes`, and `pending_written` when
audit/state.py inserts the pending rows); rebuilt and checked with them."""

from django.db import connection, transaction

from casino.db import one_of

from .rollups import PENDING, add_into, nonzero, time_key, upsert

PENDING_KEY = ("day", "table_id", "dealer_id")


def pending_apply(delta: dict) -> None:
    from .models import PendingRollup

    rows = sorted((key, values) for key, values in delta.items() if nonzero(values))
    if rows:
        upsert(PendingRollup, PENDING_KEY, ("rounds",), rows)


def pending_written(round_ids) -> None:
    """Rounds just written whose pending audit rows were just inserted (audit/state.py, in the same
    transaction): those in force — an original; a correction enters force, and is counted, when a
    pit boss approves it (`changes`) — are added to their (day, table, dealer)'s counter."""
    from dealing.models import Round

    if not round_ids:
        return
    pending_rows_written(
        Round.objects.filter(pk__in=one_of(sorted(round_ids)), supersedes__isnull=True)
        .order_by()
        .values_list("played_at", "table_id", "dealer_id")
    )


def pending_rows_written(rows) -> None:
    """`pending_written` from the (played_at, table_id, dealer_id) of the rounds in force among them."""
    delta: dict[tuple, list] = {}
    for played_at, table_id, dealer_id in rows:
        add_into(delta, (time_key(played_at)[0], table_id, dealer_id or 0), (1,), 1)
    pending_apply(delta)


def pending_direct() -> dict[tuple, list]:
    """The counters computed afresh: the pending audit rows of the rounds in force."""
    from dealing.models import RoundAudit, in_force_q

    out: dict[tuple, list] = {}
    for played_at, table_id, dealer_id in (
        RoundAudit.objects.filter(in_force_q("round"), status=PENDING)
        .order_by()
        .values_list("round__played_at", "round__table_id", "round__dealer_id")
        .iterator(chunk_size=2000)
    ):
        add_into(out, (time_key(played_at)[0], table_id, dealer_id or 0), (1,), 1)
    return out


def pending_rebuild() -> int:
    """Replace the counters by `pending_direct()` (under the same lock as a rebuild); rows written."""
    from .models import PendingRollup

    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    f"LOCK TABLE {connection.ops.quote_name(PendingRollup._meta.db_table)} IN EXCLUSIVE MODE"
                )
        counts = pending_direct()
        PendingRollup.objects.all().delete()
        pending_apply(counts)
    return sum(1 for v in counts.values() if nonzero(v))


def pending_differences() -> list[str]:
    from .models import PendingRollup

    want = {k: v for k, v in pending_direct().items() if nonzero(v)}
    have = {
        (day, table, dealer): [n]
        for day, table, dealer, n in PendingRollup.objects.values_list(*PENDING_KEY, "rounds")
        if n
    }
    return [
        f"pending {key}: stored {have.get(key)}, from the rounds {want.get(key)}"
        for key in sorted(set(want) | set(have), key=repr)
        if want.get(key) != have.get(key)
    ]
