"""`python manage.py bench_scale --rounds N` (`make bench-scale ROUNDS=N`): bench/scale.py on a
throwaway PostgreSQL database.

`--shape floor` (the default) is the bench floor; `--shape one` is one table, one shoe, one day
holding every round (`--rounds`/`--compare` then 200,000 and 20,000 by default); `--shape both`
runs the floor and then the one-shoe shape (`--one-rounds`, `--one-compare`), each on a database of
its own, and prints both.

The parent creates the database (`--database`, default casino_bench_scale, on the configured
PostgreSQL server or 127.0.0.1), migrates it, runs itself with `--child` against it (DATABASE_URL
set) and drops it afterwards unless `--keep`. It needs a broker for the audit workers
(CELERY_BROKER_URL); without one, the import audits its rounds in its own process.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = "Import N rounds, audit them with 2 workers and time every auditor's page (bench/scale.py)."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=None, help="floor: 1,000,000; one: 200,000")
        parser.add_argument(
            "--compare", type=int, default=None, help="the smaller size timed first (floor: 100,000; one: 20,000)"
        )
        parser.add_argument("--shape", choices=["floor", "one", "both"], default="floor")
        parser.add_argument("--one-rounds", type=int, default=200_000, help="with --shape both: the one-shoe size")
        parser.add_argument("--one-compare", type=int, default=20_000, help="with --shape both: its smaller size")
        parser.add_argument("--repeat", type=int, default=20, help="requests per page (after one to warm up)")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--database", default="casino_bench_scale", help="the throwaway database's name")
        parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
        parser.add_argument("--child", action="store_true", help="run on the configured database (no create/drop)")
        parser.add_argument(
            "--clone",
            action="store_true",
            help="reach --rounds by copying the imported --compare rounds in SQL (bench/clone.py)",
        )
        parser.add_argument(
            "--worker-memory",
            action="store_true",
            help="at each size, 2 workers re-audit the newest day: their peak RSS (bench/workermem.py)",
        )
        parser.add_argument(
            "--previous",
            metavar="FILE",
            help="the --json of an earlier run on this (kept) database: its sizes' pages not timed again",
        )
        parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")

    def handle(self, *args, **opts):
        if opts["shape"] == "both":
            if opts["child"]:
                raise CommandError("--child runs one shape")
            floor = {**opts, "shape": "floor"}
            one = {**opts, "shape": "one", "rounds": opts["one_rounds"], "compare": opts["one_compare"]}
            one["database"] = f"{opts['database']}_one"
            if opts["json"]:
                one["json"] = str(Path(opts["json"]).with_suffix(".one.json"))
            self.handle(*args, **floor)
            return self.handle(*args, **one)
        defaults = (1_000_000, 100_000) if opts["shape"] == "floor" else (200_000, 20_000)
        opts["rounds"] = opts["rounds"] or defaults[0]
        opts["compare"] = opts["compare"] or defaults[1]
        if opts["child"]:
            return self._child(opts)
        server = _server_url()
        name = opts["database"]
        _admin(server, f'DROP DATABASE IF EXISTS "{name}"')
        _admin(server, f'CREATE DATABASE "{name}"')
        env = {
            **os.environ,
            "DATABASE_URL": f"{server}/{name}",
            "ALLOWED_HOSTS": "testserver",
            "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        }
        env.setdefault("AUDIT_QUEUE_LINGER_MS", "100")
        # The pages are timed, not the second factor: the bench's pit boss and auditor have no
        # authenticator, and with it on every page they open would answer a redirect to enrol.
        env["OTP_REQUIRED_ROLES"] = ""
        # The throwaway database's checkpoints go with it, not into the development log.
        env["CHECKPOINT_DIR"] = tempfile.mkdtemp(prefix="bench-scale-checkpoints-")
        try:
            manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True)
            argv = [
                *manage,
                "bench_scale",
                "--child",
                "--rounds",
                str(opts["rounds"]),
                "--compare",
                str(opts["compare"]),
                "--repeat",
                str(opts["repeat"]),
                "--workers",
                str(opts["workers"]),
                "--shape",
                opts["shape"],
            ]
            if opts["json"]:
                argv += ["--json", opts["json"]]
            if opts["clone"]:
                argv.append("--clone")
            if opts["worker_memory"]:
                argv.append("--worker-memory")
            code = subprocess.run(argv, env=env).returncode
        finally:
            if not opts["keep"]:
                _admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if code:
            raise CommandError(f"bench_scale failed (exit {code})", returncode=code)

    def _child(self, opts):
        from django.test.utils import override_settings

        if connection.vendor != "postgresql":
            raise CommandError("bench_scale measures PostgreSQL; set DATABASE_URL")
        # The pages are rendered without `collectstatic` (the manifest's lookup is not what is measured).
        static = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(STORAGES=static):
            self._measure(opts)

    def _measure(self, opts):
        from bench.scale import report, scale_run

        previous = json.loads(Path(opts["previous"]).read_text()) if opts["previous"] else None
        results = scale_run(
            rounds=opts["rounds"],
            compare=opts["compare"],
            repeat=opts["repeat"],
            workers=opts["workers"],
            clone=opts["clone"],
            worker_memory=opts["worker_memory"],
            previous=previous,
            shape=opts["shape"],
            log=lambda line: self.stdout.write(line),
        )
        self.stdout.write(
            f"\nbench-scale, shape {opts['shape']}, {opts['rounds']:,} rounds (compared with {opts['compare']:,}), "
            f"{opts['workers']} audit workers, {os.cpu_count()} cores, load average "
            f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}\n"
        )
        self.stdout.write(report(results))
        if opts["json"]:
            Path(opts["json"]).write_text(json.dumps(results, indent=1, default=str))


def _server_url() -> str:
    """The PostgreSQL server of the configured database, else the local one."""
    db = connection.settings_dict
    if connection.vendor != "postgresql":
        return "postgres://postgres@127.0.0.1:5432"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"


def _admin(server: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(sql)
