"""`python manage.py signals_scan [--from DATE --to DATE | --days N] [--json]`

Runs the integrity signals' tests (books/integrity/detection.py, docs/signals.md) over the rounds, incidents
and procedure findings of a period (both dates included) and stores what they flag. Without
dates: the SIGNALS_WINDOW_DAYS days up to yesterday, as the daily Celery beat task does. Running it
twice over the same period stores each signal once.
"""

import json
from datetime import date, timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from books.integrity import services
from casino.errors import ServiceError


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"{value!r} is not a date: write it as YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = "Scan a period for integrity signals (default: the daily window up to yesterday)."

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="date_from", type=_day, metavar="DATE", help="first day of the period")
        parser.add_argument(
            "--to", dest="date_to", type=_day, metavar="DATE", help="last day of the period (default: yesterday)"
        )
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="the period's length in days, ending --to (default SIGNALS_WINDOW_DAYS)",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    def handle(self, *args, **opts):
        if opts["days"] is not None and opts["days"] < 1:
            raise CommandError("--days is a number of days, 1 or more.")
        if opts["date_from"] is None and opts["date_to"] is None and opts["days"] is None:
            result = services.signals_scan_daily()
        else:
            date_to = opts["date_to"] or timezone.localdate() - timedelta(days=1)
            date_from = opts["date_from"]
            if date_from is None:
                date_from = date_to - timedelta(days=(opts["days"] or settings.SIGNALS_WINDOW_DAYS) - 1)
            try:
                result = services.signals_scan(date_from=date_from, date_to=date_to)
            except ServiceError as exc:
                raise CommandError(exc.message) from None
        summary = result.summary()
        if opts["json"]:
            self.stdout.write(json.dumps(summary))
        else:
            self.stdout.write(
                f"{summary['from']} to {summary['to']}: {summary['tests']} tests, "
                f"{summary['created']} new signals, {summary['updated']} updated."
            )
