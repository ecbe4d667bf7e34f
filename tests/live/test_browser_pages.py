"""In real browsers against uvicorn (tests/live/conftest.py): a notification reaches its recipient's
open page live — the bell's count and a toast, without a reload — and nobody else's; the auditors'
dashboard counters re-read themselves when a round is logged."""

import time
import uuid

import pytest

from casino.roles import AUDITOR, DEALER, PIT_BOSS
from dealing.engine.simulators import simulate
from tests.audit.conftest import log_rounds  # noqa: F401
from tests.live.test_browser import halting_round, post_json

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wide_table(floor):
    table = floor.table_a
    table.min_bet, table.max_bet = 1, 1_000_000
    table.save()
    return table


def test_a_halt_rings_the_bell_of_pit_boss_a_with_a_toast_and_not_pit_boss_b(browser, make_user, floor):
    table = wide_table(floor)
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(PIT_BOSS, pits=[floor.pit_a], username="bossa")
    make_user(PIT_BOSS, pits=[floor.pit_b], username="bossb")
    halt = halting_round(table)

    boss_a, boss_b = browser("bossa"), browser("bossb", width=390)
    for page in (boss_a, boss_b):
        page.goto("/notifications/")  # any page: the bell is on every one
        page.locator("body[data-live=on]").wait_for(state="attached")
        assert page.locator("[data-bell-count]").inner_text() == "0"

    dealer = browser("dealer1")
    dealer.goto(f"/tables/{table.name}/terminal/")
    answer = post_json(
        dealer, f"/tables/{table.name}/terminal/next", {"stakes": halt["stakes"], "events": halt["events"]}
    )
    started = time.monotonic()
    assert answer.ok and answer.json()["halt"]
    boss_a.locator(".bell.bell-unread [data-bell-count]", has_text="1").wait_for(timeout=2000)
    toast = boss_a.locator(".toast", has_text=f"HALT at table {table.name}")
    toast.wait_for(timeout=2000)
    assert time.monotonic() - started < 2.0
    assert toast.locator("a").get_attribute("href").startswith("/")

    boss_b.wait_for_timeout(500)
    assert boss_b.locator("[data-bell-count]").inner_text() == "0" and boss_b.locator(".toast").count() == 0


def test_the_dashboard_counters_follow_a_round_logged(browser, make_user, floor):
    table = wide_table(floor)
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(AUDITOR, username="auditor1")
    auditor = browser("auditor1")
    auditor.goto("/audit/")
    auditor.locator("body[data-live=on]").wait_for(state="attached")
    before = auditor.locator("#au-kpis").inner_text()

    [sim] = simulate("ochko", 1, seed=3, mistake_rate=0.0)
    dealer = browser("dealer1")
    dealer.goto(f"/tables/{table.name}/terminal/")
    saved = post_json(
        dealer,
        f"/tables/{table.name}/terminal/save",
        {"id": str(uuid.uuid4()), "stakes": sim.doc["stakes"], "events": sim.doc["events"]},
    )
    assert saved.status == 201, saved.text()
    # Logged, then audited: the counters read "1 waiting" or one round audited, never what they were.
    auditor.wait_for_function(
        "before => document.getElementById('au-kpis').innerText !== before", arg=before, timeout=3000
    )
    assert auditor.locator("#au-kpis").inner_text() != before


@pytest.mark.usefixtures("private_redis")
class TestRunProgress:
    """The run is carried out by this process, as a worker would be: its events travel to the
    server's streams over Redis (a private redis-server, tests/live/conftest.py)."""

    @pytest.fixture
    def asgi_bus(self, private_redis):
        return private_redis.url

    def test_an_audit_runs_progress_follows_each_chunk_live(self, browser, make_user, floor, log_rounds):  # noqa: F811
        from audit.models import AuditRunChunk
        from audit.services import runs

        dealer = make_user(DEALER, pits=[floor.pit_a])
        make_user(AUDITOR, username="auditor1")
        log_rounds(wide_table(floor), dealer, n=4, seed=5, mistake_rate=0.5)
        run = runs.audit_run_start(started_by=None, only_unaudited=False, chunk_size=2)
        runs.audit_run_plan(run_id=run.pk)
        chunks = list(AuditRunChunk.objects.filter(run=run).order_by("number").values_list("pk", flat=True))
        assert len(chunks) == 2

        page = browser("auditor1")
        page.goto(f"/audit/runs/{run.pk}/")
        page.locator("body[data-live=on]").wait_for(state="attached")
        done = page.locator("[data-testid=run-done]")
        assert done.inner_text() == "0"
        for k, chunk in enumerate(chunks, start=1):
            runs.audit_run_chunk_process(chunk_id=chunk)
            started = time.monotonic()
            # Well within the page's 5 s fallback poll: the chunk's event brought it.
            page.locator("[data-testid=run-done]", has_text=str(2 * k)).wait_for(timeout=1500)
            assert time.monotonic() - started < 1.5
        page.locator("[data-testid=run-progress][data-status=done]").wait_for(timeout=2000)
