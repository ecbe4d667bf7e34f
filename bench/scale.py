"""A casino's year on one database: `make bench-scale ROUNDS=N` (`manage.py bench_scale --rounds N`).

    generate   N simulated rounds (dealing.engine.simulators) of a floor of 30 tables (24 ochko, 4
               blackjack salon, 2 veintiuno) and 90 dealers (three to a table) into JSON Lines, each round naming its
               table, dealer and shoe (shoes of about 60 rounds);
    import     `manage.py import_rounds` in a process of its own (rounds/s, its peak RSS), which
               queues every round's audit on the broker;
    audit      2 Celery worker processes (bench/audit.py's `workers_running`) audit what is queued;
    pages      every page and API list an auditor or pit boss opens, timed in this process through
               Django's test client (the whole request: middleware, queries, template), warm, as
               p50/p95 of `repeat` requests each (bench/scale_pages.py).

The database is filled in two steps — first `compare` rounds (100,000 by default), then up to N —
and the pages are timed after each, so the same run prints both sizes side by side with the
growth. Database bytes per round are `pg_database_size` over the rounds stored.

Two shapes of floor (`shape`): `floor`, the 30 tables above with shoes of 60 rounds; and `one`,
ONE table, ONE shoe, ONE day holding every round — what a dealer who never starts a new shoe, or
an API client that sends no shoe, produces (issue #33). A page that reads everything of a table, a
shoe or a day grows there even when it stays flat on the floor.

The parent (`bench_scale` without `--child`) creates a throwaway PostgreSQL database per shape,
migrates it, runs the child against it and drops it (`--keep` keeps it, for EXPLAIN ANALYZE afterwards).
"""

import inspect
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from casino.models import Pit, Staff, Table
from dealing import chain
from dealing import services as dealing_services
from dealing.engine.simulators import module as simulator
from dealing.models import Round, Shoe, ShoeEvent

ROOT = Path(settings.BASE_DIR)
User = get_user_model()

# The floor's tables, as data: (name, game, house rules, boxes, limits, chips, decks a shoe).
_HIGH, _LOW = (Decimal(100), Decimal(5000)), (Decimal(5), Decimal(100))
_CHIPS, _SMALL_CHIPS = ["100", "500", "1000", "5000"], ["5", "10", "25", "100"]
TABLES = (
    [(f"S-{k:02d}", "ochko", {}, 6, _HIGH, _CHIPS, 1) for k in range(1, 25)]
    + [(f"B-{k:02d}", "blackjack", {"preset": "salon"}, 5, _HIGH, _CHIPS, 6) for k in range(1, 5)]
    + [(f"V-{k:02d}", "veintiuno", {}, 6, _LOW, _SMALL_CHIPS, 1) for k in range(1, 3)]
)
# The degenerate shape: one ochko table whose one shoe and one day hold every round.
ONE_TABLE = ("O-01", "ochko", {}, 6, _HIGH, _CHIPS, 1)
SHAPES = ("floor", "one")
DECKS = {name: decks for name, _v, _r, _b, _l, _c, decks in [*TABLES, ONE_TABLE]}
# Three dealers to a table, in turns of 20 rounds, each at one table at a time: at 10 million rounds a
# dealer has dealt about 110,000 (a real dealer's year: 50 an hour, 2,000 hours). Ten dealers shared
# by all 30 tables once gave each a million, ten years of dealing, at 30 tables at once.
CREW = 3
DEALERS = [f"scale-dealer-{k:02d}" for k in range(1, 30 * CREW + 1)]
SHOE_ROUNDS = 60
POOL = 300  # distinct simulated rounds per table, repeated under fresh ids
_ID, _SHOE = "00000000-0000-4000-8000-0000000000ff", "@@SHOE@@"


# --- the floor and the rounds -------------------------------------------------------------------


