"""`python manage.py verify_chain [--table NAME] [--record]`: check every chain of the store.

Walks every table's round records with their stake rows, the approvals' chain, every chained
relation of the rest of the record (incidents, verdicts, findings, reviews, shifts, float events,
shoe events, the security log, users: each row against its latest link) and the checkpoint
log (dealing.services.chain_verify), streaming, so memory stays flat however long the chains.
Prints "chain intact (…)" (exit 0), or one line per chain that breaks — chain, stored table, link,
row id, what is wrong — (exit 1). With --record the outcome is stored for the audit dashboard.
Progress goes to stderr as the walk goes (not with --verbosity 0); --json writes the report as one
JSON object on stdout (the exit status is the same).
"""

import json as _json

from django.core.management.base import BaseCommand, CommandError

from casino.models import Table
from dealing import services


class Command(BaseCommand):
    help = (
        "Check the keyed chains of rounds, stakes, approvals and the rest of the record, and the signed checkpoints: "
        "'chain intact' or the first broken link of each chain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--table", metavar="NAME", help="Only this table's chain (and the checkpoint log).")
        parser.add_argument("--record", action="store_true", help="Store the outcome for the audit dashboard.")
        parser.add_argument("--json", action="store_true", help="Write the report as JSON on stdout.")

    def handle(self, *args, table=None, record=False, json=False, **options):
        only = None
        if table is not None:
            only = Table.objects.filter(name=table).first()
            if only is None:
                raise CommandError(f"There is no table named {table!r}.")
        quiet = options.get("verbosity", 1) == 0
        report = services.chain_verify(table=only, record=record, progress=None if quiet else self._progress)
        if json:
            self.stdout.write(_json.dumps(report.to_dict()))
            if not report.ok:
                raise CommandError(f"chain broken ({report.summary()})", returncode=1)
            return
        for note in report.notes:
            self.stderr.write(f"note: {note}")
        if not report.ok:
            raise CommandError(
                "chain broken: " + "\nchain broken: ".join(str(b) for b in report.breaks) + f"\n({report.summary()})",
                returncode=1,
            )
        self.stdout.write(f"chain intact ({report.summary()})")

    def _progress(self, report):
        self.stderr.write(f"{report.records} records, {report.tables} tables checked")
