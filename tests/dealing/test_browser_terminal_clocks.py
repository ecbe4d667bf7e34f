"""In a real browser (system Chromium): seed 002's clocks at the salon's blackjack terminal. A hand
that does nothing is stood by its clock (the stored round has the stand), a reload mid-clock resumes
the time left rather than a fresh clock, and the online table shows no clock at all. The clocks are
made 4 seconds long here (`TERMINAL_CLOCK_SECONDS`), not 15."""

import os
import re
import time
from decimal import Decimal
from pathlib import Path

import pytest

from casino.roles import DEALER
from dealing.models import Round, TerminalDraft
from tests.casino.test_axe_browser import AXE, OVERFLOW, RUN
from tests.dealing.test_browser_terminal import Keys, draft_entries, log_in, previous_round, until_kept
from tests.factories import TableFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECONDS = 4


def blackjack_table(floor, preset: str):
    return TableFactory(
        name=f"BJ-{preset}",
        pit=floor.pit_a,
        variant="blackjack",
        boxes=5 if preset == "salon" else 1,
        rules={"preset": preset},
        min_bet=Decimal(10),
        max_bet=Decimal(5000),
    )


def seconds_left(page) -> int:
    return int(re.sub(r"\D", "", page.locator("#term-clock-left").inner_text()))


def readable_at_every_width(page):
    """The countdown at a tablet's 390 px and a laptop's 1366 px: inside the window, big figures, nothing
    wider than the window, nothing serious for axe. TERMINAL_SHOTS=/some/dir keeps a screenshot."""
    shots = os.environ.get("TERMINAL_SHOTS")
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        box = page.locator("#term-clock").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.locator("#term-clock-left").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 24
        assert page.evaluate(OVERFLOW) is None
        page.evaluate(AXE)
        assert page.evaluate(RUN) == []
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/terminal-clock-{width}.png")


def test_a_hand_that_does_nothing_is_stood_by_its_clock_and_a_reload_resumes_the_time_left(
    browser_page, make_user, floor, settings
):
    settings.TERMINAL_CLOCK_SECONDS = SECONDS
    table = blackjack_table(floor, "salon")
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    previous_round(table, dealer, [{"id": "1", "box": 1, "bet": 100}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-clock-what:has-text('Bets close in')")  # the bet clock: shown, blocks nothing
    readable_at_every_width(page)
    keys = Keys(page)
    keys("9", "6", "7", "0")  # box 1: 9, the dealer's 6 up, box 1: 7, the hole card: a ten
    page.wait_for_selector("#term-clock-what:has-text('Hand 1 acts within')")
    assert page.locator("#term-clock-left").get_attribute("role") == "timer"
    assert page.locator("#term-clock-say").get_attribute("aria-live") == "polite"
    until_kept(table, 4)

    time.sleep(2)
    page.reload()  # mid-clock: the page comes back with the time left, counted from the entry on the server
    page.wait_for_selector("#term-clock-what:has-text('Hand 1 acts within')")
    assert seconds_left(page) <= SECONDS - 1, page.locator("#term-clock-left").inner_text()

    # Nobody acts: the clock runs out and stands the hand (timeout = stand), saying so on the felt.
    page.wait_for_selector("#term-boxes .term-timed-out:has-text('time ran out')", timeout=SECONDS * 1000 + 5000)
    page.wait_for_selector("#term-hint:has-text('Time ran out: hand 1 stands')")
    kept = until_kept(table, 5)
    assert kept[4] == {"e": "stand", "hand": "1"} and len(kept) == 5  # stood once
    assert TerminalDraft.objects.get(table=table).timeouts == [4]
    page.wait_for_selector("#term-prompt:has-text('draw')")  # the dealer's turn: no clock runs for him
    assert page.locator("#term-clock").is_hidden()

    keys("5")  # the dealer: 16 draws a five, 21
    page.wait_for_selector("#term-prompt:has-text('take')")
    keys("Enter")  # box 1's 16 loses: the bet taken
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")
    page.wait_for_url("**/rounds/*/")
    doc = Round.objects.filter(table=table).order_by("-chain_index").first().document
    assert doc["events"][4] == {"e": "stand", "hand": "1"}  # an ordinary stand in the stored round
    assert [e["e"] for e in doc["events"]] == ["deal"] * 4 + ["stand", "draw", "take"]
    assert draft_entries(table) == []


def test_the_insurance_offer_closes_when_its_clock_ends_and_the_dealer_acts_before_the_hands(
    browser_page, make_user, floor, settings
):
    settings.TERMINAL_CLOCK_SECONDS = SECONDS
    table = blackjack_table(floor, "salon")
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    previous_round(table, dealer, [{"id": "1", "box": 1, "bet": 100}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    keys = Keys(page)
    keys("9", "a", "7", "6")  # box 1: 9, the dealer's ace up, box 1: 7, the hole card: a six
    page.wait_for_selector("#term-clock-what:has-text('Insurance and even money close in')")
    page.wait_for_selector("#term-hint:has-text('insurance and even money are closed')", timeout=SECONDS * 1000 + 5000)
    assert until_kept(table, 5)[4] == {"e": "peek"}  # the offer closed: box 1 did not insure
    page.wait_for_selector("#term-clock-what:has-text('Hand 1 acts within')")
    keys("s")  # the dealer acts before the hand's clock ends: an ordinary stand, at once
    page.wait_for_selector("#term-prompt:has-text('take')")  # 16 against the dealer's soft 17
    kept = until_kept(table, 6)
    assert kept[5] == {"e": "stand", "hand": "1"} and TerminalDraft.objects.get(table=table).timeouts == [4]
    assert page.locator("#term-boxes .term-timed-out").count() == 0


def test_the_online_table_shows_no_clock_and_nothing_stands_by_itself(browser_page, make_user, floor, settings):
    settings.TERMINAL_CLOCK_SECONDS = SECONDS
    table = blackjack_table(floor, "online")
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    previous_round(table, dealer, [{"id": "1", "box": 1, "bet": 100, "jackpot": 1}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    assert page.locator("#term-clock").count() == 0
    Keys(page)("9", "h", "6", "c", "7", "d", "t", "s")  # box 1: 9♥, the dealer's 6♣, box 1: 7♦, the hole: 10♠
    page.wait_for_selector("#term-moves:has-text('stand')")
    until_kept(table, 4)
    time.sleep(SECONDS + 1.5)  # longer than any clock would run
    assert len(draft_entries(table)) == 4 and page.locator("#term-clock").count() == 0
