"""In a real browser (system Chromium): a whole veintiuno round typed at the table terminal with the
keyboard — the bank carried from the table's previous round, the first pass face down, each seat's
bet, the second pass, abrir, a declared natural, a tapo, the bank's draw, the payments and the
passing of the bank — is stored as typed and audited clean; a wrong payment halts (Enter ×3 stores
nothing) until it is taken back."""

import uuid
from decimal import Decimal

import pytest
from django.conf import settings

from casino.roles import DEALER
from dealing import games, services
from dealing.games import terminal as term
from dealing.models import Round, TerminalDraft
from tests.casino.test_axe_browser import AXE, OVERFLOW, RUN
from tests.casino.test_csp_browser import WATCH
from tests.dealing.test_browser_terminal import STATE_WIDTHS, Keys, log_in
from tests.dealing.test_terminal_veintiuno import EVENTS, PAYMENTS, STAKES
from tests.factories import TableFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_whole_veintiuno_round_at_the_terminal_and_a_wrong_payment_halts(browser_page, make_user, floor):
    table = TableFactory(
        name="Casa-21", pit=floor.pit_a, variant="veintiuno", boxes=6, min_bet=Decimal(5), max_bet=Decimal(100)
    )
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    # The previous round: Ana held the bank and keeps it; Beto bet 10, Carla 20.
    previous = {
        "format": "round/1",
        "id": str(uuid.uuid4()),
        "variant": "veintiuno",
        "table": {"name": table.name, "min": 5, "max": 100},
        "rules": {},
        "dealer": "dealer1",
        "bank": "Ana",
        "stakes": STAKES,
        "events": [
            {"e": "deal", "to": 1, "card": "2H"},
            {"e": "deal", "to": 2, "card": "3H"},
            {"e": "deal", "to": "bank", "card": "4H"},
            {"e": "bet", "stake": "S1", "amount": 10},
            {"e": "bet", "stake": "S2", "amount": 20},
            {"e": "deal", "to": 1, "card": "4S"},
            {"e": "deal", "to": 2, "card": "5S"},
            {"e": "deal", "to": "bank", "card": "KH"},
            {"e": "stand", "hand": "1"},
            {"e": "stand", "hand": "2"},
            {"e": "take", "stake": "S1", "hand": "1", "wager": "bet", "amount": 10},
            {"e": "take", "stake": "S2", "hand": "2", "wager": "bet", "amount": 20},
            {"e": "bank_to", "player": "Ana"},
        ],
    }
    assert term.follow(previous)["findings"] == []
    services.round_log(document=previous, logged_by=dealer, table=table)

    page = browser_page
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt:has-text('deal')")
    assert page.locator("#term-header-bank").input_value() == "Ana"  # the bank, as the last round passed it
    assert page.locator(".term-in-player").evaluate_all("xs => xs.map(x => x.value)") == ["Beto", "Carla"]
    assert "Bank" in page.locator(".term-dealer").inner_text()
    keys = Keys(page)
    keys("k", "h", "7", "s", "q", "c")  # the first pass, face down: seat 1, seat 2, the bank (rank, suit)
    page.wait_for_selector("#term-moves:has-text('places the Bet: 10')")
    keys("Enter", "Enter")  # each seat's bet, as last time: 10 and 20
    keys("k", "d", "5", "d", "6", "c")  # the second pass, face up
    page.wait_for_selector("#term-moves:has-text('abrir')")
    keys("p")  # Beto opens his two kings with twice his bet
    keys("a", "s")  # hand 1.1: an ace, a natural
    page.wait_for_selector("#term-moves:has-text('declares the natural')")
    keys("n")  # declared at once
    keys("2", "s", "7", "h", "s")  # hand 1.2: 2 and 7, 19, stands
    page.wait_for_selector("#term-moves:has-text('tapo y quedo')")
    keys("d", "q", "s")  # Carla, on 12: tapo y quedo, a queen face down
    page.wait_for_selector("#term-boxes:has-text('tapo')")
    assert "Q♠" not in page.locator("#term-boxes").inner_text()  # the tapo card is seen by nobody
    keys("7", "c")  # the bank, on 16, draws a seven: 23, over
    page.wait_for_selector("#term-prompt:has-text('pay')")

    # A wrong payment (a detour, not counted): the declared natural (a bet of 10) paid even.
    page.keyboard.type("10")
    page.keyboard.press("Enter")
    page.wait_for_selector("#term-halt:not([hidden])")
    for _ in range(3):  # Enter out of habit passes nothing
        page.keyboard.press("Enter")
    page.wait_for_selector("#term-hint:has-text('No key passes a halt')")
    assert Round.objects.filter(table=table).count() == 1  # the previous round only
    page.keyboard.press("Backspace")
    page.wait_for_selector("#term-halt", state="hidden")

    keys("Enter", "Enter", "Enter")  # the payments, as owed: 20 (2:1), 20, and the tapo's bet returned
    page.wait_for_selector("#term-moves:has-text('Beto')")
    keys("Enter")  # the bank passes to Beto, the declared natural
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")  # store the round
    page.wait_for_url("**/rounds/*/")
    assert keys.count <= 40, keys.count

    doc = Round.objects.filter(table=table).order_by("-chain_index").first().document
    assert doc["bank"] == "Ana" and doc["stakes"] == STAKES
    assert doc["events"] == EVENTS + PAYMENTS
    assert term.follow(doc)["findings"] == []  # audited clean
    assert games.form_for("veintiuno").rebuild(doc) == doc  # what the round form stores for it


