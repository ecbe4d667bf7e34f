"""`manage.py bench_evaluation --rounds 50000`: a player's year evaluated, and the chunked read of a
floor-wide scan with its memory (bench/evaluation.py). Prints its figures; docs/benchmarks.md keeps
the ones recorded."""

import json

from django.core.management.base import BaseCommand

from bench import evaluation


class Command(BaseCommand):
    help = "Time a player's evaluation over a year of rounds and the scan's chunked read."

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=50000)
        parser.add_argument("--repeat", type=int, default=5)
        parser.add_argument("--chunk", type=int, default=200, help="shoes a chunk of the scan's read")
        parser.add_argument("--skip-chunks", action="store_true")
        parser.add_argument(
            "--pages", action="store_true", help="also time the page and the API over a year, as an auditor asks them"
        )

    def handle(self, *args, **opts):
        out = {"load": evaluation.load(opts["rounds"])}
        self.stdout.write(json.dumps(out))
        out["year"] = evaluation.year(repeat=opts["repeat"])
        self.stdout.write(json.dumps(out["year"]))
        if opts["pages"]:
            out["pages"] = evaluation.pages(repeat=opts["repeat"])
            self.stdout.write(json.dumps(out["pages"]))
        if not opts["skip_chunks"]:
            out["chunks"] = evaluation.chunks(chunk=opts["chunk"])
            self.stdout.write(json.dumps(out["chunks"]))
