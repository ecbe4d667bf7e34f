"""`python manage.py audit_rounds [--all|--table NAME|--since DATE] [--wait] [--json]`

Starts an audit run from the shell: by default over every round in force not audited yet; `--all`
re-audits every round; `--table` (repeatable) and `--since` / `--until` narrow the selection.
With `--wait` it follows the run's progress and prints a summary; with `--json` the last line is
one JSON object: {"rounds": N, "clean": N, "with_findings": N, "errors": N, "findings": {...}}.

Without a broker (CELERY_BROKER_URL unset) the run is audited in this process before the command
returns; with one, workers do it (`make worker`) and `--wait` waits for them.
"""

import json
import sys
import time
from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from audit import services
from audit.choices import RunStatus, RunTrigger
from audit.models import AuditRun
from casino.errors import ServiceError
from casino.models import Table


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a date: write it as YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = "Start an audit run over logged rounds (default: those not audited yet)."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="every round in force, audited or not (re-audit)")
        parser.add_argument(
            "--table", action="append", default=[], metavar="NAME", help="only this table (repeat for several)"
        )
        parser.add_argument("--since", type=_day, metavar="DATE", help="only rounds logged on or after this day")
        parser.add_argument("--until", type=_day, metavar="DATE", help="only rounds logged on or before this day")
        parser.add_argument("--chunk-size", type=int, default=None, help="rounds per chunk (default 500)")
        parser.add_argument("--queue", default="", help="the Celery queue of the run's tasks (default queue)")
        parser.add_argument("--wait", action="store_true", help="follow the progress and print a summary")
        parser.add_argument("--json", action="store_true", help="end with the summary as one JSON object")
        parser.add_argument("--timeout", type=float, default=None, help="give up waiting after this many seconds")

    def handle(self, *args, **opts):
        tables = []
        for name in opts["table"]:
            table = Table.objects.filter(name=name).first()
            if table is None:
                raise CommandError(f"There is no table named {name!r}.")
            tables.append(table)
        try:
            with transaction.atomic():
                run = services.audit_run_start(
                    started_by=None,
                    tables=tables,
                    date_from=opts["since"],
                    date_to=opts["until"],
                    only_unaudited=not opts["all"],
                    trigger=RunTrigger.COMMAND,
                    chunk_size=opts["chunk_size"],
                    queue=opts["queue"],
                )
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"audit run #{run.pk} started "
            f"({'all rounds' if opts['all'] else 'rounds not audited yet'}"
            f"{', tables ' + ', '.join(opts['table']) if opts['table'] else ''}"
            f"{', since ' + str(opts['since']) if opts['since'] else ''})"
        )
        if opts["wait"] or opts["json"]:
            run = self._wait(run.pk, timeout=opts["timeout"], quiet=opts["json"] and not opts["wait"])
            self._summary(run)
        else:
            run.refresh_from_db()
            self.stdout.write(
                f"status: {run.get_status_display()}; follow it with the audit runs page or "
                f"GET /api/v1/audit-runs/{run.pk}/"
            )
        if opts["json"]:
            self.stdout.write(json.dumps(run.summary(), sort_keys=False))
        if run.status == RunStatus.FAILED:
            sys.exit(1)

    def _wait(self, run_id: int, *, timeout: float | None, quiet: bool) -> AuditRun:
        started = time.monotonic()
        shown = None
        while True:
            run = AuditRun.objects.get(pk=run_id)
            line = (
                f"{run.get_status_display()}: {run.rounds_done}/{run.rounds_total if run.planned else '…'} rounds, "
                f"{run.findings_total} findings"
            )
            if line != shown and not quiet:
                self.stdout.write(line)
                shown = line
            if run.is_finished:
                return run
            if timeout is not None and time.monotonic() - started > timeout:
                raise CommandError(
                    f"audit run #{run_id} did not finish within {timeout:g} s (is a worker running? `make worker`)"
                )
            time.sleep(0.5)

    def _summary(self, run: AuditRun) -> None:
        took = run.duration.total_seconds() if run.duration else 0.0
        self.stdout.write(
            f"audit run #{run.pk} {run.get_status_display()} in {took:.1f} s: "
            f"{run.rounds_done} rounds, {run.clean} clean, {run.with_findings} with findings, "
            f"{run.errors} unreadable, {run.findings_total} findings"
        )
        for code, n in sorted(run.findings_by_code.items()):
            self.stdout.write(f"  {code:<22} {n}")
        if run.error:
            self.stdout.write(f"error: {run.error}")