def test_al_puje_a_withdraw_and_a_reload_mid_round(browser_page, make_user, floor):
    """The bank's 20 sends the table al puje (U), pie de banco's 13 withdraws (W); a reload after the
    first card resumes the round with its bank (the draft keeps the header)."""
    TableFactory(
        name="Casa-22", pit=floor.pit_a, variant="veintiuno", boxes=6, min_bet=Decimal(5), max_bet=Decimal(100)
    )
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    page = browser_page
    log_in(page, "dealer1")
    page.goto("/tables/Casa-22/terminal/")
    page.wait_for_selector("#term-prompt")
    page.fill("#term-header-bank", "Ana")
    page.click("#term-add")
    page.locator(".term-in-player").fill("Beto")
    page.keyboard.press("Enter")  # leaves the field: the engine is asked with the stake and the bank
    page.wait_for_selector("#term-prompt:has-text('deal')")
    keys = Keys(page)
    keys("6", "h")  # Beto's first card, face down
    page.wait_for_selector("#term-prompt:has-text('deal · to bank')")
    page.reload()
    page.wait_for_selector("#term-prompt:has-text('deal · to bank')")
    assert page.locator("#term-header-bank").input_value() == "Ana"  # resumed from the draft
    keys("k", "c")  # the bank's first card
    page.wait_for_selector("#term-moves:has-text('places the Bet')")
    keys("1", "0", "Enter")  # Beto bets 10 (nothing carried: his first round here)
    keys("7", "d", "q", "d")  # the second pass: Beto 13, the bank 20
    page.wait_for_selector("#term-moves:has-text('al puje')")
    keys("u")  # al puje
    page.wait_for_selector("#term-moves:has-text('withdraws on 13')")
    keys("w")  # Beto withdraws: his bet comes back
    page.wait_for_selector("#term-prompt:has-text('leave')")
    keys("Enter", "Enter")  # the bet returned; the bank stays with Ana
    page.wait_for_selector("#term-prompt:has-text('complete')")
    keys("Enter")
    page.wait_for_url("**/rounds/*/")
    doc = Round.objects.get(table__name="Casa-22").document
    assert doc["bank"] == "Ana" and doc["stakes"] == [{"id": "S1", "seat": 1, "player": "Beto"}]
    assert doc["events"][2] == {"e": "bet", "stake": "S1", "amount": 10}
    assert [e["e"] for e in doc["events"][5:]] == ["puje", "withdraw", "leave", "bank_to"]
    assert doc["events"][-1] == {"e": "bank_to", "player": "Ana"}
    assert term.follow(doc)["findings"] == []


