from datetime import timedelta

from django.core.management.base import BaseCommand

from live import services


class Command(BaseCommand):
    help = "Delete the live events older than LIVE_EVENT_MAX_AGE_H hours (or --hours)."

    def add_arguments(self, parser):
        parser.add_argument("--hours", type=float, default=None)

    def handle(self, *args, hours=None, **options):
        age = timedelta(hours=hours) if hours is not None else None
        deleted = services.events_prune(older_than=age)
        self.stdout.write(f"{deleted} live events deleted")
