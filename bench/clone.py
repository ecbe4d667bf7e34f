"""The fast path of `bench_scale --clone` to a large N: an imported, audited base cloned in SQL.

Loading 10,000,000 rounds through `import_rounds` takes hours on a small machine (300–1,000
rounds/s); the pages only need a database of that size whose rows are consistent with each other.
So the base (the `compare` rounds, imported and audited by the workers) is copied `copies - 1`
times with `INSERT … SELECT` over `generate_series`: copy k (1 … copies-1) gets

- ids shifted by k × the base's largest id (rounds, stakes, shoes, shoe events, shoe audits,
  findings, rollup rows), and every reference to them shifted alike;
- per table: `table_round` and `chain_index` shifted by k × the base's largest, shoe numbers by
  k × the largest shoe number (the document's `shoe` name follows), so each table's sequences stay
  unique and in order;
- a fresh `uid` (its first 8 hex digits are k; the document's `id` follows) and `sha256` (its first
  4 hex digits are k) — unique, but **the chain of a cloned round does not verify** (its HMAC is
  the base round's): `verify_chain` reports breaks, the pages do not read the chain;
- times moved by whole days: the copies are `step_days` apart, the newest copy ends where the base
  was imported (the base itself is moved back first), so ids grow with time as in real life; the
  rollup rows move with their rounds (`day`, `shift_date` + the same days: a whole-day shift keeps
  each round's shift), which is exactly what a rebuild would give for the moved rounds.

Every shoe but the newest copy's is ended. Secondary indexes and unique constraints of the large
tables are dropped for the copy and built again afterwards (one sort each instead of 10M inserts
into each B-tree); foreign keys are not checked while copying (`session_replication_role =
replica`: the copied references point at copied rows by construction). Afterwards `check()` asserts
the cheap invariants the pages rely on: Σ rollup rounds = audited rounds in force, Σ rollup findings
= findings, and the counts are `copies` × the base's.

The copying stops early (fewer copies) when the disk's free space falls under `min_free_gb`.
"""

import shutil
import time

from django.db import connection

LARGE = ["dealing_round", "dealing_stake", "dealing_roundaudit", "audit_finding"]
# Rows that refer to rounds or shoes and that the bench does not create: cloning them is not done,
# so they must be empty.
UNCLONED = ["audit_review", "dealing_approval", "dealing_incident", "dealing_supersession", "ledger_sessionround"]


def _columns_of(table: str) -> list[str]:
    with connection.cursor() as cursor:
        return _columns(cursor, table)


def _columns(cursor, table: str) -> list[str]:
    cursor.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name = %s ORDER BY ordinal_position",
        [table],
    )
    return [name for (name,) in cursor.fetchall()]


def _max(cursor, sql: str) -> int:
    cursor.execute(sql)
    return cursor.fetchone()[0] or 0


def _shifts(cursor) -> dict:
    """The offsets of one copy, from the base."""
    q = lambda sql: _max(cursor, sql)  # noqa: E731
    return {
        "R": q("SELECT max(id) FROM dealing_round"),
        "ST": q("SELECT max(id) FROM dealing_stake"),
        "S": q("SELECT max(id) FROM dealing_shoe"),
        "SN": q("SELECT max(number) FROM dealing_shoe"),
        "E": q("SELECT max(id) FROM dealing_shoeevent"),
        "SA": q("SELECT max(id) FROM audit_shoeaudit"),
        "F": q("SELECT max(id) FROM audit_finding"),
        "RU": q("SELECT max(id) FROM audit_rollup"),
        "RF": q("SELECT max(id) FROM audit_rollupfinding"),
        "TR": q("SELECT max(table_round) FROM dealing_round"),
        "CI": q("SELECT max(chain_index) + 1 FROM dealing_round"),
    }


def _moved(col: str) -> str:
    # From the base already moved back to copy 0's place (`_move_base_sql`).
    return f"{col} + make_interval(days => %(step)s::int * k)"


def _renamed_hex(col: str, digits: int) -> str:
    # The first `digits` hex digits plus k (modulo): copy k of a row never equals its base row nor
    # another copy of it. Writing k itself there made a base hash that happens to start with k's
    # digits ("0002…") equal to its own copy k (1 chance in 7,000 a round at 9 copies).
    mod = 16**digits
    return (
        f"lpad(to_hex(mod((('x' || substr({col}, 1, {digits}))::bit({4 * digits})::bigint + k), {mod})::int), "
        f"{digits}, '0') || substr({col}, {digits + 1})"
    )


