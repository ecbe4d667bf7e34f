"""`python manage.py link_records`: give a link to every row of a chained relation that has none.

Once, after the migration that chains a relation (the rows stored before it have no link), and at
the end of the demo floor (its loaders write some rows in bulk). On a live store run `verify_chain`
first: a row inserted behind the application's back would be sealed too (docs/chain.md).
"""

from django.core.management.base import BaseCommand

from dealing import services


class Command(BaseCommand):
    help = "Link every row of the chained relations that no link knows yet (after a migration; the demo floor)."

    def handle(self, *args, **options):
        done = services.records_link_unlinked()
        total = sum(done.values())
        self.stdout.write(
            f"{total} rows linked ({', '.join(f'{name}: {n}' for name, n in done.items() if n) or 'none'})"
        )
