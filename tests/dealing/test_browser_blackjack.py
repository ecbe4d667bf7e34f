"""In a real browser (system Chromium): a dealer logs a salon blackjack round with a split and a double
through the form, with the keyboard (P splits, D doubles, S stands), sees the engine's finding on a
deliberately wrong payout, corrects it ("o" fills what is owed), saves clean; the round page then draws
the split hands side by side."""

import pytest

from casino.roles import DEALER
from dealing import engine
from dealing.models import Round
from tests.dealing.test_browser import log_in, type_into
from tests.factories import TableFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def settle(page, field, key, amount):
    """In a result: a key (p, t, l), then Tab to its amount."""
    page.focus(f"#id_{field}_result")
    page.keyboard.press(key)
    page.keyboard.press("Tab")
    page.keyboard.type(amount)


def test_a_dealer_logs_a_split_and_a_double_corrects_a_payout_and_sees_the_hands_side_by_side(
    browser_page, make_user, floor
):
    table = TableFactory(name="Escribas", pit=floor.pit_a, variant="blackjack", boxes=5, rules={"preset": "salon"})
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    page = browser_page
    log_in(page, "dealer1")
    page.goto("/tables/Escribas/rounds/new")
    page.wait_for_selector("h1:has-text('Log a round at Escribas')")
    assert page.locator(".bj-spot").count() == 5

    # Box 1: P-1 bets 200 on 8♠ 8♥; P splits the pair, the first half is on at once.
    type_into(page, "#id_s1_player", "P-1")
    page.keyboard.press("Tab")
    page.keyboard.type("200")
    type_into(page, "#id_h1_cards", "8s 8h")
    assert page.locator("#box-1 .split-btn").is_visible()  # a pair: the split is offered
    page.keyboard.press("p")
    page.wait_for_selector("#id_h1-1_cards")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'id_h1-1_cards'")
    # 1.1 takes a 3, then D: its next card is the double's (9♥, laid across); S stands on to 1.2.
    page.keyboard.type("3c ")
    page.keyboard.press("d")
    assert page.is_checked("#id_h1-1_double")
    page.keyboard.type("9h ")
    assert page.locator("[data-hand='1.1'] .card-row .pcard.across").count() == 1
    page.keyboard.press("s")
    page.wait_for_function("document.activeElement.id === 'id_h1-2_cards'")
    page.keyboard.type("td")

    # Box 2: P-2 bets 500 on 9♣ 2♦ and doubles (K♠).
    type_into(page, "#id_s2_player", "P-2")
    type_into(page, "#id_s2_bet", "500")
    type_into(page, "#id_h2_cards", "9c 2d ")
    page.keyboard.press("d")
    page.keyboard.type("ks")
    # The dealer: 6♥ up, 10♣ in the hole, draws 7♦ and busts.
    type_into(page, "#id_dealer_up", "6h")
    type_into(page, "#id_dealer_hole", "tc")
    type_into(page, "#id_dealer_draws", "7d")

    # What the dealer paid — the double on 1.1 deliberately short.
    settle(page, "h1-1_bet", "p", "200")
    settle(page, "h1-1_double", "p", "100")
    settle(page, "h1-2_bet", "p", "200")
    settle(page, "h2_bet", "p", "500")
    settle(page, "h2_double", "p", "500")

    # Enter checks: the engine's finding, next to the hand's double, before anything is saved.
    page.keyboard.press("Enter")
    page.wait_for_selector("#check-panel")
    message = "Box 1, stake 1, hand 1.1: double paid 100, owed 200"
    assert message in page.locator("#check-panel").inner_text()
    assert message in page.locator("[data-hand='1.1'] .settle-row.is-wrong").inner_text()
    assert page.locator("button[data-action=save]").inner_text().startswith("Save with findings")
    assert Round.objects.count() == 0

    # "o" fills what is owed; Enter checks again: clean; Ctrl+Enter saves.
    page.focus("#id_h1-1_double_result")
    page.keyboard.press("o")
    assert page.input_value("#id_h1-1_double_amount") == "200"
    page.focus("#id_h1-1_double_amount")
    page.keyboard.press("Enter")
    page.wait_for_selector(".check-panel.is-clean")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("h1:has-text('Round')")
    assert "Round saved" in page.locator(".messages").inner_text()

    record = Round.objects.get()
    assert (record.table, record.dealer) == (table, dealer)
    assert engine.replay(record.document).findings == []
    plays = [
        (e["e"], e.get("hand")) for e in record.document["events"] if e["e"] in ("split", "hit", "double", "stand")
    ]
    assert plays == [
        ("split", "1"),
        ("hit", "1.1"),
        ("double", "1.1"),
        ("hit", "1.2"),
        ("stand", "1.2"),
        ("double", "2"),
    ]

    # The round page: 1.1 and 1.2 side by side under the pair, the double's card laid across.
    first = page.locator("[data-testid=bj-felt] [data-hand='1.1']").bounding_box()
    second = page.locator("[data-testid=bj-felt] [data-hand='1.2']").bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and first["x"] + first["width"] <= second["x"] + 1
    assert page.locator("[data-testid=bj-felt] [data-hand='1.1'] .pcard.across").count() == 1
    assert "Correct this round" in page.locator(".row-actions").inner_text()
