"""Rollups: running totals per (day, shift, table, dealer, game) that the dashboard, the dealers'
error rates and the reports read instead of every round of the period (docs/rollups.md).

What they count, always the same way (`_contributions`):

- `Rollup`: each round in force (status recorded) that has been audited — how many, by verdict
  (clean, with findings, engine error), its handle (initial wagers and total wagered, and Σ of each
  round's initial wagers squared, for the theoretical win's band) and its win (Σ take − Σ pay as
  logged, and as the rules owed);
- `RollupFinding`: each finding of a round in force, and each finding of a shoe — by code,
  severity, review status and classification: how many, and the money moved (over, under).

A round and its findings are keyed by its `played_at` (when it was dealt, not when it was logged:
a round logged today for last month changes last month's rows), in the casino's TIME_ZONE: the
calendar day, the shift (settings.CASINO_SHIFTS) and the day that shift began.

How they stay current. Every write that changes what is counted runs inside `changes(...)`, in its
own transaction: it locks the rounds (and shoes) concerned, reads what they contribute, lets the
write happen, reads again, and adds the difference to the rollup rows with one
`INSERT … ON CONFLICT DO UPDATE SET x = x + EXCLUDED.x` per table, keys sorted (so two workers
adding to the same rows wait for each other, never deadlock). So a re-audit to the same verdict adds
nothing, a re-audit to another one moves the round, a review moves its findings, and an approved
correction takes the superseded round out and (once audited) puts its new revision in. The writers:
audit.services.rounds.rounds_audit (and through it the runs, the sweep and the per-round tasks),
audit.services.shoes.shoe_audit, audit.services.reviews.finding_review, and the corrections of
dealing (announced through dealing.hooks.rounds_changing, which audit subscribes to).

`rebuild()` (manage.py rollups_rebuild, the data migration) recomputes everything from the rounds.
"""

from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction

from casino.db import one_of

ZERO = Decimal(0)
RECORDED = "recorded"
PENDING = "pending"
DISMISSED = "dismissed"
VERDICTS = {"clean": 1, "findings": 2, "error": 3}  # the place of each audit status among the counters

KEY = ("day", "shift_date", "shift", "table_id", "dealer_id", "variant")
ROUND_COUNTERS = (
    "rounds",
    "clean",
    "with_findings",
    "errors",
    "initial_wagers",
    "total_wagered",
    "win_logged",
    "win_owed",
    "initial_wagers_sq",
)
FINDING_KEY = KEY + ("of_shoe", "code", "severity", "status", "classification")
FINDING_COUNTERS = ("n", "over", "under")


# --- the shifts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shift:
    number: int
    name: str
    start: dt.time


@lru_cache(maxsize=4)
def _shifts(spec: tuple) -> tuple[Shift, ...]:
    out = []
    for number, (name, start) in enumerate(spec):
        out.append(Shift(number, str(name), dt.time.fromisoformat(start)))
    if not out:
        raise ValueError("CASINO_SHIFTS names no shift")
    if [s.start for s in out] != sorted({s.start for s in out}):
        raise ValueError("CASINO_SHIFTS: the starts must rise through the day")
    return tuple(out)


def shifts() -> tuple[Shift, ...]:
    """settings.CASINO_SHIFTS: default three 8-hour shifts, from 06:00, 14:00 and 22:00."""
    spec = getattr(settings, "CASINO_SHIFTS", None) or [("day", "06:00"), ("swing", "14:00"), ("night", "22:00")]
    return _shifts(tuple((name, start) for name, start in spec))


@lru_cache(maxsize=4)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def time_key(at: dt.datetime) -> tuple[dt.date, dt.date, int]:
    """(calendar day, the day its shift began, the shift's number) of a moment, in TIME_ZONE. Before
    the first shift's start the moment belongs to the last shift of the day before."""
    local = at.astimezone(_zone(settings.TIME_ZONE)) if at.tzinfo else at
    day, clock = local.date(), local.time()
    all_shifts = shifts()
    current = None
    for shift in all_shifts:
        if clock >= shift.start:
            current = shift
    if current is None:
        return day, day - dt.timedelta(days=1), all_shifts[-1].number
    return day, day, current.number


# --- what rounds and findings contribute ------------------------------------------------------------


