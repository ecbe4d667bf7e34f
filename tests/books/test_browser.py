"""In a real browser: the shift page, with every section filled in, runs under the
Content-Security-Policy without a violation, and its forms work (the closing count by chips).
Set CSP_SHOTS=/some/dir to keep a screenshot."""

import os

import pytest
from django.conf import settings
from django.test import Client

from books import services
from books.models import TableShift

from .conftest import OPENING, fill, log_rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _login(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.clear_cookies()
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def test_the_shift_page_in_a_browser(browser_page, live_server, crew, open_shift):
    page = browser_page
    page.context.add_init_script(WATCH)
    shift = open_shift()
    log_rounds(crew.table, crew.dealer, 3, seed=11)
    fill(shift, crew, {"1000": 2})
    services.transfer_request(shift=shift, kind="credit", counts={"100": 5}, requested_by=crew.dealer)
    services.cash_record(shift=shift, kind="chips_sold", amount="500", recorded_by=crew.dealer)
    _login(page, live_server, crew.dealer)
    page.goto(f"/books/{shift.pk}/")
    for denom, n in OPENING.items():
        page.fill(f"#id_closing-c_{denom}", str(n))
    page.click("form:has(input[value=closing]) button[type=submit]")
    page.wait_for_load_state()
    assert page.evaluate("window.__cspViolations") == []
    shift = TableShift.objects.get(pk=shift.pk)
    assert shift.closing_total == 45000
    _login(page, live_server, crew.pit_boss2)
    page.goto(f"/books/{shift.pk}/")
    assert "Close the shift" in page.content()
    if os.environ.get("CSP_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["CSP_SHOTS"], "books-shift.png"), full_page=True)
    assert page.evaluate("window.__cspViolations") == []
