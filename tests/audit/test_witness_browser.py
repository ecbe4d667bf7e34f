"""In a real browser (system Chromium), at 1366 and 390 px: with the witness away, the auditor's
dashboard says since when and how many checkpoints wait, without breaking the page's layout."""

import os

import pytest

from dealing import services
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_the_dashboard_says_the_witness_is_unreachable(browser_page, people, floor, settings, width):
    settings.WITNESS_URL = "http://127.0.0.1:9"  # nothing listens: refused at once
    settings.WITNESS_TIMEOUT = 0.5
    for _ in range(2):
        assert services.checkpoint_write_all().ok  # written locally all the same
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/audit/")
    page.fill("#id_username", people.auditor.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    notice = page.locator("[data-testid=witness-unreachable]")
    notice.wait_for()
    text = notice.inner_text()
    assert "Witness unreachable" in text and "2 checkpoints wait to be countersigned" in text
    assert "Rounds are still logged" in text
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = notice.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    if os.environ.get("SCREENSHOT_DIR"):
        page.screenshot(path=f"{os.environ['SCREENSHOT_DIR']}/witness-{width}.png", full_page=False)
