"""In a real browser (system Chromium): a dealer logs in, sees the floor, logs out."""

import pytest

from casino.roles import DEALER
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_dealer_logs_in_sees_the_floor_and_logs_out(browser_page, make_user, floor):
    make_user(DEALER, pits=[floor.pit_a], username="dealer1")
    page = browser_page
    page.goto("/")
    assert "/accounts/login/" in page.url  # the floor needs a login
    page.fill("#id_username", "dealer1")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Floor')")
    assert page.locator(".table-card").count() == 1
    assert page.locator(".table-name").inner_text() == "R-1"
    assert page.locator(".limits").inner_text().split() == ["100", "–", "5,000"]
    assert page.locator(".box").count() == 6
    assert page.evaluate("typeof htmx") == "object"  # the vendored htmx loaded
    page.click("text=Log out")
    page.wait_for_url("**/accounts/login/")