NEW_UID = "(lpad(to_hex(k), 8, '0') || substr(uid::text, 9))::uuid"
OVERRIDES = {
    "dealing_round": {
        "id": "id + k * %(R)s::bigint",
        "uid": NEW_UID,
        "shoe_id": "shoe_id + k * %(S)s::bigint",
        "supersedes_id": "supersedes_id + k * %(R)s::bigint",
        "table_round": "table_round + k * %(TR)s::bigint",
        "chain_index": "chain_index + k * %(CI)s::bigint",
        "sha256": _renamed_hex("sha256", 4),
        "prev_sha256": f"CASE WHEN prev_sha256 = '' THEN '' ELSE {_renamed_hex('prev_sha256', 4)} END",
        "logged_at": _moved("logged_at"),
        "played_at": _moved("played_at"),
        "document": (
            f"document || jsonb_build_object('id', {NEW_UID}::text) || CASE WHEN document ? 'shoe' "
            "AND document->>'shoe' LIKE '%%/%%' THEN jsonb_build_object('shoe', "
            "split_part(document->>'shoe', '/', 1) || '/' || "
            "(split_part(document->>'shoe', '/', 2)::int + k * %(SN)s::bigint)) ELSE '{}'::jsonb END"
        ),
    },
    "dealing_stake": {"id": "id + k * %(ST)s::bigint", "round_id": "round_id + k * %(R)s::bigint"},
    "dealing_roundaudit": {"round_id": "round_id + k * %(R)s::bigint", "audited_at": _moved("audited_at")},
    "dealing_shoe": {
        "id": "id + k * %(S)s::bigint",
        "number": "number + k * %(SN)s::bigint",
        "loaded_at": _moved("loaded_at"),
        "ended_at": f"CASE WHEN k = %(last)s::int THEN {_moved('ended_at')} ELSE {_moved('coalesce(ended_at, loaded_at)')} END",
    },
    "dealing_shoeevent": {
        "id": "id + k * %(E)s::bigint",
        "shoe_id": "shoe_id + k * %(S)s::bigint",
        "recorded_at": _moved("recorded_at"),
    },
    "audit_shoeaudit": {
        "id": "id + k * %(SA)s::bigint",
        "shoe_id": "shoe_id + k * %(S)s::bigint",
        "audited_at": _moved("audited_at"),
    },
    "audit_finding": {
        "id": "id + k * %(F)s::bigint",
        "round_id": "round_id + k * %(R)s::bigint",
        "shoe_id": "shoe_id + k * %(S)s::bigint",
        "played_at": _moved("played_at"),
        "created": _moved("created"),
        "reviewed_at": _moved("reviewed_at"),
    },
    "audit_rollup": {
        "id": "id + k * %(RU)s::bigint",
        "day": "day + %(step)s::int * k",
        "shift_date": "shift_date + %(step)s::int * k",
    },
    "audit_rollupfinding": {
        "id": "id + k * %(RF)s::bigint",
        "day": "day + %(step)s::int * k",
        "shift_date": "shift_date + %(step)s::int * k",
    },
}
# In the order the rows refer to each other (not checked while copying, but readable).
ORDER = [
    "dealing_shoe",
    "dealing_shoeevent",
    "audit_shoeaudit",
    "dealing_round",
    "dealing_stake",
    "dealing_roundaudit",
    "audit_finding",
    "audit_rollup",
    "audit_rollupfinding",
]
BASE_FILTER = {
    "dealing_round": "id",
    "dealing_stake": "id",
    "dealing_shoe": "id",
    "dealing_shoeevent": "id",
    "audit_shoeaudit": "id",
    "audit_finding": "id",
    "audit_rollup": "id",
    "audit_rollupfinding": "id",
    "dealing_roundaudit": "round_id",
}
BASE_LIMIT = {
    "dealing_round": "R",
    "dealing_stake": "ST",
    "dealing_shoe": "S",
    "dealing_shoeevent": "E",
    "audit_shoeaudit": "SA",
    "audit_finding": "F",
    "audit_rollup": "RU",
    "audit_rollupfinding": "RF",
    "dealing_roundaudit": "R",
}


def _insert_sql(cursor, table: str) -> str:
    columns = _columns(cursor, table)
    over = OVERRIDES[table]
    select = ", ".join(over.get(c, c) for c in columns)
    where = f"{BASE_FILTER[table]} <= %({BASE_LIMIT[table]})s"
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) SELECT {select} FROM {table} "
        f"CROSS JOIN generate_series(%(first)s::int, %(stop)s::int) AS k WHERE {where}"
    )


TIMES = ("logged_at", "audited_at", "loaded_at", "recorded_at", "played_at", "created", "reviewed_at")