def handle(document, outcome) -> tuple[Decimal, Decimal]:
    """A round's handle: (initial wagers, total wagered). The initial wagers are the amounts each stake
    of the log puts down before the deal (its fields among the game's wagers: a blackjack `bet`, an
    ochko Ante, Bet and dealer bet as written on the stake); the total wagered is the size of every
    wager the rules settled (doubles, splits and raises included) — the initial wagers when the
    engine cannot read the round."""
    from dealing import engine

    initial = ZERO
    try:
        wagers = engine.variant(document.get("variant")).WAGERS
    except Exception:
        wagers = ("ante", "bet", "dealer_bet")
    for stake in document.get("stakes") or []:
        if not isinstance(stake, dict):
            continue
        for name in wagers:
            value = stake.get(name)
            if value is not None and not isinstance(value, bool):
                try:
                    initial += Decimal(str(value))
                except ArithmeticError:
                    pass
    if outcome is None or outcome.wagers is None:
        return initial, initial
    return initial, sum((w.size for w in outcome.wagers), ZERO)


def _replayed_handle(document) -> tuple[Decimal, Decimal]:
    from dealing import engine

    try:
        outcome = engine.replay(document)
    except Exception:
        outcome = None
    return handle(document, outcome)


@dataclass
class Models:
    """The models the rollups read and write: the live ones, or a migration's historical ones."""

    Round: type
    Finding: type
    Rollup: type
    RollupFinding: type
    Shoe: type
    Table: type

    @classmethod
    def live(cls) -> Models:
        from casino.models import Table
        from dealing.models import Round, Shoe

        from .models import Finding, Rollup, RollupFinding

        return cls(Round, Finding, Rollup, RollupFinding, Shoe, Table)

    @property
    def round_time(self) -> str:
        """The column a round is counted at: `played_at`, or `logged_at` in the migrations that ran
        before rounds had their own time (then the two were the same)."""
        return "played_at" if any(f.name == "played_at" for f in self.Round._meta.get_fields()) else "logged_at"


def add_into(bucket: dict, key: tuple, values: tuple, sign: int) -> None:
    row = bucket.get(key)
    if row is None:
        bucket[key] = [sign * v for v in values]
    else:
        for i, v in enumerate(values):
            row[i] += sign * v


def _round_values(status: str, initial, total, logged, owed) -> tuple:
    verdict = [0, 0, 0]
    verdict[VERDICTS.get(status, 3) - 1] = 1
    # Σ initial² besides Σ initial: the variance of a period's win is σ² × Σ wager² (books/theory/arithmetic.py).
    return (1, *verdict, initial, total, logged or ZERO, owed or ZERO, initial * initial)


def _finding_values(delta) -> tuple:
    if delta is None:
        return (1, ZERO, ZERO)
    return (1, delta if delta > 0 else ZERO, delta if delta < 0 else ZERO)


class _Snapshot:
    """What a set of rounds and shoes contributes right now: per key, the counters."""

    def __init__(self):
        self.rounds: dict[tuple, list] = {}
        self.findings: dict[tuple, list] = {}
        self.pending: dict[tuple, list] = {}  # (day, table, dealer) -> [rounds in force not audited]


def _round_rows(m: Models, round_ids, *, lock: bool):
    qs = m.Round.objects.filter(pk__in=one_of(round_ids)).order_by("pk")
    if lock and connection.vendor == "postgresql":
        # Lock in a statement of its own, then read in the next: a `FOR UPDATE` that waited for another
        # writer re-reads only the locked round rows, while its subqueries (the derived status and
        # audit status) would still see the snapshot from before that writer committed, and the
        # round's change would be counted twice.
        list(qs.select_for_update(of=("self",)).values_list("pk", flat=True))
    return list(
        qs.values_list(
            "pk",
            m.round_time,
            "table_id",
            "dealer_id",
            "variant",
            "status",
            "audit_status",
            "float_logged",
            "float_owed",
        )
    )


