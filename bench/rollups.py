"""The dashboard and the dealers' error rates at scale, by hand (not part of `make bench`):

    DATABASE_URL=postgres://… DEBUG=1 python -m bench.rollups load --rounds 100000
    DATABASE_URL=postgres://… DEBUG=1 python -m bench.rollups pages [--repeat 15] [--explain]

`load` makes a floor of its own (pit "bench-rollups": 10 tables, 30 dealers), loads the rounds with
the audit bench's loader (bench/audit.py), spreads them over the last 30 days (the loader logs them
all now) and audits them in this process, chunk by chunk, as a run's workers would — so the
findings, the audit status and the rollups are written the way they are in production. It prints
the audit's rounds a second.
`pages` times the audit dashboard (`/audit/`) and the error rates (`/audit/dealers.csv`) for an auditor
with the Django test client — p50 and p95 over `--repeat` requests after one warm-up — and with
`--explain` prints EXPLAIN ANALYZE of the dashboard's queries.
"""

import argparse
import os
import statistics
import sys
import time


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()


def load(rounds: int, *, tables: int = 10, dealers: int = 30, days: int = 30, chunk: int = 500) -> None:
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection

    from audit import services
    from bench.audit import load_rounds
    from casino.models import Pit, Staff, Table
    from casino.roles import AUDITOR, DEALER
    from dealing.models import Round

    User = get_user_model()
    pit, _ = Pit.objects.get_or_create(name="bench-rollups")
    group = Group.objects.get_or_create(name=DEALER)[0]
    people = []
    for k in range(dealers):
        user, created = User.objects.get_or_create(username=f"bench-rollups-{k}")
        if created:
            user.groups.add(group)
            Staff.objects.create(user=user).pits.add(pit)
        people.append(user)
    auditor, created = User.objects.get_or_create(username="bench-rollups-auditor")
    if created:
        auditor.groups.add(Group.objects.get_or_create(name=AUDITOR)[0])
        Staff.objects.create(user=auditor)
    per_table = rounds // tables
    started = time.monotonic()
    first_id = (Round.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    for t in range(tables):
        table, _ = Table.objects.get_or_create(
            name=f"bench-rollups-{t}",
            defaults={
                "pit": pit,
                "variant": "ochko",
                "min_bet": Decimal(100),
                "max_bet": Decimal(5000),
                "boxes": 6,
                "chips": ["100", "500", "1000", "5000"],
            },
        )
        # Three dealers a table, taking turns by the thousand rounds.
        for part in range(0, per_table, 1000):
            dealer = people[(t * 3 + part // 1000) % dealers]
            for _batch in load_rounds(
                table=table,
                dealer=dealer,
                n=min(1000, per_table - part),
                seed=t * 1000 + part,
                mistake_rate=0.1,
                pool=200,
            ):
                pass
    print(f"loaded {per_table * tables} rounds in {time.monotonic() - started:.1f} s", flush=True)
    with connection.cursor() as cursor:
        # The loader logs every round now; spread them over the last `days` days, in id order.
        cursor.execute(
            "UPDATE dealing_round SET logged_at = now() - (interval '1 second' * "
            "((SELECT max(id) FROM dealing_round) - id) * (%s * 86400.0 / %s)) WHERE id >= %s",
            [days, rounds, first_id],
        )
        cursor.execute("UPDATE dealing_round SET played_at = logged_at WHERE id >= %s", [first_id])
    ids = list(
        Round.objects.filter(pk__gte=first_id, audit_status="pending").order_by("pk").values_list("pk", flat=True)
    )
    started = time.monotonic()
    for k in range(0, len(ids), chunk):
        services.rounds_audit(round_ids=ids[k : k + chunk])
    spent = time.monotonic() - started
    print(f"audited {len(ids)} rounds in {spent:.1f} s: {len(ids) / spent:.0f} rounds/s (one process)", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def pages(repeat: int, explain: bool) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    auditor = get_user_model().objects.get(username="bench-rollups-auditor")
    client = Client(HTTP_HOST="localhost")
    client.force_login(auditor)
    for path in ("/audit/", "/audit/dealers.csv"):
        assert client.get(path).status_code == 200, path  # warm-up
        times = []
        for _k in range(repeat):
            started = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"{path:16} p50 {statistics.median(times):8.1f} ms   p95 {p95:8.1f} ms   (n={repeat})", flush=True)
    if explain:
        with CaptureQueriesContext(connection) as queries:
            client.get("/audit/")
        with connection.cursor() as cursor:
            for q in queries.captured_queries:
                sql = q["sql"]
                if "audit_rollup" not in sql and "dealing_round" not in sql:
                    continue
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS OFF, TIMING ON) " + sql)
                plan = [row[0] for row in cursor.fetchall()]
                print("\n-- " + sql[:300])
                print("\n".join(plan[:14] + (plan[-2:] if len(plan) > 14 else [])))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rollups")
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("load")
    p.add_argument("--rounds", type=int, default=100_000)
    p = sub.add_parser("pages")
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--explain", action="store_true")
    args = parser.parse_args(argv)
    _setup()
    if args.what == "load":
        load(args.rounds)
    else:
        pages(args.repeat, args.explain)


if __name__ == "__main__":
    main(sys.argv[1:])
