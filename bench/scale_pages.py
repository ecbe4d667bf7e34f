"""The pages of bench/scale.py's run: every page and API list an auditor or pit boss opens, timed
in this process through Django's test client (the whole request: middleware, queries, template),
warm, as p50/p95 of `repeat` requests each; the streamed exports also by their first rows."""

import datetime as dt
import statistics
import time

from django.db import transaction
from django.utils import timezone

from casino.models import Table
from dealing import services as dealing_services
from dealing.models import Round, Shoe

from .scale import DEALERS, TABLES


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def _time(client, url: str, repeat: int, budget: float = 20.0) -> dict:
    """p50/p95 of `repeat` requests (after one that warms up), or of those made within `budget`
    seconds (at least 3) when the page is slow."""
    times, firsts, status = [], [], None
    stop = time.monotonic() + budget
    for k in range(repeat + 1):
        if k > 3 and time.monotonic() > stop:
            break
        started = time.perf_counter()
        response = client.get(url, secure=True)
        first = None
        if getattr(response, "streaming", False):
            # A streamed download: when its first rows arrive (what the user waits for) and when it ends.
            for _chunk in response.streaming_content:
                if first is None:
                    first = (time.perf_counter() - started) * 1000
        elapsed = (time.perf_counter() - started) * 1000
        status = response.status_code
        if k:  # the first one warms caches and connections
            times.append(elapsed)
            if first is not None:
                firsts.append(first)
    out = {
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(_p95(times), 1),
        "n": len(times),
        "status": status,
    }
    if firsts:
        out.update(first_rows_p50_ms=round(statistics.median(firsts), 1), first_rows_p95_ms=round(_p95(firsts), 1))
    return out


def _p95(times: list[float]) -> float:
    times = sorted(times)
    return times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))]