def _snapshot(m: Models, round_ids, shoe_ids, *, lock: bool = False) -> tuple[_Snapshot, dict]:
    """The contributions of `round_ids` (the rounds and their findings) and of `shoe_ids` (their own
    findings), and each round's row (to tell later whether it is counted)."""
    snap = _Snapshot()
    rows = {}
    if round_ids:
        for pk, played_at, table_id, dealer_id, variant, status, audit_status, logged, owed in _round_rows(
            m, round_ids, lock=lock
        ):
            key = (*time_key(played_at), table_id, dealer_id or 0, variant)
            rows[pk] = (status, audit_status, variant, key)
            if status == RECORDED and audit_status == PENDING:
                add_into(snap.pending, (key[0], table_id, dealer_id or 0), (1,), 1)
            if status != RECORDED or audit_status == PENDING:
                continue
            # Without the handle: only the rounds that enter or leave need it (see `changes`).
            add_into(snap.rounds, key, _round_values(audit_status, ZERO, ZERO, logged, owed), 1)
        in_force = {pk: row[2] for pk, row in rows.items() if row[0] == RECORDED}
        if in_force:
            for played_at, table_id, dealer_id, round_id, code, severity, status, classification, delta in (
                m.Finding.objects.filter(round_id__in=one_of(list(in_force)))
                .order_by()
                .values_list(
                    "played_at",
                    "table_id",
                    "dealer_id",
                    "round_id",
                    "code",
                    "severity",
                    "status",
                    "classification",
                    "player_delta",
                )
            ):
                key = (
                    *time_key(played_at),
                    table_id,
                    dealer_id or 0,
                    in_force[round_id],
                    False,
                    code,
                    severity,
                    status,
                    classification or "",
                )
                add_into(snap.findings, key, _finding_values(delta), 1)
    if shoe_ids:
        variants = dict(m.Shoe.objects.filter(pk__in=list(shoe_ids)).values_list("pk", "table__variant"))
        for played_at, table_id, dealer_id, shoe_id, code, severity, status, classification, delta in (
            m.Finding.objects.filter(shoe_id__in=list(shoe_ids), round__isnull=True)
            .order_by()
            .values_list(
                "played_at",
                "table_id",
                "dealer_id",
                "shoe_id",
                "code",
                "severity",
                "status",
                "classification",
                "player_delta",
            )
        ):
            key = (
                *time_key(played_at),
                table_id,
                dealer_id or 0,
                variants.get(shoe_id, ""),
                True,
                code,
                severity,
                status,
                classification or "",
            )
            add_into(snap.findings, key, _finding_values(delta), 1)
    return snap, rows


def _counted(row) -> bool:
    return row is not None and row[0] == RECORDED and row[1] != PENDING


# --- keeping them current ---------------------------------------------------------------------------


