"""In real browsers against a real ASGI server (uvicorn on a free port, on the test database): a
dealer's HALT at the terminal reaches pit boss A's live floor within a second; an incident an
inspector reports appears in pit boss A's queue without a reload; the pit boss of pit B sees
neither. The bus is the in-memory one of that single process."""

import json
import time
from pathlib import Path

import pytest
from django.conf import settings

from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from dealing.engine.simulators import simulate
from dealing.games import terminal as term

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def halting_round(table) -> dict:
    """A simulated ochko round with a wrong payment, cut at the entry that halts the terminal."""
    for sim in simulate("ochko", 200, seed=11, mistake_rate=1.0, kinds=["wrong_amount"]):
        doc = {**sim.doc, "table": {"name": table.name, "min": 1, "max": 1_000_000}, "rules": dict(table.rules)}
        for k in range(1, len(doc["events"]) + 1):
            cut = {**doc, "events": doc["events"][:k]}
            out = term.follow(cut)
            if out["halt"] and out["halt"][0]["params"].get("owed"):
                return {"stakes": doc["stakes"], "events": cut["events"], "halt": out["halt"][0]}
    raise AssertionError("no simulated round halts")


def post_json(page, path, data):
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    body = json.dumps(data, default=lambda v: int(v) if v == int(v) else float(v))
    return page.request.post(path, data=body, headers={"X-CSRFToken": token, "Content-Type": "application/json"})


def test_a_halt_and_an_incident_reach_pit_boss_a_live_and_never_pit_boss_b(browser, make_user, floor):
    table = floor.table_a
    table.min_bet, table.max_bet = 1, 1_000_000
    table.save()
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(INSPECTOR, pits=[floor.pit_a], username="inspector1")
    make_user(PIT_BOSS, pits=[floor.pit_a], username="bossa")
    make_user(PIT_BOSS, pits=[floor.pit_b], username="bossb")
    halt = halting_round(table)

    boss_a = browser("bossa")
    boss_b = browser("bossb", width=390)
    boss_a.goto("/pit/floor/")
    boss_b.goto("/pit/floor/")
    for page in (boss_a, boss_b):
        page.locator("body[data-live=on]").wait_for(state="attached")
    assert boss_a.locator(f"#tile-{table.pk}").count() == 1
    assert boss_b.locator(f"#tile-{table.pk}").count() == 0  # pit B's boss has no tile of pit A

    dealer = browser("dealer1")
    dealer.goto(f"/tables/{table.name}/terminal/")
    answer = post_json(
        dealer, f"/tables/{table.name}/terminal/next", {"stakes": halt["stakes"], "events": halt["events"]}
    )
    # From the moment the dealer's terminal shows the halt (the engine's answer) to the tile turning red.
    started = time.monotonic()
    assert answer.ok and answer.json()["halt"]
    tile = boss_a.locator(f"#tile-{table.pk}.is-halted")
    tile.wait_for(timeout=1000)
    elapsed = time.monotonic() - started
    assert elapsed < 1.0
    text = tile.inner_text()
    assert halt["halt"]["params"]["owed"] in text
    boss_a.screenshot(path=str(Path(settings.BASE_DIR) / "var" / "live-floor-1366.png"), full_page=True)

    # The incident: the inspector reports it on the form; pit boss A's open queue shows it.
    boss_a.goto("/queue/")
    boss_a.locator("body[data-live=on]").wait_for(state="attached")
    assert "CAM-9" not in boss_a.content()
    inspector = browser("inspector1")
    inspector.goto(f"/incidents/new?table={table.name}")
    inspector.check("input[name=kind][value=dealer_card_exposed]")
    inspector.fill("input[name=card]", "KH")
    inspector.check("input[name=resolution][value=burned]")
    inspector.select_option("select[name=dealer]", index=1)  # dealer1, the only dealer of the pit
    inspector.fill("[name=evidence]", "CAM-9 21:14:07")
    started = time.monotonic()
    inspector.click("form:has(input[name=card]) button[type=submit]")
    boss_a.locator("#queue-live", has_text="KH").wait_for(timeout=2000)
    assert time.monotonic() - started < 2.0

    # Pit B's boss: still nothing of pit A, neither on his floor nor in his queue.
    assert boss_b.locator(".live-tile.is-halted").count() == 0
    boss_b.goto("/queue/")
    assert "KH" not in boss_b.locator("#queue-live").inner_text()
    boss_b.goto("/pit/floor/")
    boss_b.screenshot(path=str(Path(settings.BASE_DIR) / "var" / "live-floor-390.png"), full_page=True)
    assert boss_b.locator(f"#tile-{table.pk}").count() == 0