def floor(shape: str = "floor"):
    """The scale floor (created once): a pit, its 30 tables (shape `one`: its one table), 90
    dealers, a pit boss, an auditor."""
    from django.contrib.auth.models import Group

    from casino.roles import AUDITOR, DEALER, PIT_BOSS

    if shape not in SHAPES:
        raise ValueError(shape)
    pit, _ = Pit.objects.get_or_create(name="Scale" if shape == "floor" else "Scale one")
    tables = []
    for name, variant, rules, boxes, limits, chips, _decks in TABLES if shape == "floor" else [ONE_TABLE]:
        table, _ = Table.objects.get_or_create(
            name=name,
            defaults=dict(
                pit=pit, variant=variant, rules=rules, boxes=boxes, min_bet=limits[0], max_bet=limits[1], chips=chips
            ),
        )
        tables.append(table)
    people = {}
    for username, role in [*[(d, DEALER) for d in DEALERS], ("scale-boss", PIT_BOSS), ("scale-auditor", AUDITOR)]:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        Staff.objects.get_or_create(user=user)[0].pits.add(pit)
        people[username] = user
    return pit, tables, people


def _templates(table: Table, seed: int, mistake_rate: float, crew: list[str]) -> list[str]:
    """POOL simulated rounds of a table as JSON text, with placeholders for the id and the shoe; its
    crew of dealers takes turns of 20 rounds."""
    rng = random.Random(f"{seed}-{table.name}")
    sim = simulator(table.variant)
    out = []
    mistakes = list(sim.MISTAKES)
    # What the game's simulator takes of the table: its preset, the dealer and table names to write.
    takes = inspect.signature(sim.simulate_round).parameters
    for k in range(POOL):
        dealer = crew[(k // 20) % len(crew)]
        kwargs = dict(table_min=table.min_bet, table_max=table.max_bet)
        if "preset" in takes and "preset" in (table.rules or {}):
            kwargs.update(preset=table.rules["preset"])
        if "dealer" in takes:
            kwargs.update(dealer=dealer, table_name=table.name)
        mistake = rng.choice(mistakes) if rng.random() < mistake_rate else None
        try:
            doc = sim.simulate_round(rng, mistake=mistake, **kwargs).doc
        except ValueError:  # no place for that mistake in this round
            doc = sim.simulate_round(rng, **kwargs).doc
        doc["table"] = {"name": table.name, **{k: v for k, v in doc["table"].items() if k != "name"}}
        doc["dealer"] = dealer
        doc["id"] = _ID
        doc["shoe"] = _SHOE
        out.append(json.dumps(chain.json_safe(doc), ensure_ascii=False))
    return out


def generate(
    path: Path,
    tables: list[Table],
    *,
    start: int,
    stop: int,
    seed: int = 2026,
    mistake_rate: float = 0.05,
    shoe_rounds: int = SHOE_ROUNDS,
) -> None:
    """Rounds start…stop-1 of the floor into `path`: round i at table i % 30, in shoe
    (i // 30) // shoe_rounds + 1 of that table (shape `one`: shoe_rounds above every round)."""
    pools = [
        _templates(table, seed, mistake_rate, [DEALERS[(t + i * len(tables)) % len(DEALERS)] for i in range(CREW)])
        for t, table in enumerate(tables)
    ]
    rng = random.Random(seed + start)
    n = len(tables)
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        for i in range(start, stop):
            t, j = i % n, i // n
            text = pools[t][j % POOL]
            uid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            out.write(text.replace(_ID, uid).replace(_SHOE, f"{tables[t].name}/{j // shoe_rounds + 1}"))
            out.write("\n")


def open_shoes(tables: list[Table], people: dict, *, start: int, stop: int, shoe_rounds: int = SHOE_ROUNDS) -> None:
    """The shoes rounds start…stop-1 name, loaded (with their shuffle) if not yet; all open."""
    n = len(tables)
    boss = people["scale-boss"]
    first, last = (start // n) // shoe_rounds + 1, ((stop - 1) // n) // shoe_rounds + 1
    now = timezone.now()
    with transaction.atomic():
        for table in tables:
            have = set(Shoe.objects.filter(table=table).values_list("number", flat=True))
            shoes = [
                Shoe(
                    table=table,
                    number=k,
                    decks=DECKS.get(table.name, 1),
                    loaded_at=now,
                    shuffled_by=boss,
                    next_position=2,
                )
                for k in range(first, last + 1)
                if k not in have
            ]
            Shoe.objects.bulk_create(shoes)
            saved = Shoe.objects.filter(table=table, number__in=[s.number for s in shoes])
            events = ShoeEvent.objects.bulk_create(
                [ShoeEvent(shoe=s, position=1, kind="shuffle", recorded_by=boss, recorded_at=now) for s in saved]
            )
            # A bulk insert sends no save signals: the shuffles are chained here, as the services chain theirs.
            dealing_services.records_touched(ShoeEvent, [e.pk for e in events])


def end_full_shoes(tables: list[Table]) -> None:
    """End every shoe but each table's newest (the next rounds may still fill it)."""
    for table in tables:
        newest = Shoe.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first()
        Shoe.objects.filter(table=table, ended_at__isnull=True, number__lt=newest or 0).update(ended_at=timezone.now())


# --- importing and auditing ---------------------------------------------------------------------


def run_import(path: Path, env: dict) -> dict:
    """`manage.py import_rounds path` in a process of its own: seconds, rounds/s, its peak RSS."""
    started = time.perf_counter()
    err = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "import_rounds", str(path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=err,
        text=True,
    )
    out = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    err.seek(0)
    errors = err.read()
    return {
        "summary": out.strip(),
        "exit": os.waitstatus_to_exitcode(status),
        "seconds": round(seconds, 1),
        "peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "errors": errors[-2000:],
    }


def pending_audits() -> int | None:
    """Rounds not audited yet: their pending audit rows (every writer appends one with the round),
    read through the partial index of those rows."""
    from dealing.choices import AuditStatus
    from dealing.models import RoundAudit

    return RoundAudit.objects.filter(status=AuditStatus.PENDING).count()


def run_audit(*, workers: int, env: dict, queue: str = "audit", timeout: float = 7200) -> dict:
    """Start `workers` worker processes on the queue the import filled; wait until nothing is pending."""
    from bench.audit import workers_running

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"note": "no broker: the import audited each batch in its own process"}
    started = time.perf_counter()
    before = pending_audits()
    with workers_running(
        workers, queue, env={**env, "CONN_MAX_AGE": "600", "AUDIT_SWEEP_INTERVAL_S": "0"}, ready=False
    ):
        deadline = time.monotonic() + timeout
        while True:
            left = pending_audits()
            if left == 0 or (left is None and _queue_length(queue) == 0):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"audits not done within {timeout:g} s ({left} pending)")
            time.sleep(0.5)
    seconds = time.perf_counter() - started
    return {
        "audited": before,
        "seconds": round(seconds, 1),
        "rounds_per_s": round(before / seconds) if before else None,
    }


def _queue_length(queue: str) -> int:
    from casino.celery import app

    with app.connection_for_write() as conn:
        return conn.default_channel.client.llen(queue)


def database_bytes() -> dict:
    rounds = Round.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        total = cursor.fetchone()[0]
        cursor.execute(
            "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') "
            "ORDER BY 2 DESC LIMIT 6"
        )
        biggest = {name: size for name, size in cursor.fetchall()}
    return {
        "rounds": rounds,
        "database_bytes": total,
        "bytes_per_round": round(total / rounds) if rounds else None,
        "largest_tables_mb": {k: round(v / 2**20, 1) for k, v in biggest.items()},
    }


# --- the whole run ------------------------------------------------------------------------------


def scale_run(
    *,
    rounds: int,
    compare: int = 100_000,
    repeat: int = 20,
    workers: int = 2,
    workdir: Path | None = None,
    clone: bool = False,
    worker_memory: bool = False,
    previous: dict | None = None,
    shape: str = "floor",
    log=print,
) -> dict:
    """Fill the configured database to `compare` then `rounds` rounds; time the pages at each size.

    With `clone`, the rounds above `compare` are not imported: the imported and audited `compare`
    rounds are copied in SQL (bench/clone.py) to ⌈rounds / compare⌉ times as many. With
    `worker_memory`, 2 workers re-audit the newest day of 6 tables at each size (bench/workermem.py). `previous`
    holds the figures of a size already in the database (a run continued on a kept database): its
    pages are not timed again. `shape`: `floor` (30 tables, shoes of 60 rounds) or `one` (one table,
    one shoe, one day: every round)."""
    pit, tables, people = floor(shape)
    # Shape `one`: a shoe number that no round reaches, so every round names shoe 1.
    shoe_rounds = SHOE_ROUNDS if shape == "floor" else rounds + 1
    env = {**os.environ}
    workdir = Path(workdir or tempfile.mkdtemp(prefix="bench-scale-"))
    sizes = sorted({min(compare, rounds), rounds})
    done = Round.objects.count()
    # A continued run: the sizes already timed are those of the database as it was left (the import
    # may have refused a few lines of `compare`).
    prior = {v["storage"]["rounds"]: v for v in (previous or {}).values()}
    if done in prior:
        sizes = sorted({done, rounds})
    results = {}
    for size in sizes:
        cloned = {}
        if size > done and clone and done:
            from bench.clone import clone as clone_rounds
            from bench.clone import clone_one_shoe

            # Whole copies: at least `size` rounds (shape `one`: in its one shoe, on its one day).
            cloned = (clone_rounds if shape == "floor" else clone_one_shoe)(-(-size // done), log=log)
            log(f"[{size:,}] clone: {json.dumps({k: v for k, v in cloned.items() if k != 'check'}, default=str)}")
            done = Round.objects.count()
            imported = audited = {}
        elif size > done:
            path = workdir / f"rounds-{done}-{size}.jsonl"
            t0 = time.perf_counter()
            generate(path, tables, start=done, stop=size, shoe_rounds=shoe_rounds)
            gen_s = time.perf_counter() - t0
            log(f"[{size:,}] generated {size - done:,} rounds in {gen_s:.1f} s ({path.stat().st_size / 2**20:.0f} MB)")
            open_shoes(tables, people, start=done, stop=size, shoe_rounds=shoe_rounds)
            imported = run_import(path, env)
            imported["rounds_per_s"] = round((size - done) / imported["seconds"]) if imported["seconds"] else None
            log(f"[{size:,}] import: {json.dumps(imported)}")
            path.unlink()
            end_full_shoes(tables)
            audited = run_audit(workers=workers, env=env)
            log(f"[{size:,}] audit: {json.dumps(audited)}")
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            done = size
        else:
            imported = audited = {}
        if size in prior and not imported and not cloned:
            results[size] = {**prior[size], "pages_from": "a previous run on this database"}
        else:
            load = os.getloadavg()[0]
            from .scale_pages import pages  # it reads this module's floor: imported when used

            timed = pages(tables=tables, people=people, repeat=repeat)
            results[size] = {
                "shape": shape,
                "import": imported,
                "audit": audited,
                "clone": cloned,
                "pages": timed,
                "load_average": [round(load, 1), round(os.getloadavg()[0], 1)],
                "storage": database_bytes(),
            }
            log(f"[{size:,}] storage: {json.dumps(results[size]['storage'])}")
        if worker_memory:
            from bench.workermem import worker_memory as measure_workers

            results[size]["worker_memory"] = measure_workers(workers=workers, env=env, tables=tables[:6])
            log(f"[{size:,}] worker memory: {json.dumps(results[size]['worker_memory'])}")
    return results


def workers_line(mem: dict) -> str:
    return (
        f"{len(mem['worker_peak_rss_mb'])} workers re-auditing the newest day of {len(mem['tables'])} tables "
        f"({mem['rounds_audited']:,} rounds, "
        f"{mem['rounds_per_s']} rounds/s): peak RSS {mem['worker_peak_rss_mb']} MB "
        f"(ready: {mem['worker_peak_rss_mb_ready']} MB)"
    )


P95_BUDGET_MS = 300
GROWTH_BUDGET = 1.5


def over_budget(results: dict) -> dict[str, str]:
    """The pages of the largest size whose p95 is at or over P95_BUDGET_MS, or above GROWTH_BUDGET
    times their p95 at the smallest size, with why (a streamed download is judged by its first rows:
    a whole export grows with what it exports)."""
    sizes = sorted(results)
    small, big = results[sizes[0]]["pages"], results[sizes[-1]]["pages"]
    out = {}
    for name, row in big.items():
        key = "first_rows_p95_ms" if "first_rows_p95_ms" in row else "p95_ms"
        p95, before = row[key], small.get(name, {}).get(key)
        why = []
        if row["status"] != 200:
            why.append(f"HTTP {row['status']}")
        if p95 >= P95_BUDGET_MS:
            why.append(f"p95 {p95:.0f} ms")
        if before and len(sizes) > 1 and p95 > GROWTH_BUDGET * before:
            why.append(f"×{p95 / before:.2f} of {before:.0f} ms")
        if why:
            out[name] = ", ".join(why)
    return out


def report(results: dict) -> str:
    """The table printed (and put in docs/benchmarks.md by hand): p50/p95 per page at each size."""
    sizes = sorted(results)
    small, big = sizes[0], sizes[-1]
    lines = [
        f"| page / API list | p50 / p95 at {small:,} (ms) | p50 / p95 at {big:,} (ms) | p95 growth |",
        "|---|---:|---:|---:|",
    ]
    for name, row in results[big]["pages"].items():
        first = results[small]["pages"][name]
        growth = row["p95_ms"] / first["p95_ms"] if first["p95_ms"] else 0
        status = "" if row["status"] == 200 else f" (HTTP {row['status']})"
        lines.append(
            f"| {name}{status} | {first['p50_ms']:.0f} / {first['p95_ms']:.0f} | "
            f"{row['p50_ms']:.0f} / {row['p95_ms']:.0f} | ×{growth:.2f} |"
        )
        if "first_rows_p95_ms" in row and "first_rows_p95_ms" in first:
            lines.append(
                f"| {name}: its first rows | {first['first_rows_p50_ms']:.0f} / "
                f"{first['first_rows_p95_ms']:.0f} | {row['first_rows_p50_ms']:.0f} / "
                f"{row['first_rows_p95_ms']:.0f} | ×{row['first_rows_p95_ms'] / first['first_rows_p95_ms']:.2f} |"
            )
    lines.append("")
    over = over_budget(results)
    if len(sizes) > 1:
        lines.append(
            f"Over the budget at {big:,} (p95 ≥ {P95_BUDGET_MS} ms, or above {GROWTH_BUDGET}× its p95 at {small:,}): "
            + ("; ".join(f"{name} ({why})" for name, why in over.items()) if over else "none")
        )
        lines.append("")
    for size in sizes:
        imp, aud, sto = results[size]["import"], results[size]["audit"], results[size]["storage"]
        if imp:
            lines.append(
                f"- up to {size:,} rounds: import {imp.get('rounds_per_s')} rounds/s "
                f'({imp.get("seconds")} s, peak RSS {imp.get("peak_rss_mb")} MB, "{imp.get("summary")}"); '
                f"audit with workers {aud.get('rounds_per_s', aud.get('note'))} rounds/s "
                f"({aud.get('seconds', '-')} s)"
            )
        cl = results[size].get("clone")
        if cl:
            lines.append(
                f"- up to {size:,} rounds: cloned in SQL, {cl['copies']} copies of the base in {cl['seconds']} s "
                f"({cl['timings_s']}); Σ rollup rounds {cl['check']['rollup_rounds']:,} = audited rounds "
                f"in force {cl['check']['audited_rounds_in_force']:,}"
            )
        mem = results[size].get("worker_memory")
        if mem and "note" not in mem:
            lines.append(f"- at {size:,} rounds: {workers_line(mem)}")
        if results[size].get("load_average"):
            lines.append(
                f"- at {size:,} rounds: load average (1 min) {results[size]['load_average'][0]} when the "
                f"pages' timing began, {results[size]['load_average'][1]} when it ended"
            )
        lines.append(
            f"- at {size:,} rounds: {sto['database_bytes'] / 2**20:,.0f} MB of database, "
            f"{sto['bytes_per_round']:,} bytes per round; largest: {sto['largest_tables_mb']}"
        )
    return "\n".join(lines)
