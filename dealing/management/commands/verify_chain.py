"""`python manage.py verify_chain [--table NAME]`: walk every table's hash chain of round records.

Prints "chain intact" (exit 0) or the first broken link — table, link index, round id, what is
wrong — (exit 1). Records are streamed in chain order, so memory stays flat however long the chain.
"""

from django.core.management.base import BaseCommand, CommandError

from casino.models import Table
from dealing import chain
from dealing.models import Round

CHUNK = 2000


class Command(BaseCommand):
    help = "Check the hash chain of every table's round records (or one table's): 'chain intact' or the first broken link."

    def add_arguments(self, parser):
        parser.add_argument("--table", metavar="NAME", help="Only this table's chain.")

    def handle(self, *args, table=None, **options):
        tables = Table.objects.order_by("name")
        if table is not None:
            tables = tables.filter(name=table)
            if not tables.exists():
                raise CommandError(f"There is no table named {table!r}.")
        records = 0
        for t in tables.iterator():
            counted = _Counted(Round.objects.filter(table=t).order_by("chain_index").select_related("supersedes")
                               .only(*chain.HASHED_FIELDS, "supersedes__sha256").iterator(chunk_size=CHUNK))
            broken = chain.verify_table(t, counted)
            records += counted.n
            if broken is not None:
                round_id = broken.round_id if broken.round_id is not None else "-"
                raise CommandError(
                    f"chain broken: table {broken.table}, link {broken.chain_index}, round id {round_id}: "
                    f"{broken.problem}", returncode=1)
        self.stdout.write(f"chain intact ({records} records, {tables.count()} tables)")


class _Counted:
    """An iterator that counts what passes through it."""

    def __init__(self, iterator):
        self.iterator = iterator
        self.n = 0

    def __iter__(self):
        for item in self.iterator:
            self.n += 1
            yield item