def _middle(queryset, field: str):
    """A keyset key (`<time>_<id>`) half-way down a list ordered newest first."""
    ids = queryset.order_by("pk").values_list("pk", flat=True)
    lo, hi = ids.first(), ids.last()
    if lo is None:
        return None
    row = queryset.filter(pk__gte=(lo + hi) // 2).order_by("pk").first()
    return None if row is None else f"{getattr(row, field).isoformat()}_{row.pk}"


def pages(*, tables: list[Table], people: dict, repeat: int) -> dict[str, dict]:
    """p50/p95 of every page and API list an auditor or pit boss opens."""
    from urllib.parse import quote

    from audit.models import Finding

    auditor, boss = _client(people["scale-auditor"]), _client(people["scale-boss"])
    table = tables[0]
    dealer = people[DEALERS[3]]
    record = Round.objects.filter(table=table).order_by("-pk").first()
    deep_round = _middle(Round.objects.all(), "played_at")
    deep_finding = _middle(Finding.objects.all(), "played_at")
    # An ended shoe of the floor; the one shoe of shape `one` (still open: it holds every round).
    shoe = Shoe.objects.filter(table=table).exclude(ended_at=None, table__name__in=[t for t, *_ in TABLES])
    shoe = shoe.order_by("-number").first()
    finding = Finding.objects.order_by("-pk").first()
    code = finding.code if finding else "WRONG_AMOUNT"
    urls = {
        "dashboard (30 days)": (auditor, "/audit/"),
        "dashboard (365 days)": (auditor, "/audit/?days=365"),
        "findings page 1": (auditor, "/audit/findings/"),
        "findings deep page (keyset)": (auditor, f"/audit/findings/?older={quote(deep_finding or '')}"),
        "findings by table": (auditor, f"/audit/findings/?table={table.pk}"),
        "findings by dealer": (auditor, f"/audit/findings/?dealer={dealer.pk}"),
        "findings by pit": (auditor, f"/audit/findings/?pit={table.pit_id}"),
        "findings by game": (auditor, "/audit/findings/?variant=blackjack"),
        "findings by code": (auditor, f"/audit/findings/?code={code}"),
        "findings by severity": (auditor, "/audit/findings/?severity=major"),
        "findings by status": (auditor, "/audit/findings/?status=open"),
        "findings with money impact": (auditor, "/audit/findings/?impact=any"),
        "findings of shoes": (auditor, "/audit/findings/?kind=shoe"),
        "findings text search": (auditor, "/audit/findings/?q=dealer"),
        "dealer error rates (CSV)": (auditor, "/audit/dealers.csv"),
        "rounds API page 1 (a plain GET: keyset)": (auditor, "/api/v1/rounds/"),
        "rounds API page 1 asked by offset (?offset=0: with its count)": (auditor, "/api/v1/rounds/?offset=0"),
        "rounds API deep page (keyset)": (auditor, f"/api/v1/rounds/?older={quote(deep_round or '')}"),
        "rounds API of a table (keyset)": (boss, f"/api/v1/rounds/?table={table.pk}&older="),
        "rounds API of a dealer (keyset)": (boss, f"/api/v1/rounds/?dealer={dealer.username}&older="),
        "round page": (boss, f"/rounds/{record.pk}/"),
        "round replay": (auditor, f"/audit/rounds/{record.pk}/"),
        "shoe page (floor)": (boss, f"/tables/{table.name}/shoes/{shoe.number}/" if shoe else "/"),
        "shoe page (audit)": (auditor, f"/audit/shoes/{shoe.pk}/" if shoe else "/"),
        "findings CSV export (streamed, whole)": (auditor, f"/audit/findings.csv?table={table.pk}"),
        "findings API page 1 (a plain GET)": (auditor, "/api/v1/findings/"),
        "findings API of a table": (boss, f"/api/v1/findings/?table={table.pk}"),
        "stakes API page 1 (a plain GET)": (auditor, "/api/v1/stakes/"),
        "stakes API of a table": (boss, f"/api/v1/stakes/?table={table.pk}"),
        "shoes API of a table": (boss, f"/api/v1/shoes/?table={table.pk}"),
        "incidents page": (auditor, "/incidents/"),
        "incidents API": (auditor, "/api/v1/incidents/"),
        "incidents of a table": (boss, f"/tables/{table.name}/incidents/"),
        "tables list (cards left of each open shoe)": (boss, "/tables/"),
        "table page (its shoe now)": (boss, f"/tables/{table.name}/shoe/"),
        "the pit boss's review queue": (boss, "/queue/"),
        "audit runs": (auditor, "/audit/runs/"),
        **_books_urls(auditor, boss, record.dealer_id if record else dealer.pk, bench_shift(table, people)),
    }
    out = {}
    for name, (client, url) in urls.items():
        out[name] = {"url": url, **_time(client, url, 3 if "CSV export" in name else repeat)}
    return out


def bench_shift(table: Table, people: dict, rounds: int = 400) -> int:
    """A shift of `table` over its newest `rounds` rounds — 8 hours at 50 an hour; the bench logs a
    table's rounds far closer together than a dealer deals them — opened by a dealer and signed by
    the pit boss through books.services, made once: the shift report and the float's page read its
    rounds."""
    from books import services as books
    from books.models import TableShift

    shift = TableShift.objects.filter(table=table).order_by("-pk").first()
    if shift is None:
        shift = books.shift_open(
            table=table, counted_by=people[DEALERS[0]], counts={"5000": 20, "1000": 50, "500": 40, "100": 100}
        )
        shift = books.shift_open_sign(shift=shift, signed_by=people["scale-boss"])
        # The services stamp the opening now; the rounds it covers lie before now.
        first = Round.objects.filter(table=table).order_by("-played_at", "-id")[rounds - 1 : rounds].first()
        began = first.played_at if first else timezone.now()
        with transaction.atomic():
            TableShift.objects.filter(pk=shift.pk).update(opened_at=began, opening_signed_at=began)
            # An update by statement is outside the models' saves: the shift's new times are chained here.
            dealing_services.records_touched(TableShift, [shift.pk])
    return shift.pk


def _books_urls(auditor, boss, dealer: int, shift: int) -> dict:
    """The pit's books: theoretical against actual and the period report over a year
    (books/theory/selectors.py), dealer performance (the floor, and one dealer's page with his game
    pace: books/performance/selectors.py) and the integrity signals."""
    year = (timezone.localdate() - dt.timedelta(days=364)).isoformat()
    return {
        "theory by table (365 days)": (auditor, f"/books/theory/?start={year}"),
        "theory by dealer (365 days)": (auditor, f"/books/theory/?start={year}&by=dealer"),
        "theory API by day (365 days)": (auditor, f"/api/v1/books/theory/?start={year}&by=day"),
        "period report of a pit (365 days)": (boss, f"/books/reports/period/?start={year}"),
        "period report API (365 days)": (boss, f"/api/v1/books/reports/period/?start={year}"),
        "period report CSV (365 days)": (boss, f"/books/reports/period.csv?start={year}"),
        "dealer performance (30 days)": (auditor, "/books/performance/"),
        "dealer performance (365 days)": (auditor, "/books/performance/?days=365"),
        "a dealer's performance and pace (30 days)": (auditor, f"/books/performance/{dealer}/"),
        "a dealer's performance and pace (365 days)": (auditor, f"/books/performance/{dealer}/?days=365"),
        "integrity signals": (auditor, "/books/signals/"),
        "the float of a shift (400 rounds)": (boss, f"/books/{shift}/"),
        "shift report (400 rounds)": (boss, f"/books/reports/shifts/{shift}/"),
        "shift report API (400 rounds)": (boss, f"/api/v1/books/reports/shifts/{shift}/"),
        "shift report CSV (400 rounds)": (boss, f"/books/reports/shifts/{shift}.csv"),
    }
