"""A player's year evaluated, and the chunked read a floor-wide scan uses (issue 38, item 5):
`manage.py bench_evaluation --rounds 50000` (docs/benchmarks.md, "Player evaluation").

    load      `rounds` simulated blackjack salon rounds (dealing.engine's simulator, real shoes to
              the cut) at a throwaway table, the watched player on box 1 of every round, the other
              boxes other players' — stored through dealing's bulk import, as production stores;
    year      the evaluation the page and the API compute: the selector (his stakes, the shoes,
              their rounds, three queries) and the engine's pure evaluation, timed apart and
              together, `repeat` times warm (min / median / max);
    chunks    every shoe of the period read through `floor_shoes` (keyset over shoes, `chunk` at
              a time) and each evaluated for its players, with the process's peak RSS before and
              after and tracemalloc's peak of Python allocations: flat when it does not grow with
              the rounds read.
"""

import datetime as dt
import gc
import json
import random
import resource
import statistics
import time
import tracemalloc
from contextlib import closing

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from audit.dashboard import Period
from books.protection import selectors
from casino import collector
from casino.models import Pit, Staff, Table
from casino.roles import AUDITOR, DEALER
from dealing.engine import evaluation, native, protection
from dealing.engine.blackjack.simulator import simulate_shoe
from dealing.models import Shoe, ShoeEvent
from dealing.services.bulk import rounds_import

PLAYER = "bench-watched"
User = get_user_model()


def _people():
    pit, _ = Pit.objects.get_or_create(name="Bench evaluation")
    table, _ = Table.objects.get_or_create(
        name="BE-1",
        defaults=dict(
            pit=pit, variant="blackjack", rules={"preset": "salon"}, boxes=5, min_bet=100, max_bet=5000, chips=["100"]
        ),
    )
    people = {}
    for name, role in (("bench-eval-dealer", DEALER), ("bench-eval-auditor", AUDITOR)):
        user, created = User.objects.get_or_create(username=name)
        if created:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
            Staff.objects.create(user=user).pits.add(pit)
        people[role] = user
    return table, people


def load(rounds: int, *, seed: int = 38) -> dict:
    """Store `rounds` rounds (in whole shoes) at the bench table unless they are there already."""
    table, people = _people()
    have = Shoe.objects.filter(table=table).count()
    if have:
        return {"loaded": 0, "shoes": have}
    dealer = people[DEALER]
    doc = simulate_shoe(
        random.Random(seed), rounds=rounds, preset="salon", table_min=100, table_max=5000, boxes=(2, 5), errors=0.05
    )
    started = time.perf_counter()
    number, lines, shoes = 0, [], 0
    for item in doc["items"]:
        if item["e"] == "shuffle":
            if lines:
                rounds_import(lines, logged_by=dealer)
                lines = []
            number += 1
            shoe = Shoe.objects.create(table=table, number=number, decks=6, shuffled_by=dealer, next_position=2)
            ShoeEvent.objects.create(shoe=shoe, position=1, kind="shuffle", recorded_by=dealer)
            shoes += 1
            continue
        r = item["round"]
        for stake in r["stakes"]:
            if stake["box"] == 1:
                stake["player"] = PLAYER
        r["table"] = {**r["table"], "name": table.name}
        r["dealer"] = dealer.username
        r["shoe"] = f"{table.name}/{number}"
        lines.append(json.dumps(r, default=str).encode())
    if lines:
        rounds_import(lines, logged_by=dealer)
    return {"loaded": rounds, "shoes": shoes, "load_seconds": round(time.perf_counter() - started, 1)}


def _spread(times: list[float]) -> dict:
    return {"min": round(min(times), 3), "median": round(statistics.median(times), 3), "max": round(max(times), 3)}


def _counted(shoes, tally: list):
    """The shoes as they pass, counted (shoes, rounds) into `tally`."""
    for shoe in shoes:
        tally[0] += 1
        tally[1] += len(shoe.rounds)
        yield shoe