# Every question to the engine held 300 ms in the page, and counted: how many were in flight at once.
SLOW_NEXT = """(() => {
  const real = window.fetch;
  const s = window.__next = {now: 0, most: 0};
  window.fetch = function (url, opts) {
    if (!String(url).endsWith("/terminal/next")) { return real(url, opts); }
    s.now++; s.most = Math.max(s.most, s.now);
    return new Promise((ok) => setTimeout(ok, 300)).then(() => real(url, opts)).finally(() => { s.now--; });
  };
})();"""


def test_changes_made_while_the_engine_answers_reach_the_draft_in_the_order_made(browser_page, make_user, floor):
    """With slow answers, the bank, a seat, its player and the first card entered at once: the page
    asks one question at a time, so the server keeps the draft in the order of the changes and a reload
    resumes at the card. (Two questions in flight could land in the other order, and an older one
    with no entries erase the draft: on a loaded CI machine a reload then began the round afresh.)"""
    table = TableFactory(
        name="Casa-24", pit=floor.pit_a, variant="veintiuno", boxes=6, min_bet=Decimal(5), max_bet=Decimal(100)
    )
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    page = browser_page
    page.context.add_init_script(SLOW_NEXT)
    log_in(page, "dealer1")
    page.goto(f"/tables/{table.name}/terminal/")
    page.wait_for_selector("#term-prompt")
    page.fill("#term-header-bank", "Ana")
    page.click("#term-add")  # the bank's field changes, then a seat is added: two changes at once
    page.locator(".term-in-player").fill("Beto")
    page.keyboard.press("Enter")
    Keys(page)("6", "h")  # Beto's first card, typed before any answer came
    page.wait_for_selector("#term-prompt:has-text('deal · to bank')")
    page.wait_for_function("window.__next.now === 0")
    assert page.evaluate("window.__next.most") == 1
    draft = TerminalDraft.objects.get(table=table)
    assert draft.events == [{"e": "deal", "to": 1, "card": "6H"}]
    assert draft.header == {"bank": "Ana"}
    assert [s.get("player") for s in draft.stakes] == ["Beto"]
    page.reload()
    page.wait_for_selector("#term-prompt:has-text('deal · to bank')")
    assert page.locator("#term-header-bank").input_value() == "Ana"


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_veintiuno_terminal_state_passes_axe_and_fits_the_window(
    browser_page, live_server, make_user, floor, language
):
    """Before the deal (the bank asked), the bet, the play (abrir, tapo keys) and a halt: at each width
    axe finds nothing serious or critical, nothing is wider than the window, the CSP holds."""
    TableFactory(
        name="Casa-23", pit=floor.pit_a, variant="veintiuno", boxes=6, min_bet=Decimal(5), max_bet=Decimal(100)
    )
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    page = browser_page
    page.context.add_init_script(WATCH)
    log_in(page, "dealer1")
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto("/tables/Casa-23/terminal/")
    page.wait_for_selector("#term-header-bank")
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
        page.set_viewport_size({"width": 1280, "height": 900})

    page.fill("#term-header-bank", "Ana")
    page.click("#term-add")
    page.locator(".term-in-player").fill("Beto")
    # The help lines are drawn before the engine answers: wait for its answer to the seat, not for them
    # (on a loaded CI machine the cards were typed before it and the bet's keys never came).
    with page.expect_response(lambda r: r.url.endswith("/terminal/next"), timeout=30000):
        page.keyboard.press("Enter")
    page.wait_for_selector("#term-moves li")
    check("stakes")
    keys = Keys(page)
    keys("k", "h", "q", "c")
    page.wait_for_selector(".term-mult", timeout=30000)
    check("bet")
    keys("Enter", "k", "d", "6", "c")  # Beto bets as the stake says (the table's minimum); two kings
    page.wait_for_selector("#term-moves li:nth-child(4)")
    check("play")
    keys("s", "7", "c")  # Beto stands on 20; the bank draws: 23
    page.wait_for_selector("#term-owed li")
    keys("1", "Enter")  # a wrong payment
    page.wait_for_selector("#term-halt:not([hidden])")
    page.click("#term-override-box summary")
    check("halt")
    assert page.evaluate("window.__cspViolations") == []
    assert not problems, problems
