"""`python manage.py bench_live` (`make bench-live`): 200 stream clients on one uvicorn process while
rounds are logged; prints event latency and the process's memory as JSON (bench/live_load.py)."""

import json

from django.core.management.base import BaseCommand

from bench import live_load


class Command(BaseCommand):
    help = "Hold N live streams on one uvicorn process while rounds are logged: event latency p50/p95, RSS."

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=200)
        parser.add_argument("--rounds", type=int, default=60)
        parser.add_argument("--interval", type=float, default=0.5, help="seconds between two rounds logged")

    def handle(self, *args, clients, rounds, interval, **options):
        result = live_load.run(clients=clients, rounds=rounds, interval=interval)
        self.stdout.write(json.dumps(result, indent=2))