@contextmanager
def changes(*, round_ids=(), shoe_ids=(), handles: dict | None = None, models: Models | None = None):
    """Around a write that may change what `round_ids` and `shoe_ids` contribute (inside the caller's
    transaction): the rollups get the difference, in the same transaction. `handles` may give the
    rounds' handles (round id -> (initial, total wagered)) where the caller has replayed them;
    the others are replayed here when they enter or leave the rollups.

    The rounds are locked first (`FOR UPDATE`, in id order), then the shoes: every writer of what the
    rollups count locks in that order, so two of them never count the same change twice."""
    m = models or Models.live()
    round_ids = sorted({int(i) for i in round_ids})
    shoe_ids = sorted({int(i) for i in shoe_ids})
    if not round_ids and not shoe_ids:
        yield
        return
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("rollups.changes() runs inside the transaction of the write")
    if shoe_ids and connection.vendor == "postgresql":
        list(
            m.Shoe.objects.select_for_update(no_key=True, of=("self",))
            .filter(pk__in=shoe_ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
    # Before: the rows (locked), then what they count without the handle — only the rounds whose
    # membership changes need their handle, and they are known after the write.
    handles = dict(handles or {})
    before, before_rows = _snapshot(m, round_ids, shoe_ids, lock=True)
    yield
    after, after_rows = _snapshot(m, round_ids, shoe_ids)
    moving = [pk for pk in round_ids if _counted(before_rows.get(pk)) != _counted(after_rows.get(pk))]
    missing = [pk for pk in moving if pk not in handles]
    if missing:
        for pk, document in m.Round.objects.filter(pk__in=one_of(missing)).values_list("pk", "document"):
            handles[pk] = _replayed_handle(document)
    rounds_delta: dict[tuple, list] = {}
    for bucket, sign in ((after.rounds, 1), (before.rounds, -1)):
        for key, values in bucket.items():
            add_into(rounds_delta, key, values, sign)
    for pk in moving:
        # The handle of a round that entered (+) or left (−), on its key.
        initial, total = handles[pk]
        if _counted(after_rows.get(pk)):
            add_into(rounds_delta, after_rows[pk][3], (0, 0, 0, 0, initial, total, 0, 0, initial * initial), 1)
        else:
            add_into(rounds_delta, before_rows[pk][3], (0, 0, 0, 0, initial, total, 0, 0, initial * initial), -1)
    findings_delta: dict[tuple, list] = {}
    for bucket, sign in ((after.findings, 1), (before.findings, -1)):
        for key, values in bucket.items():
            add_into(findings_delta, key, values, sign)
    _apply(m, rounds_delta, findings_delta)
    if models is None:  # the live tables (a data migration's historical models may predate the counter)
        pending_delta: dict[tuple, list] = {}
        for bucket, sign in ((after.pending, 1), (before.pending, -1)):
            for key, values in bucket.items():
                add_into(pending_delta, key, values, sign)
        from .pending_rollup import pending_apply

        pending_apply(pending_delta)


def nonzero(values) -> bool:
    return any(v != 0 for v in values)


def _apply(m: Models, rounds_delta: dict, findings_delta: dict) -> None:
    rows = sorted((key, values) for key, values in rounds_delta.items() if nonzero(values))
    if rows:
        upsert(m.Rollup, KEY, ROUND_COUNTERS, rows)
    rows = sorted((key, values) for key, values in findings_delta.items() if nonzero(values))
    if rows:
        upsert(m.RollupFinding, FINDING_KEY, FINDING_COUNTERS, rows)


def upsert(model, key_names, counter_names, rows) -> None:
    """One INSERT … ON CONFLICT DO UPDATE SET x = x + EXCLUDED.x for all rows (PostgreSQL and SQLite
    alike), in key order."""
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    columns = [model._meta.get_field(name).column for name in (*key_names, *counter_names)]
    ops = connection.ops
    key_cols = [qn(c) for c in columns[: len(key_names)]]
    count_cols = [qn(c) for c in columns[len(key_names) :]]
    placeholder = "(" + ", ".join(["%s"] * len(columns)) + ")"
    for start in range(0, len(rows), 500):
        part = rows[start : start + 500]
        params = []
        for key, values in part:
            for name, value in zip(key_names, key):
                params.append(ops.adapt_datefield_value(value) if name in ("day", "shift_date") else value)
            params.extend(str(v) if isinstance(v, Decimal) and connection.vendor == "sqlite" else v for v in values)
        sets = ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in count_cols)
        sql = (
            f"INSERT INTO {table} ({', '.join(key_cols + count_cols)}) VALUES "
            f"{', '.join([placeholder] * len(part))} ON CONFLICT ({', '.join(key_cols)}) DO UPDATE SET {sets}"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


# --- audit's subscription to dealing's changes ------------------------------------------------------


def rounds_changing(round_ids):
    """dealing.hooks.rounds_changing subscriber: a correction approved (the superseded round leaves,
    its new revision enters once audited) — in the same transaction."""
    return changes(round_ids=round_ids)


# --- recomputing from the rounds --------------------------------------------------------------------


def direct(*, models: Models | None = None, batch: int = 2000, progress=None) -> tuple[dict, dict]:
    """The rollups computed afresh from every round and finding, read in id order a batch at a time
    (memory: the batch, and the rollup rows themselves)."""
    from dealing import engine

    m = models or Models.live()
    rounds: dict[tuple, list] = {}
    findings: dict[tuple, list] = {}
    last = 0
    done = 0
    base = m.Round.objects.filter(status=RECORDED).order_by("pk")
    while True:
        part = list(
            base.filter(pk__gt=last).values_list(
                "pk",
                m.round_time,
                "table_id",
                "dealer_id",
                "variant",
                "audit_status",
                "float_logged",
                "float_owed",
                "document",
            )[:batch]
        )
        if not part:
            break
        last = part[-1][0]
        variants = {}
        for pk, played_at, table_id, dealer_id, variant, audit_status, logged, owed, document in part:
            variants[pk] = variant
            if audit_status == PENDING:
                continue
            try:
                outcome = engine.replay(document)
            except Exception:
                outcome = None
            initial, total = handle(document, outcome)
            key = (*time_key(played_at), table_id, dealer_id or 0, variant)
            add_into(rounds, key, _round_values(audit_status, initial, total, logged, owed), 1)
        for played_at, table_id, dealer_id, round_id, code, severity, status, classification, delta in (
            m.Finding.objects.filter(round_id__in=one_of(list(variants)))
            .order_by()
            .values_list(
                "played_at",
                "table_id",
                "dealer_id",
                "round_id",
                "code",
                "severity",
                "status",
                "classification",
                "player_delta",
            )
        ):
            key = (
                *time_key(played_at),
                table_id,
                dealer_id or 0,
                variants[round_id],
                False,
                code,
                severity,
                status,
                classification or "",
            )
            add_into(findings, key, _finding_values(delta), 1)
        done += len(part)
        if progress:
            progress(done)
    table_variant = dict(m.Table.objects.values_list("pk", "variant"))
    for played_at, table_id, dealer_id, code, severity, status, classification, delta in (
        m.Finding.objects.filter(round__isnull=True)
        .order_by()
        .values_list(
            "played_at", "table_id", "dealer_id", "code", "severity", "status", "classification", "player_delta"
        )
        .iterator(chunk_size=batch)
    ):
        key = (
            *time_key(played_at),
            table_id,
            dealer_id or 0,
            table_variant.get(table_id, ""),
            True,
            code,
            severity,
            status,
            classification or "",
        )
        add_into(findings, key, _finding_values(delta), 1)
    return rounds, findings


def stored(*, models: Models | None = None) -> tuple[dict, dict]:
    """The rollups as stored, in the shape of `direct()` (rows whose counters are all zero left out)."""
    m = models or Models.live()
    rounds = {}
    for row in m.Rollup.objects.values_list(*KEY, *ROUND_COUNTERS):
        key, values = tuple(row[: len(KEY)]), list(row[len(KEY) :])
        if nonzero(values):
            rounds[key] = values
    findings = {}
    for row in m.RollupFinding.objects.values_list(*FINDING_KEY, *FINDING_COUNTERS):
        key, values = tuple(row[: len(FINDING_KEY)]), list(row[len(FINDING_KEY) :])
        if nonzero(values):
            findings[key] = values
    return rounds, findings


def rebuild(*, models: Models | None = None, batch: int = 2000, progress=None) -> tuple[int, int]:
    """Replace the rollups by a fresh computation from the rounds (idempotent). On PostgreSQL the two
    rollup tables are locked against writes (EXCLUSIVE: reads go on) for the transaction: an audit
    committing meanwhile waits at its increment and then adds it to the rebuilt rows — its rounds'
    state before it was read before it, or it holds the rows and the lock waits for it. The number of
    rollup rows written (rounds, findings)."""
    m = models or Models.live()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            qn = connection.ops.quote_name
            with connection.cursor() as cursor:
                cursor.execute(
                    f"LOCK TABLE {qn(m.Rollup._meta.db_table)}, {qn(m.RollupFinding._meta.db_table)} IN EXCLUSIVE MODE"
                )
        rounds, findings = direct(models=m, batch=batch, progress=progress)
        m.Rollup.objects.all().delete()
        m.RollupFinding.objects.all().delete()
        _apply(m, rounds, findings)
        if models is None:
            from .pending_rollup import pending_rebuild

            pending_rebuild()
    return (sum(1 for v in rounds.values() if nonzero(v)), sum(1 for v in findings.values() if nonzero(v)))


def differences(*, models: Models | None = None) -> list[str]:
    """Where the stored rollups differ from a fresh computation (empty when they agree)."""
    want_r, want_f = direct(models=models)
    have_r, have_f = stored(models=models)
    out = []
    for name, want, have in (("rollup", want_r, have_r), ("finding rollup", want_f, have_f)):
        want = {k: [Decimal(v) for v in vals] for k, vals in want.items() if nonzero(vals)}
        have = {k: [Decimal(v) for v in vals] for k, vals in have.items()}
        for key in sorted(set(want) | set(have), key=repr):
            if want.get(key) != have.get(key):
                out.append(f"{name} {key}: stored {have.get(key)}, from the rounds {want.get(key)}")
    if models is None:
        from .pending_rollup import pending_differences

        out += pending_differences()
    return out