def _move_base_sql(table: str) -> str | None:
    """The base moved back in time to its place as copy 0 (its times only; its open shoes ended)."""
    back = "make_interval(days => - %(step)s::int * %(last)s::int)"
    sets = [f"{c} = {c} + {back}" for c in _columns_of(table) if c in TIMES]
    sets += [f"{c} = {c} - %(step)s::int * %(last)s::int" for c in ("day", "shift_date") if c in OVERRIDES[table]]
    if table == "dealing_shoe":  # its open shoes are ended after the copy (the newest copy's stay open)
        sets.append(f"ended_at = ended_at + {back}")
    return f"UPDATE {table} SET {', '.join(sets)}" if sets else None


def _secondary(cursor, table: str) -> tuple[list[str], list[str]]:
    """(drop statements, create statements) of a table's indexes and unique constraints but its key."""
    cursor.execute(
        """
        SELECT i.relname, pg_get_indexdef(i.oid), c.conname, pg_get_constraintdef(c.oid)
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.contype IN ('u', 'p')
        WHERE t.relname = %s AND NOT x.indisprimary""",
        [table],
    )
    drops, creates = [], []
    for index, indexdef, constraint, condef in cursor.fetchall():
        if constraint:
            drops.append(f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"')
            creates.append(f'ALTER TABLE {table} ADD CONSTRAINT "{constraint}" {condef}')
        else:
            drops.append(f'DROP INDEX "{index}"')
            creates.append(indexdef)
    return drops, creates


def base_counts(cursor) -> dict:
    counts = {}
    for table in ORDER:
        cursor.execute(f"SELECT count(*) FROM {table}")
        counts[table] = cursor.fetchone()[0]
    return counts


def clone(copies: int, *, step_days: int = 3, batch: int = 4, min_free_gb: float = 15.0, log=print) -> dict:
    """The database's rounds (the base, audited) cloned to `copies` times as many (see the module)."""
    started = time.perf_counter()
    timings = {}
    with connection.cursor() as cursor:
        for table in UNCLONED:
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if cursor.fetchone()[0]:
                raise RuntimeError(f"{table} has rows: cloning does not copy them")
        cursor.execute("SELECT count(*) FROM dealing_roundaudit WHERE status = 'pending'")
        if cursor.fetchone()[0]:
            raise RuntimeError("the base has rounds not audited yet: audit it before cloning")
        base = base_counts(cursor)
        params = {**_shifts(cursor), "step": step_days, "last": copies - 1}
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("SET session_replication_role = replica")
        t0 = time.perf_counter()
        recreate = []
        # The copy: foreign keys unchecked, secondary indexes dropped.
        for table in LARGE:
            drops, creates = _secondary(cursor, table)
            for sql in drops:
                cursor.execute(sql)
            recreate += creates
        for table in ORDER:
            sql = _move_base_sql(table)
            if sql:
                cursor.execute(sql, params)
        timings["drop indexes, move base"] = time.perf_counter() - t0
        made = 1
        first = 1
        statements = {table: _insert_sql(cursor, table) for table in ORDER}
        while first < copies:
            free_gb = shutil.disk_usage("/").free / 2**30
            if free_gb < min_free_gb:
                log(f"clone: stopped at {made} copies, {free_gb:.1f} GB free")
                break
            stop = min(copies - 1, first + batch - 1)
            t1 = time.perf_counter()
            for table in ORDER:
                cursor.execute(statements[table], {**params, "first": first, "stop": stop})
            made = stop + 1
            log(
                f"clone: {made}/{copies} copies ({made * base['dealing_round']:,} rounds) in "
                f"{time.perf_counter() - t1:.1f} s, {free_gb:.1f} GB free before"
            )
            first = stop + 1
        if made > 1:
            cursor.execute(
                "UPDATE dealing_shoe SET ended_at = loaded_at WHERE ended_at IS NULL AND id <= %(S)s::bigint", params
            )
        timings["copy"] = time.perf_counter() - t0 - timings["drop indexes, move base"]
        cursor.execute("SET session_replication_role = DEFAULT")
        t2 = time.perf_counter()
        for sql in recreate:
            t3 = time.perf_counter()
            cursor.execute(sql)
            log(f"clone: {sql[:90]}… {time.perf_counter() - t3:.1f} s")
        timings["rebuild indexes"] = time.perf_counter() - t2
        for table in ORDER:
            if table != "dealing_roundaudit":  # keyed by its round
                cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        t4 = time.perf_counter()
        # What autovacuum would do to the inserted rows anyway (and would otherwise do while the pages
        # are timed): statistics, and the visibility map that index-only scans need.
        for table in ORDER:
            cursor.execute(f"VACUUM (ANALYZE) {table}")
        timings["vacuum analyze"] = time.perf_counter() - t4
    checked = check(made, base)
    return {
        "copies": made,
        "base": base,
        "timings_s": {k: round(v, 1) for k, v in timings.items()},
        "seconds": round(time.perf_counter() - started, 1),
        "check": checked,
        "last": copies - 1,
    }


def check(copies: int, base: dict) -> dict:
    """The cheap invariants of a consistent cloned database (raises if one fails)."""
    with connection.cursor() as cursor:
        counts = base_counts(cursor)
        cursor.execute("SELECT coalesce(sum(rounds), 0) FROM audit_rollup")
        rollup_rounds = cursor.fetchone()[0]
        # Audited rounds in force: not superseded (no supersessions in the bench), audit done.
        cursor.execute(
            "SELECT count(*) FROM dealing_round r JOIN dealing_roundaudit a ON a.round_id = r.id "
            "WHERE a.status <> 'pending' AND r.supersedes_id IS NULL"
        )
        audited = cursor.fetchone()[0]
        cursor.execute(
            "SELECT coalesce(sum(n) FILTER (WHERE NOT of_shoe), 0), coalesce(sum(n) FILTER (WHERE of_shoe), 0) "
            "FROM audit_rollupfinding"
        )
        rollup_round_findings, rollup_shoe_findings = cursor.fetchone()
        cursor.execute(
            "SELECT count(*) FILTER (WHERE round_id IS NOT NULL), count(*) FILTER (WHERE round_id IS NULL) "
            "FROM audit_finding"
        )
        round_findings, shoe_findings = cursor.fetchone()
    out = {
        "counts": counts,
        "rollup_rounds": rollup_rounds,
        "audited_rounds_in_force": audited,
        "rollup_findings": [rollup_round_findings, rollup_shoe_findings],
        "findings": [round_findings, shoe_findings],
    }
    wrong = {t: (n, copies * base[t]) for t, n in counts.items() if n != copies * base[t]}
    if wrong:
        raise AssertionError(f"cloned counts are not {copies} × the base's: {wrong}")
    if rollup_rounds != audited:
        raise AssertionError(f"Σ rollup rounds {rollup_rounds} != audited rounds in force {audited}")
    if [rollup_round_findings, rollup_shoe_findings] != [round_findings, shoe_findings]:
        raise AssertionError(f"Σ rollup findings {out['rollup_findings']} != findings {out['findings']}")
    return out


# --- shape `one`: copies into the same table, shoe and day ---------------------------------------

ONE_SHOE_ORDER = ["dealing_round", "dealing_stake", "dealing_roundaudit", "audit_finding"]


def _one_shoe_overrides() -> dict:
    """Copy k of a round stays at its table, in its shoe, at its time: its place in the shoe
    (`position`, `number`), its table's sequences and its ids move on; its findings follow it."""
    round_ = {
        k: v
        for k, v in OVERRIDES["dealing_round"].items()
        if k not in ("shoe_id", "logged_at", "played_at", "document")
    }
    round_.update(
        position="position + k * %(POS)s::int",
        number="number + k * %(NUM)s::int",
        document=f"document || jsonb_build_object('id', {NEW_UID}::text)",
    )
    return {
        "dealing_round": round_,
        "dealing_stake": OVERRIDES["dealing_stake"],
        "dealing_roundaudit": {"round_id": OVERRIDES["dealing_roundaudit"]["round_id"]},
        "audit_finding": {"id": OVERRIDES["audit_finding"]["id"], "round_id": OVERRIDES["audit_finding"]["round_id"]},
    }


def clone_one_shoe(copies: int, *, log=print) -> dict:
    """Shape `one` (one table, one shoe, one day) cloned to `copies` times its rounds: every copy in
    the same shoe (after the base's positions) at the base's own times, so the day and the shift of
    each rollup row stay its own and the rollups are the base's times `copies`. The shoe's own
    findings are not copied (there is one shoe). The chain of a copy does not verify (see above)."""
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for table in UNCLONED:
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if cursor.fetchone()[0]:
                raise RuntimeError(f"{table} has rows: cloning does not copy them")
        cursor.execute("SELECT count(*) FROM dealing_roundaudit WHERE status = 'pending'")
        if cursor.fetchone()[0]:
            raise RuntimeError("the base has rounds not audited yet: audit it before cloning")
        cursor.execute("SELECT count(DISTINCT shoe_id), count(DISTINCT table_id) FROM dealing_round")
        if cursor.fetchone() != (1, 1):
            raise RuntimeError("clone_one_shoe copies one table's one shoe")
        base = base_counts(cursor)
        params = {
            **_shifts(cursor),
            "POS": _max(cursor, "SELECT max(position) FROM dealing_round"),
            "NUM": _max(cursor, "SELECT max(number) FROM dealing_round"),
            "first": 1,
            "stop": copies - 1,
        }
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("SET session_replication_role = replica")
        recreate = []
        for table in LARGE:
            drops, creates = _secondary(cursor, table)
            for sql in drops:
                cursor.execute(sql)
            recreate += creates
        overrides = _one_shoe_overrides()
        t0 = time.perf_counter()
        for table in ONE_SHOE_ORDER:
            columns = _columns(cursor, table)
            select = ", ".join(overrides[table].get(c, c) for c in columns)
            where = f"{BASE_FILTER[table]} <= %({BASE_LIMIT[table]})s"
            if table == "audit_finding":
                where += " AND round_id IS NOT NULL"
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {select} FROM {table} "
                f"CROSS JOIN generate_series(%(first)s::int, %(stop)s::int) AS k WHERE {where}",
                params,
            )
        # Every copy adds the base's rounds and round findings to the same keys.
        counters = ", ".join(f"{c} = {c} * %(n)s" for c in _rollup_counters(cursor, "audit_rollup"))
        cursor.execute(f"UPDATE audit_rollup SET {counters}", {"n": copies})
        counters = ", ".join(f"{c} = {c} * %(n)s" for c in _rollup_counters(cursor, "audit_rollupfinding"))
        cursor.execute(f"UPDATE audit_rollupfinding SET {counters} WHERE NOT of_shoe", {"n": copies})
        cursor.execute("UPDATE dealing_shoe SET next_position = (SELECT max(position) + 1 FROM dealing_round)")
        copy_s = time.perf_counter() - t0
        log(f"clone (one shoe): {copies} copies in {copy_s:.1f} s")
        cursor.execute("SET session_replication_role = DEFAULT")
        t1 = time.perf_counter()
        for sql in recreate:
            cursor.execute(sql)
        index_s = time.perf_counter() - t1
        for table in ("dealing_round", "dealing_stake", "audit_finding"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        t2 = time.perf_counter()
        for table in ORDER:
            cursor.execute(f"VACUUM (ANALYZE) {table}")
        vacuum_s = time.perf_counter() - t2
    return {
        "copies": copies,
        "base": base,
        "timings_s": {
            "copy": round(copy_s, 1),
            "rebuild indexes": round(index_s, 1),
            "vacuum analyze": round(vacuum_s, 1),
        },
        "seconds": round(time.perf_counter() - started, 1),
        "check": check_one_shoe(copies, base),
        "last": copies - 1,
    }


def _rollup_counters(cursor, table: str) -> list[str]:
    keys = {"id", "day", "shift_date", "shift", "table_id", "dealer_id", "variant", "of_shoe", "code", "severity"}
    keys |= {"status", "classification"}
    return [c for c in _columns(cursor, table) if c not in keys]


def check_one_shoe(copies: int, base: dict) -> dict:
    """As `check`, for `clone_one_shoe`: the rounds, stakes and audit rows are `copies` × the base's,
    and the rollups still sum to what is stored."""
    with connection.cursor() as cursor:
        counts = base_counts(cursor)
        cursor.execute("SELECT coalesce(sum(rounds), 0) FROM audit_rollup")
        rollup_rounds = cursor.fetchone()[0]
        cursor.execute(
            "SELECT count(*) FROM dealing_round r JOIN dealing_roundaudit a ON a.round_id = r.id "
            "WHERE a.status <> 'pending' AND r.supersedes_id IS NULL"
        )
        audited = cursor.fetchone()[0]
        cursor.execute("SELECT coalesce(sum(n) FILTER (WHERE NOT of_shoe), 0) FROM audit_rollupfinding")
        rollup_round_findings = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM audit_finding WHERE round_id IS NOT NULL")
        round_findings = cursor.fetchone()[0]
    wrong = {
        t: (counts[t], copies * base[t])
        for t in ("dealing_round", "dealing_stake", "dealing_roundaudit")
        if counts[t] != copies * base[t]
    }
    if wrong:
        raise AssertionError(f"cloned counts are not {copies} × the base's: {wrong}")
    if rollup_rounds != audited or rollup_round_findings != round_findings:
        raise AssertionError(
            f"rollups {rollup_rounds} rounds, {rollup_round_findings} findings; stored {audited}, {round_findings}"
        )
    return {
        "counts": counts,
        "rollup_rounds": rollup_rounds,
        "audited_rounds_in_force": audited,
        "findings": round_findings,
    }
