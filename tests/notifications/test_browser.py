"""In Chromium: the bell in the bar, the notifications page and the settings at 390 and 1366 px
(no horizontal overflow, the bar still one line at 1366), marking all read by the page's own form,
and no Content-Security-Policy violation. NOTIFY_SHOTS=/some/dir keeps a screenshot of each."""

import os

import pytest
from django.urls import reverse

from notifications import services
from notifications.kinds import Kind
from tests.casino.test_axe_browser import OVERFLOW
from tests.casino.test_csp_browser import WATCH, browser_login
from tests.casino.test_layout_browser import ONE_LINE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
SHOTS = os.environ.get("NOTIFY_SHOTS")


def test_the_bell_and_the_pages_at_390_and_1366(browser_page, live_server, make_user, floor):
    boss = make_user("pit_boss", pits=floor.pits, username="pitboss1", email="pitboss1@casino.example")
    for k in range(28):
        services.notify(
            kind=Kind.HALT,
            recipients=[boss],
            params={"table": "R-1", "event": 12 + k, "code": "WRONG_AMOUNT"},
            url=reverse("dealing:terminal", args=["R-1"]),
            key=f"shot-{k}",
        )
    services.notify(
        kind=Kind.SHIFT_VARIANCE, recipients=[boss], params={"table": "R-2", "variance": "-150.00", "by": "pitboss2"}
    )
    page = browser_page
    page.context.add_init_script(WATCH)
    browser_login(page.context, live_server, "pitboss1")
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900})
        for name in ("notifications:list", "notifications:preferences"):
            page.goto(reverse(name))
            assert page.evaluate(OVERFLOW) is None, (name, width, page.evaluate(OVERFLOW))
            if width == 1366:
                assert page.evaluate(ONE_LINE)["lines"] == 1
            if SHOTS:
                page.screenshot(path=os.path.join(SHOTS, f"{name.split(':')[1]}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(reverse("notifications:list"))
    assert page.locator("[data-bell-count]").inner_text() == "29"
    assert page.locator(".note").count() == 25
    page.get_by_role("button", name="Mark all read").click()
    page.wait_for_url("**/notifications/")
    assert page.locator("[data-bell-count]").inner_text() == "0"
    assert page.evaluate("window.__cspViolations") == []
