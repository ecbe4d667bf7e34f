"""`python manage.py import_rounds FILE.jsonl [--as USERNAME] [--table NAME]`: many round logs, one
per line, checked as the API checks them and written in batches (`dealing.services.rounds_import`:
COPY on PostgreSQL, with their stake rows and chain links).

A refused line is reported with its line number and the import goes on; a summary ends the run,
and the exit status is 1 when any line was refused. FILE may be "-" for standard input. Every
chain's head is signed at the end (a checkpoint, docs/chain.md); the rounds' audits are queued as
each batch commits.

A round keeps its own `played_at` (round/1); one without is dealt when it is imported. Progress goes
to stderr after each batch (not with --verbosity 0); --json writes the summary as one JSON object on
stdout (`stored`, `repeats`, `refused`, and `refusals`: each refused line with its error).
"""

import json as _json
import os
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from casino.models import Table
from dealing import services


class Command(BaseCommand):
    help = "Log round/1 documents from a JSON Lines file (one per line) with the same checks as the API."

    def add_arguments(self, parser):
        parser.add_argument("file", help="A .jsonl file, or - for standard input.")
        parser.add_argument(
            "--as",
            dest="username",
            metavar="USERNAME",
            help="Log every round as this user (a dealer or pit boss of the tables' pits). "
            "By default each round is logged by the dealer it names.",
        )
        parser.add_argument(
            "--table",
            metavar="NAME",
            help="Log every round at this table (the documents may then leave out table.name).",
        )
        parser.add_argument(
            "--batch",
            type=int,
            default=services.IMPORT_BATCH,
            metavar="N",
            help="Lines written per transaction (default %(default)s).",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            metavar="N",
            help="Check the lines in N processes while this one writes (PostgreSQL; default: "
            "one per processor there outside a transaction, else 1: in this one).",
        )
        parser.add_argument("--json", action="store_true", help="Write the summary as JSON on stdout.")

    def handle(
        self, *args, file, username=None, table=None, batch=services.IMPORT_BATCH, jobs=None, json=False, **options
    ):
        self.as_json = json
        self.refusals: list[dict] = []
        self.quiet = options.get("verbosity", 1) == 0
        if jobs is None:
            jobs = default_jobs()
        User = get_user_model()
        user = None
        if username is not None:
            user = User.objects.filter(username=username, is_active=True).first()
            if user is None:
                raise CommandError(f"There is no active user {username!r}.")
        at = None
        if table is not None:
            at = Table.objects.select_related("pit").filter(name=table).first()
            if at is None:
                raise CommandError(f"There is no table named {table!r}.")
        stream = sys.stdin.buffer if file == "-" else self._open(file)
        try:
            summary = services.rounds_import(
                stream,
                logged_by=user,
                table=at,
                refused=self._refused,
                batch=max(1, batch),
                jobs=max(1, jobs),
                progress=None if self.quiet else self._progress,
            )
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
            # Every chain's head signed (docs/chain.md), also when the import stopped part-way: the
            # batches committed before stay. A checkpoint that fails is reported, the rounds stay.
            self._checkpoint()
        if self.as_json:
            self.stdout.write(_json.dumps({**summary.to_dict(), "refusals": self.refusals}))
            if summary.refused:
                raise CommandError(str(summary), returncode=1)
            return
        if summary.refused:
            raise CommandError(str(summary), returncode=1)
        self.stdout.write(str(summary))

    def _refused(self, number, exc):
        if self.as_json:
            where = {key: exc.extra[key] for key in ("code", "path", "event") if exc.extra.get(key) is not None}
            self.refusals.append({"line": number, "message": str(exc.message), **where})
        if not (self.as_json and self.quiet):
            self.stderr.write(f"line {number}: {exc.message}{_where(exc.extra)}")

    def _progress(self, summary):
        self.stderr.write(f"{summary.lines} lines: {summary}")

    def _checkpoint(self):
        check = services.checkpoint_write_all()
        if not check.ok:
            self.stderr.write(f"checkpoint not written: {check.message}")
        for broken in check.breaks:  # signed at their previous head; on the dashboard already
            self.stderr.write(f"chain broken: {broken['chain']}: link {broken['link']}: {broken['problem']}")

    def _open(self, path):
        try:
            return open(path, "rb")
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None


def default_jobs() -> int:
    """One checking process per processor this process may use, on PostgreSQL (each opens its own
    connection). Checking a line costs about twice what writing it does (docs/benchmarks.md), so
    the writer keeps up with them."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:  # forked processes see only what is committed
        return 1
    return max(1, len(os.sched_getaffinity(0)))


def _where(extra: dict) -> str:
    parts = [f"{key} {extra[key]}" for key in ("code", "path", "event") if extra.get(key) is not None]
    return f" ({', '.join(parts)})" if parts else ""
