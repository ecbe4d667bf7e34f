"""`python manage.py verify_chain [--table NAME] [--record]`: check every chain of the store.

Walks every table's round records with their stake rows, the approvals' chain and the checkpoint
log (dealing.services.chain_verify), streaming, so memory stays flat however long the chains.
Prints "chain intact (…)" (exit 0), or one line per chain that breaks — chain, stored table, link,
row id, what is wrong — (exit 1). With --record the outcome is stored for the audit dashboard.
"""

from django.core.management.base import BaseCommand, CommandError

from casino.models import Table
from dealing import services


class Command(BaseCommand):
    help = (
        "Check the keyed chains of rounds, stakes and approvals and the signed checkpoints: "
        "'chain intact' or the first broken link of each chain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--table", metavar="NAME", help="Only this table's chain (and the checkpoint log).")
        parser.add_argument("--record", action="store_true", help="Store the outcome for the audit dashboard.")

    def handle(self, *args, table=None, record=False, **options):
        only = None
        if table is not None:
            only = Table.objects.filter(name=table).first()
            if only is None:
                raise CommandError(f"There is no table named {table!r}.")
        report = services.chain_verify(table=only, record=record)
        for note in report.notes:
            self.stderr.write(f"note: {note}")
        if not report.ok:
            raise CommandError(
                "chain broken: " + "\nchain broken: ".join(str(b) for b in report.breaks) + f"\n({report.summary()})",
                returncode=1,
            )
        self.stdout.write(f"chain intact ({report.summary()})")