def year(*, repeat: int = 5) -> dict:
    """The watched player's evaluation as the page and the API compute it (`views.evaluate` over the
    longest period they offer, a year: his stakes read, then his shoes streamed through the
    evaluation, and the summary), `repeat` times after one warm-up (the game math loaded). "read" is
    his stakes' query; "evaluate" the shoes' queries and rounds, streamed through the engine."""
    from books.protection.views import evaluate as page_evaluate

    _table, people = _people()
    auditor = people[AUDITOR]
    today = timezone.localdate()
    period = Period(today - dt.timedelta(days=365), today)
    page_evaluate(auditor, PLAYER, period)  # warm: the option tables and solvers loaded
    read, judge, total, cpu, read_cpu, judge_cpu, dropped, whole = [], [], [], [], [], [], [], []
    for _ in range(repeat):
        shoes = report = None
        gc.collect()
        tally = [0, 0]
        # As the page and the API run it: the collector paused over the request (casino/collector.py),
        # the year dropped before it ends.
        with collector.paused():
            c0, t0 = time.process_time(), time.perf_counter()
            shoes = selectors.player_shoes(auditor, PLAYER, date_from=period.date_from, date_to=period.date_to)
            c1, t1 = time.process_time(), time.perf_counter()
            with closing(shoes):
                report = evaluation.evaluate(_counted(shoes, tally), player=PLAYER)
            summary = report.summary()
            c2, t2 = time.process_time(), time.perf_counter()
            shoes = report = None
            t3 = time.perf_counter()
        counted = tally
        read.append(t1 - t0)
        judge.append(t2 - t1)
        total.append(t2 - t0)
        dropped.append(t3 - t2)
        whole.append(t3 - t0)
        # CPU of this process only (PostgreSQL's share of the read is not in it): on a shared machine
        # the wall clock measures the other sessions too.
        cpu.append(c2 - c0)
        read_cpu.append(c1 - c0)
        judge_cpu.append(c2 - c1)
    return {
        "engine": native.implementation(),
        "player rounds": summary["rounds"],
        "shoes": counted[0],
        "rounds read": counted[1],
        "decisions": summary["decisions"],
        "read s": _spread(read),
        "evaluate s": _spread(judge),
        "total s": _spread(total),
        "dropped s (the year freed, after the total)": _spread(dropped),
        "total with the year dropped s": _spread(whole),
        "total cpu s (this process)": _spread(cpu),
        "read cpu s": _spread(read_cpu),
        "evaluate cpu s": _spread(judge_cpu),
    }


def pages(*, repeat: int = 5) -> dict:
    """The player evaluation page and its API over a year (`?days=365`), requested as the auditor
    through Django's test client (every middleware, the view, the template or the serializer; no
    HTTP server): wall and CPU seconds of this process per request, `repeat` times after a warm-up."""
    from django.test import Client
    from django.urls import reverse

    _table, people = _people()
    client = Client()
    client.force_login(people[AUDITOR])
    out = {}
    for name, url in (
        ("page", reverse("books:player_evaluation", args=[PLAYER])),
        ("api", reverse("api:books:player-evaluation", args=[PLAYER])),
    ):
        assert client.get(url, {"days": 365}).status_code == 200
        wall, cpu = [], []
        for _ in range(repeat):
            gc.collect()
            c0, t0 = time.process_time(), time.perf_counter()
            answered = client.get(url, {"days": 365})
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            assert answered.status_code == 200
        out[f"{name} s"] = _spread(wall)
        out[f"{name} cpu s"] = _spread(cpu)
    return out


def chunks(*, chunk: int = selectors.SCAN_CHUNK_SHOES, window: int = 500) -> dict:
    """Every shoe through the chunked read, its shoe states, and the watched player's evaluation
    where he sat; tracemalloc's peak of Python allocations per `window` shoes (flat memory: the
    later windows' peaks are no higher than the first's)."""
    today = timezone.localdate()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    tracemalloc.start()
    started, cpu = time.perf_counter(), time.process_time()
    rounds = shoes = 0
    peaks = []
    for log in selectors.floor_shoes(date_from=today - dt.timedelta(days=1), date_to=today, chunk=chunk):
        shoes += 1
        rounds += len(log.rounds)
        states = [protection.shoe_states(log.variant, log.items(), decks=log.decks)]
        evaluation.evaluate([log], player=PLAYER, states=states)
        if shoes % window == 0:
            peaks.append(round(tracemalloc.get_traced_memory()[1] / 2**20, 1))
            tracemalloc.reset_peak()
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    peaks.append(round(tracemalloc.get_traced_memory()[1] / 2**20, 1))
    tracemalloc.stop()
    return {
        "rounds": rounds,
        "shoes": shoes,
        "chunk (shoes)": chunk,
        "seconds": round(seconds, 1),
        "cpu seconds (this process)": round(cpu, 1),
        "rounds per s": round(rounds / seconds) if seconds else None,
        f"python peak MB per {window} shoes (tracemalloc)": peaks,
        "process peak RSS MB before / after": (
            round(rss_before),
            round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        ),
    }
