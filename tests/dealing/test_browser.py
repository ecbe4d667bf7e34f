"""In a real browser (system Chromium): the dealer logs a round through the form with one wrong
payout, sees the engine's finding, corrects it and saves; then the pit boss approves an incident."""

import pytest

from casino.roles import DEALER, INSPECTOR, PIT_BOSS
from dealing import engine, services
from dealing.models import Round
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def log_out(page):
    page.click("text=Log out")
    page.wait_for_url("**/accounts/login/**")


def type_into(page, selector, text):
    page.focus(selector)
    page.keyboard.type(text)


def test_a_dealer_corrects_a_wrong_payout_and_a_pit_boss_approves_an_incident(browser_page, make_user, floor):
    dealer = make_user(DEALER, pits=[floor.pit_a], username="dealer1", first_name="Ivan", last_name="Petrov")
    inspector = make_user(INSPECTOR, pits=[floor.pit_a], username="inspector1")
    make_user(PIT_BOSS, pits=[floor.pit_a], username="pitboss1")
    incident = services.incident_report(
        table=floor.table_a,
        kind="dealer_card_exposed",
        card="KH",
        exposed=True,
        resolution="burned",
        dealer=dealer,
        reported_by=inspector,
        evidence="CAM-4 21:14:07",
    )
    page = browser_page

    # The dealer: "Log a round" goes straight to his one table.
    log_in(page, "dealer1")
    page.click("nav.mainnav >> text=Log a round")
    page.wait_for_selector("h1:has-text('Log a round at R-1')")
    assert page.locator(".spot").count() == 6

    # Box 1: P-23 plays Ante 100, Bet 300 and a dealer bet of 10; 10♠ 9♥ stands on 19. Box 3 folds.
    type_into(page, "#id_s1a_player", "P-23")
    page.keyboard.press("Tab")
    page.keyboard.type("100")  # Ante
    page.keyboard.press("Tab")
    page.keyboard.type("10")  # dealer bet
    page.keyboard.press("Tab")
    page.keyboard.type("300")  # Bet
    type_into(page, "#id_b1_cards", "ts 9h")
    # Cards are drawn as cards as soon as they are typed.
    assert page.locator("#box-1 .card-row .pcard").evaluate_all("cards => cards.map(c => c.title)") == ["10♠", "9♥"]
    # The settlement rows appear for the stake; p / t / l choose the result in a result field.
    page.focus("#id_s1a_bet_result")
    page.keyboard.press("p")
    page.keyboard.press("Tab")
    page.keyboard.type("200")  # the wrong payout: the Bet is owed 300
    page.focus("#id_s1a_ante_result")
    page.keyboard.press("p")
    page.keyboard.press("Tab")
    page.keyboard.type("100")
    page.focus("#id_s1a_dealer_bet_result")
    page.keyboard.press("p")
    page.keyboard.press("Tab")
    page.keyboard.type("10")
    type_into(page, "#id_s3a_player", "P-08")
    type_into(page, "#id_s3a_ante", "200")
    page.check("#id_s3a_fold")
    type_into(page, "#id_b3_cards", "6D")
    page.focus("#id_s3a_ante_result")
    page.keyboard.press("t")
    page.keyboard.press("Tab")
    page.keyboard.type("200")
    type_into(page, "#id_dealer_cards", "7C TD")

    # Enter checks the round with the engine: the finding, next to the field, before anything is saved.
    page.keyboard.press("Enter")
    page.wait_for_selector("#check-panel")
    panel = page.locator("#check-panel").inner_text()
    assert "Box 1, stake 1a: Bet paid 200, owed 300" in panel
    assert "Box 1, stake 1a: Bet paid 200, owed 300" in page.locator(".settle-row.is-wrong").inner_text()
    assert page.locator("button[data-action=save]").inner_text().startswith("Save with findings")
    assert Round.objects.count() == 0

    # The dealer corrects it ("o" fills what is owed into the field) and checks again: clean.
    page.focus("#id_s1a_bet_result")
    page.keyboard.press("o")
    assert page.input_value("#id_s1a_bet_amount") == "300"
    page.focus("#id_s1a_bet_amount")
    page.keyboard.press("Enter")
    page.wait_for_selector(".check-panel.is-clean")
    assert "Checked: clean" in page.locator("#check-panel").inner_text()
    page.keyboard.press("Control+Enter")  # save
    page.wait_for_selector("h1:has-text('Round')")
    # The message names the round by its number at the table, as every page does (not the database id).
    assert "Round saved: R-1, round 1." in page.locator(".messages").inner_text()

    record = Round.objects.get()
    assert record.table_round == 1
    assert record.dealer == dealer and record.table == floor.table_a
    assert engine.replay(record.document).findings == []
    bet = [e for e in record.document["events"] if e.get("stake") == "1a" and e.get("wager") == "bet"]
    assert bet == [{"e": "pay", "stake": "1a", "wager": "bet", "amount": 300}]
    log_out(page)

    # The pit boss approves the incident the inspector reported.
    log_in(page, "pitboss1")
    page.click("nav.mainnav >> text=Pit queue")
    item = page.locator(f"#queue-incident-{incident.pk}")
    assert "CAM-4 21:14:07" in item.inner_text()
    item.locator("textarea[name=comment]").fill("Burned in my presence; new card dealt.")
    item.locator("button[value=approved]").click()
    page.wait_for_selector(f"#queue-incident-{incident.pk} .decided")
    assert "Approved" in page.locator(f"#queue-incident-{incident.pk}").inner_text()
    incident.refresh_from_db()
    assert incident.status == "approved"
    assert incident.approvals.get().comment == "Burned in my presence; new card dealt."
