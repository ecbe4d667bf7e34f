"""In a real browser (system Chromium): the table terminal follows a round as it is dealt, one key
per card and per action, and stores what the round form would store. The keys are counted: the
typical 3-box ochko round in at most 30, a blackjack round with a split in at most 20. A wrong
payment halts the round: no key passes it (Enter ×3 stores nothing), a pit boss's override does.
On a tablet the on-screen keypad alone enters a round (a Bet of 1,500 by taps)."""

import os
import time
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from casino.roles import DEALER, PIT_BOSS
from dealing import games, services
from dealing.models import HaltOverride, Round, TerminalDraft
from tests.casino.test_axe_browser import AXE, OVERFLOW, RUN
from tests.casino.test_csp_browser import WATCH
from tests.factories import PASSWORD, TableFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def slow_clocks(settings):
    """The salon's 15-second clocks are tested in test_browser_terminal_clocks.py; here a loaded CI
    machine scanning a state with axe must not have a hand stood under the test by its clock."""
    settings.TERMINAL_CLOCK_SECONDS = 600


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


class Keys:
    """Presses keys on the terminal and counts them."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def __call__(self, *keys):
        for k in keys:
            self.page.keyboard.press(k)
            self.count += 1


def previous_round(table, dealer, stakes, events):
    doc = {
        "format": "round/1",
        "id": str(uuid.uuid4()),
        "variant": str(table.variant),
        "table": {"name": table.name, "min": int(table.min_bet), "max": int(table.max_bet)},
        "rules": dict(table.rules),
        "dealer": dealer.username,
        "stakes": stakes,
        "events": events,
    }
    services.round_log(document=doc, logged_by=dealer, table=table)


OCHKO_STAKES = [
    {"id": "1a", "box": 1, "player": "P-23", "ante": 100, "dealer_bet": 10},
    {"id": "2a", "box": 2, "ante": 200},
    {"id": "3a", "box": 3, "player": "P-8", "ante": 100},
]


def test_the_typical_ochko_round_in_at_most_30_keys_and_a_wrong_payment_halts(browser_page, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    table = floor.table_a
    # The previous round at the table: the same three players (their stakes are carried over).
    previous_round(
        table,
        dealer,
        OCHKO_STAKES,
        [
            {"e": "deal", "to": 1, "card": "6S"},
            {"e": "deal", "to": 2, "card": "6H"},
            {"e": "deal", "to": 3, "card": "6D"},
            {"e": "deal", "to": "dealer", "card": "6C"},
            {"e": "bet", "stake": "1a", "amount": 100},
            {"e": "bet", "stake": "2a", "amount": 200},
            {"e": "bet", "stake": "3a", "amount": 100},
        ],
    )
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    assert page.locator(".term-in-ante").evaluate_all("xs => xs.map(x => x.value)") == ["100", "200", "100"]
    keys = Keys(page)
    keys("9", "k", "7", "7")  # the deal: boxes 1, 2, 3, then the dealer's card (the suit is not typed)
    keys("3", "0", "0", "Enter", "Enter", "Enter")  # Box 1 raises its Bet to 300; boxes 2 and 3 bet as before
    keys("t", "s")  # box 1: a ten, stands on 19
    keys("d", "8")  # box 2: one dark card
    keys("9", "s")  # box 3: a nine, stands on 16
    keys("6", "9")  # the dealer: 7 + 6 + 9 = 22, bust (the dark card is then revealed by itself)
    page.wait_for_selector("#term-prompt:has-text('pay')")
    assert page.locator("#term-owed").inner_text().count("pay") >= 5  # what is owed, before a payment is made

    # A wrong payment (not counted: a detour): 90 for box 3's Bet of 100 halts the terminal at once.
    page.keyboard.type("90")
    page.keyboard.press("Enter")
    page.wait_for_selector("#term-halt:not([hidden])")
    halt = page.locator("#term-halt").inner_text()
    assert "90" in halt and "100" in halt
    for _ in range(3):  # Enter out of habit passes nothing
        page.keyboard.press("Enter")
    page.wait_for_selector("#term-hint:has-text('⌫')")
    assert page.locator("#term-halt").is_visible()
    assert "Enter" not in page.locator("#term-prompt").inner_text()
    assert Round.objects.filter(table=table).count() == 1  # the previous round only
    page.keyboard.press("Backspace")  # taken back: the halt lifts
    page.wait_for_selector("#term-halt", state="hidden")

    keys(*["Enter"] * 7)  # the payments, each as owed, box 3 down to box 1 (box 2's dark Bet stays)
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")  # store the round
    page.wait_for_url("**/rounds/*/")
    assert keys.count <= 30, keys.count

    record = Round.objects.filter(table=table).order_by("-chain_index").first()
    doc = record.document
    assert record.dealer == dealer and doc["dealer"] == "dealer1"
    assert doc["stakes"] == OCHKO_STAKES
    assert [e["e"] for e in doc["events"]] == ["deal"] * 4 + ["bet"] * 3 + [
        "open",
        "hit",
        "stand",
        "dark",
        "hit",
        "stand",
        "draw",
        "draw",
        "reveal",
        "pay",
        "pay",
        "pay",
        "leave",
        "pay",
        "pay",
        "pay",
    ]
    assert doc["events"][4] == {"e": "bet", "stake": "1a", "amount": 300}
    assert doc["events"][10] == {"e": "dark", "box": 2, "card": "8*"}
    # What the round form stores for this round: this very document.
    assert games.form_for("ochko").rebuild(doc) == doc
    assert services.round_log(document=doc, logged_by=dealer, table=table)[1] is False  # the same round


def test_a_blackjack_round_with_a_split_in_at_most_20_keys(browser_page, make_user, floor):
    table = TableFactory(
        name="Escribas",
        pit=floor.pit_a,
        variant="blackjack",
        boxes=5,
        rules={"preset": "salon"},
        min_bet=Decimal(100),
        max_bet=Decimal(5000),
    )
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    previous_round(table, dealer, [{"id": "1", "box": 1, "bet": 100}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    keys = Keys(page)
    keys("8", "6", "8", "0")  # box 1: 8, the dealer's 6 up, box 1: 8, the hole card: a ten (typed 0)
    keys("p")  # split the eights
    keys("3", "d", "9")  # hand 1.1: a three (11), doubles and gets a nine
    keys("k", "s")  # hand 1.2: a king (18), stands
    keys("9")  # the dealer: 16 draws a nine, 25: bust
    page.wait_for_selector("#term-prompt:has-text('pay')")
    keys("Enter", "Enter", "Enter")  # pay hand 1.1's bet and double, hand 1.2's bet
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")
    page.wait_for_url("**/rounds/*/")
    assert keys.count <= 20, keys.count
    doc = Round.objects.filter(table=table).order_by("-chain_index").first().document
    assert [e["e"] for e in doc["events"]] == ["deal"] * 4 + [
        "split",
        "hit",
        "double",
        "hit",
        "stand",
        "draw",
        "pay",
        "pay",
        "pay",
    ]
    assert doc["events"][6] == {"e": "double", "hand": "1.1", "card": "9*"}
    assert games.form_for("blackjack").rebuild(doc) == doc


def one_box_round_to_the_payments(page, keys):
    """Box 1 (Ante 100, its Bet as before) stands on 19, the dealer busts: the Bet and the Ante are owed."""
    keys("9", "7")  # the deal: box 1, the dealer
    page.wait_for_selector("#term-moves:has-text('places the Bet')")
    keys("Enter")  # the Bet, as before
    keys("t", "s", "6", "9")  # box 1: a ten, stands; the dealer draws 6 and 9: 22
    page.wait_for_selector("#term-prompt:has-text('pay')")


def test_a_wrong_payment_halts_until_a_pit_boss_overrides_it_and_enter_passes_nothing(browser_page, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(PIT_BOSS, pits=[floor.pit_a], username="boss1")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 100}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    keys = Keys(page)
    keys("1")  # a "1" where a card is asked: no card, a hint
    page.wait_for_selector("#term-hint:has-text('0 or T')")
    one_box_round_to_the_payments(page, keys)
    says = page.locator("#term-moves li").all_inner_texts()  # what each key does now
    assert says[0].startswith("Enter — pay") and "X — took the wager" in says
    keys("k")  # a card key where an amount is asked: nothing typed, a hint
    page.wait_for_selector("#term-hint:has-text('not a card')")
    assert page.locator("#term-typed").inner_text() == ""

    keys("9", "0", "Enter")  # the Bet of 100 paid 90
    page.wait_for_selector("#term-halt:not([hidden])")
    keys("Enter", "Enter", "Enter")
    page.wait_for_selector("#term-hint:has-text('No key passes a halt')")
    assert not page.locator("#term-prompt").inner_text().rstrip().endswith("Enter")
    assert Round.objects.filter(table=table).count() == 1

    # The pit boss, at this terminal: a wrong password first, then his own.
    page.click("#term-override-box summary")
    page.fill("#term-ov-user", "boss1")
    page.fill("#term-ov-pass", "not-his")
    page.fill("#term-ov-reason", "Player accepted 90; short chip")
    page.click("#term-override button[type=submit]")
    page.wait_for_selector("#term-override-error:has-text('password')")
    assert page.locator("#term-halt").is_visible()
    page.fill("#term-ov-pass", PASSWORD)
    page.click("#term-override button[type=submit]")
    page.wait_for_selector("#term-halt", state="hidden")
    keys("Enter")  # the Ante, as owed
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")
    page.wait_for_url("**/rounds/*/")
    record = Round.objects.filter(table=table).order_by("-chain_index").first()
    assert record.document["events"][-2] == {"e": "pay", "stake": "1a", "wager": "bet", "amount": 90}
    note = HaltOverride.objects.get(round=record)
    assert note.overridden_by.username == "boss1" and note.reason == "Player accepted 90; short chip"
    assert note.codes == "WRONG_AMOUNT"


@pytest.fixture
def tablet(browser_page, live_server):
    """A page in a touch tablet's browser (390 px wide, touch events), beside `browser_page`."""
    context = browser_page.context.browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_on_a_tablet_the_keypad_enters_a_bet_of_1500_and_fits_every_width(tablet, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 500}], [])
    page = tablet
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")

    def tap(key):
        page.tap(f"#term-keypad button[data-key='{key}']")

    tap("9")
    tap("7")  # the deal: box 1, the dealer
    page.wait_for_selector("#term-moves:has-text('places the Bet')")
    # The Bet's multiples of the Ante, a tap away.
    assert page.locator(".term-mult").all_inner_texts()[:3] == ["×1 500", "×2 1000", "×3 1500"]
    for key in ("1", "5", "00"):
        tap(key)
    assert page.locator("#term-typed").inner_text() == "1500"
    page.wait_for_selector("#term-moves:has-text('1500')")
    tap("Enter")
    page.wait_for_selector("#term-boxes:has-text('1500')")
    page.wait_for_selector("#term-moves:has-text('stand')")

    for width, height in ((390, 844), (844, 390), (768, 1024), (1024, 768), (1024, 1366)):
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (width, overflow)
        sizes = page.locator("#term-keypad button").evaluate_all(
            "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [b.textContent, r.width, r.height]; })"
        )
        small = [s for s in sizes if s[1] < 44 or s[2] < 44]
        assert not small, (width, small)
        keys = {s[0].strip() for s in sizes}
        assert {"0", "1", "9", "00", "⌫", "10", "A"} <= keys


