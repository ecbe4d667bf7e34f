"""In a real browser (system Chromium): a dealer starts a night, draws for the bank, logs two rounds
— the bank passing once by a declared natural — and reads the balances on the ledger page."""

import pytest

from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_round(page, fields: dict) -> None:
    for name, value in fields.items():
        page.fill(f"#id_{name}", value)


def test_a_short_night_in_the_browser(browser_page, casa):
    page = browser_page
    page.goto("/ledger/")
    assert "/accounts/login/" in page.url
    page.fill("#id_username", "dealer1")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("h1:has-text('Game nights')")

    page.click("text=Start a night")
    page.fill("#id_name", "Viernes")
    page.fill("#id_players", "Ana\nBeto\nCaro")
    page.fill("#id_unit", "5")
    page.click("main button.btn-primary")

    # The draw: Ana and Caro tie on their aces and draw again; Caro's king wins.
    page.wait_for_selector("h1:has-text('Draw for the first bank')")
    for k, card in enumerate(["AS", "5D", "AH"]):
        page.fill(f"#id_card_{k}", card)
    page.click("main button.btn-primary")
    page.wait_for_selector("text=Tie!")
    page.fill("#id_card_0", "3C")
    page.fill("#id_card_1", "KS")
    page.click("main button.btn-primary")

    # Round 1, Caro's bank: Ana sits at her right (place 1), Beto at place 2 and declares a natural.
    page.wait_for_selector("h1:has-text('Round 1')")
    assert page.locator(".msg").first.inner_text() == "Caro holds the first bank."
    fill_round(
        page,
        {
            "min_bet": "5",
            "max_bet": "50",
            "bank_card_1": "QC",
            "bank_card_2": "7D",
            "s1_bet": "10",
            "s1_c1": "KH",
            "s1_c2": "5S",
            "s1_play": "4C stand",
            "s2_bet": "10",
            "s2_c1": "A♦",
            "s2_c2": "kd",
        },
    )
    page.check("#id_s2_declare")
    page.click("button[value=check]")
    page.wait_for_selector("text=What the rules engine sees")
    assert "The banco passes to Beto" in page.locator(".preview").inner_text()
    assert page.locator(".preview .clean").count() == 1  # no findings
    assert page.input_value("#id_pay_1_amount") == "10" and page.input_value("#id_pay_2_amount") == "20"
    assert page.input_value("#id_bank_to") == "Beto"
    page.click("button[value=save]")
    page.wait_for_selector("text=Round 1 saved.")

    # Round 2, Beto's bank: he announces his limits; Caro (place 1) 17 beats 16, Ana (place 2) 15 loses.
    page.click("text=Log round 2")
    page.wait_for_selector("h1:has-text('Round 2')")
    assert "Beto" in page.locator(".bank-card h2").inner_text()
    fill_round(
        page,
        {
            "min_bet": "5",
            "max_bet": "25",
            "bank_card_1": "JC",
            "bank_card_2": "6D",
            "s1_bet": "5",
            "s1_c1": "JH",
            "s1_c2": "7S",
            "s1_play": "stand",
            "s2_bet": "20",
            "s2_c1": "3H",
            "s2_c2": "2H",
            "s2_play": "QS stand",
        },
    )
    page.click("button[value=check]")
    page.wait_for_selector("text=What the rules engine sees")
    assert "stays with Beto" in page.locator(".preview").inner_text()
    page.click("button[value=save]")
    page.wait_for_selector("text=Round 2 saved.")

    # The ledger: round 1 Caro −30 (bank), Ana +10, Beto +20; round 2 Beto (bank) +15, Caro +5, Ana −20.
    balances = {
        li.get_attribute("data-player"): li.locator(".amount").inner_text() for li in page.locator("#balances li").all()
    }
    assert balances == {"Ana": "−10", "Beto": "+35", "Caro": "−25"}
    assert page.locator(".sum-check").inner_text().strip().startswith("Sum: 0")
    rounds = page.locator("#rounds tbody tr")
    assert rounds.count() == 2
    assert "Caro → Beto" in rounds.nth(0).locator(".bank-cell").inner_text()
    payments = page.locator("#payments li").all_inner_texts()
    assert [" ".join(p.split()) for p in payments] == ["Caro → Beto 25", "Ana → Beto 10"]
    assert page.locator(".place.is-bank .place-name").inner_text().startswith("Beto")
    assert page.evaluate("typeof Chart") == "function"
    assert page.evaluate("Chart.getChart('balance-chart').data.datasets.length") == 3
