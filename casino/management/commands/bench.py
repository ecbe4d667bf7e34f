"""`python manage.py bench`: the benchmarks reported in docs/benchmarks.md (`make bench`)."""

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run the benchmarks (none yet: they come with the engine and the audit)."

    def handle(self, *args, **options):
        self.stdout.write("no benchmarks yet")