STATE_WIDTHS = (390, 768, 1366)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_terminal_state_passes_axe_fits_the_window_and_keeps_the_csp(
    browser_page, live_server, make_user, floor, language
):
    """The deal, the Bet, a halt with the pit boss's form, the round complete: at each width, axe finds
    nothing serious or critical, nothing is wider than the window, and the CSP is never broken.
    TERMINAL_SHOTS=/some/dir keeps a screenshot of each state at each width."""
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 100}, {"id": "2a", "box": 2, "ante": 200}], [])
    page = browser_page
    page.context.add_init_script(WATCH)
    log_in(page, "dealer1")
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-moves li")
    shots = os.environ.get("TERMINAL_SHOTS")
    problems = []

    def check(state):
        for width in STATE_WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(AXE)
            found = page.evaluate(RUN)
            if found:
                problems.append((state, width, found))
            wide = page.evaluate(OVERFLOW)
            if wide:
                problems.append((state, width, wide))
            if shots:
                Path(shots).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{shots}/terminal-{language}-{state}-{width}.png", full_page=True)

    check("deal")
    keys = Keys(page)
    keys("9", "8", "7")  # the deal: boxes 1 and 2, the dealer
    page.wait_for_selector(".term-mult")
    keys("3")
    check("bet")
    keys("0", "0", "Enter", "Enter")  # box 1 bets 300, box 2 as before
    keys("t", "s", "k", "s", "6", "9")  # 19 and 18 stand; the dealer 7 + 6 + 9: bust
    page.wait_for_selector("#term-owed li")
    keys("9", "0", "Enter")  # a wrong payment
    page.wait_for_selector("#term-halt:not([hidden])")
    keys("Enter")
    page.click("#term-override-box summary")  # the pit boss's form, open
    check("halt")
    keys("Backspace", *["Enter"] * 4)  # taken back; the four payments as owed (Enter once more would store)
    page.wait_for_function(
        "() => document.querySelectorAll('#term-owed li.term-settled').length === 4"
        " && document.querySelectorAll('#term-moves li').length === 2"
    )
    check("complete")
    assert page.evaluate("window.__cspViolations") == []
    assert not problems, problems


