"""In a real browser (system Chromium): a trainee reads Ochko's optimal play and asks a question.

Screenshots at 1366 and 768 px wide go to $GAMEMATH_SCREENSHOTS (a directory) when it is set.
"""

import os

import pytest

from casino.roles import TRAINEE
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shot(page, name: str) -> None:
    folder = os.environ.get("GAMEMATH_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, name), full_page=True)


def test_a_trainee_reads_the_charts_and_asks_a_question(browser_page, make_user):
    make_user(TRAINEE, username="trainee1")
    page = browser_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Every script and stylesheet loads (the browser's own favicon request is not the page's).
    page.on("response", lambda r: errors.append(r.url) if r.status >= 400 and "favicon" not in r.url else None)
    page.goto("/math/ochko/")
    page.fill("#id_username", "trainee1")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Ochko')")
    assert page.locator(".mainnav a:has-text('Game math')").count() == 1
    assert page.locator("table.gm-grid").count() == 2
    assert page.locator("table.gm-grid[data-bet='1'] td[data-action]").count() == 26 * 9
    page.wait_for_function("() => window.Chart && Chart.getChart('edge-chart') !== undefined")
    assert page.evaluate("Chart.getChart('edge-chart').data.datasets[0].data.length") == 4
    for width in (1366, 768):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(300)
        _shot(page, f"gamemath-ochko-{width}.png")

    page.click("text=Ochko: ask a question")
    page.fill("#id_cards", "TS 6H")
    page.fill("#id_dealer", "1C")
    page.click("button:has-text('Ask')")
    assert "not a card" in page.locator("#dealer-error").inner_text()
    _shot(page, "gamemath-ask-error-768.png")
    page.fill("#id_dealer", "9C")
    page.fill("#id_bet", "10")
    page.click("button:has-text('Ask')")
    page.wait_for_selector("#answer-options")
    assert page.locator("#answer-options tr.best").get_attribute("data-option") == "stand"
    for width in (1366, 768):
        page.set_viewport_size({"width": width, "height": 900})
        _shot(page, f"gamemath-ask-{width}.png")
    assert errors == []