def draft_entries(table) -> list:
    draft = TerminalDraft.objects.filter(table=table, left_behind_at__isnull=True).first()
    return draft.events if draft is not None else []


def until_kept(table, n: int) -> list:
    """The draft's entries once the server holds `n` of them (the page answers a key before its POST does)."""
    for _ in range(100):
        entries = draft_entries(table)
        if len(entries) >= n:
            return entries
        time.sleep(0.1)
    raise AssertionError(f"the draft holds {draft_entries(table)}")


def test_a_reload_mid_round_resumes_at_the_same_entry(browser_page, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 100}], [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    keys = Keys(page)
    keys("9", "7")  # the deal: box 1, the dealer
    page.wait_for_selector("#term-moves:has-text('places the Bet')")
    keys("Enter", "t")  # the Bet as before; box 1 hits a ten
    kept = until_kept(table, 5)
    assert [e["e"] for e in kept] == ["deal", "deal", "bet", "open", "hit"]
    page.wait_for_selector("#term-moves:has-text('stand')")  # the page has drawn the hit too
    page.wait_for_selector("#term-boxes:has-text('19')")  # and the felt its total (9 + 10), drawn after
    felt, prompt = page.locator("#term-boxes").inner_text(), page.locator("#term-prompt").inner_text()

    page.reload()  # a reload, a lost connection, a crashed browser: the page comes back from the server
    page.wait_for_selector("#term-moves:has-text('stand')")
    page.wait_for_selector("#term-boxes:has-text('19')")
    assert page.locator("#term-boxes").inner_text() == felt and page.locator("#term-prompt").inner_text() == prompt
    assert page.locator("#term-held").is_hidden()
    keys("s", "6", "9")  # box 1 stands on 19; the dealer 7 + 6 + 9: bust
    page.wait_for_selector("#term-prompt:has-text('pay')")
    keys("Enter", "Enter")  # the Bet and the Ante, as owed
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")
    page.wait_for_url("**/rounds/*/")
    doc = Round.objects.filter(table=table).order_by("-chain_index").first().document
    assert doc["events"][:5] == kept and [e["e"] for e in doc["events"][5:]] == ["stand", "draw", "draw", "pay", "pay"]
    assert draft_entries(table) == []  # the stored round cleared its draft


def test_a_second_terminal_sees_the_round_and_takes_it_over_only_when_asked(
    browser_page, live_server, make_user, floor
):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(DEALER, pits=[floor.pit_a], username="dealer2")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 100}], [])
    first = browser_page
    log_in(first, "dealer1")
    first.goto(f"/tables/{table.name}/terminal/")
    first.wait_for_selector("#term-prompt:has-text('deal')")
    Keys(first)("9", "7")
    first.wait_for_selector("#term-moves:has-text('places the Bet')")

    # Another browser (its own storage: another terminal) at the same table.
    context = first.context.browser.new_context(base_url=live_server.url)
    second = context.new_page()
    second.set_default_timeout(15_000)
    log_in(second, "dealer2")
    second.goto(f"/tables/{table.name}/terminal/")
    second.wait_for_selector("#term-held:not([hidden])")
    assert "dealer1" in second.locator("#term-held-text").inner_text()
    second.keyboard.press("Enter")  # a key does not take the round: only the button does
    second.keyboard.press("K")
    second.wait_for_selector("#term-hint:has-text('take it over')")
    assert len(draft_entries(table)) == 2
    assert TerminalDraft.objects.get(table=table).held_by.username == "dealer1"

    second.click("#term-takeover")  # the dealer asks
    second.wait_for_selector("#term-moves:has-text('places the Bet')")
    assert second.locator("#term-held").is_hidden()
    assert TerminalDraft.objects.get(table=table).held_by.username == "dealer2"
    Keys(second)("Enter")  # the Bet, from the second terminal
    assert [e["e"] for e in until_kept(table, 4)] == ["deal", "deal", "bet", "open"]

    Keys(first)("Enter")  # the terminal that lost it: refused, told so, nothing written
    first.wait_for_selector("#term-held:not([hidden])")
    assert "take it over" in first.locator("#term-held-text").inner_text()
    assert [e["e"] for e in draft_entries(table)] == ["deal", "deal", "bet", "open"]
    context.close()


def test_the_felt_shows_the_totals_whose_turn_it_is_and_one_key_clears_the_stakes(browser_page, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    table = floor.table_a
    previous_round(table, dealer, OCHKO_STAKES, [])
    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    page.click("#term-boxes li:nth-child(2) .term-clear-box")  # one tap clears box 2
    page.wait_for_function("() => document.querySelectorAll('#term-stakes tr').length === 2")
    page.keyboard.press("r")  # one key clears every stake carried over
    page.wait_for_function("() => document.querySelectorAll('#term-stakes tr').length === 0")
    page.goto(f"/tables/{table.name}/terminal/")  # nothing was dealt, nothing kept: the stakes come back
    page.wait_for_selector("#term-prompt:has-text('deal')")
    assert page.locator("#term-stakes tr").count() == 3

    Keys(page)("9", "k", "7", "7", "Enter", "Enter", "Enter", "t")  # the deal, three Bets, box 1 hits a ten
    page.wait_for_selector("#term-boxes li:nth-child(1) .term-total:has-text('19')")
    assert page.locator("#term-boxes li:nth-child(1)").get_attribute("aria-current") == "step"  # still box 1's turn
    assert "7" in page.locator("#term-dealer-total").inner_text()
    Keys(page)("s")
    page.wait_for_selector("#term-boxes li:nth-child(2)[aria-current=step]")
    assert page.locator("#term-boxes li:nth-child(2) .term-total").inner_text() == "4"  # a king counts 4


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_draft_states_pass_axe_and_fit_the_window(browser_page, live_server, make_user, floor, language):
    """The two states of the round kept on the server: a round resumed from its draft after a reload,
    and the offer to take over a round another terminal holds. At each width axe finds nothing
    serious or critical and nothing is wider than the window (the other states: the test above)."""
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    make_user(DEALER, pits=[floor.pit_a], username="dealer2")
    table = floor.table_a
    previous_round(table, dealer, [{"id": "1a", "box": 1, "ante": 100}], [])
    problems = []

    def check(page, state):
        for width in STATE_WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(AXE)
            found = page.evaluate(RUN)
            if found:
                problems.append((state, width, found))
            wide = page.evaluate(OVERFLOW)
            if wide:
                problems.append((state, width, wide))

    first = browser_page
    log_in(first, "dealer1")
    first.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    first.goto(f"/tables/{table.name}/terminal/")
    first.wait_for_selector("#term-moves li")
    Keys(first)("9", "7", "Enter", "t")  # the deal, the Bet as before, box 1 hits a ten
    until_kept(table, 5)
    first.reload()  # the round in progress, resumed from the server's draft
    first.wait_for_selector("#term-boxes:has-text('19')")
    check(first, "resumed")

    context = first.context.browser.new_context(base_url=live_server.url)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    second = context.new_page()
    second.set_default_timeout(15_000)
    log_in(second, "dealer2")
    second.goto(f"/tables/{table.name}/terminal/")
    second.wait_for_selector("#term-held:not([hidden])")  # the offer to take the round over
    check(second, "held elsewhere")
    context.close()
    assert not problems, problems
