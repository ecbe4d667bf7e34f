"""The player evaluation page in a real browser, at a phone's width and a laptop's: no
Content-Security-Policy violation (the chart is SVG drawn by the server, no script, no inline style)
and nothing wider than the screen. Set CSP_SHOTS=/some/dir to keep the screenshots."""

import os

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from .test_browser import WATCH
from .test_protection import PLAYER, watched  # noqa: F401 - the fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


@pytest.mark.parametrize("width, height", [(390, 844), (1366, 900)])
def test_the_player_evaluation_page_in_a_browser(browser_page, live_server, crew, watched, width, height):  # noqa: F811
    page = browser_page
    page.set_viewport_size({"width": width, "height": height})
    page.context.add_init_script(WATCH)
    login(page, live_server, crew.auditor)
    url = reverse("books:player_evaluation", args=[PLAYER])
    # A rule set's first evaluation in a process builds its removal solvers (ochko/evaluation.py):
    # 9 s of CPU on the pure-Python engine the tests run, past the browser's 15 s on a loaded CI
    # machine. The live server is a thread of this process, so one answer here leaves them built
    # and the browser times the page itself.
    client = Client()
    client.force_login(crew.auditor)
    assert client.get(url).status_code == 200
    page.goto(url)
    assert page.locator("svg.bet-chart circle").count() > 10
    assert page.locator("[data-testid=edge]").inner_text().strip().endswith("%")
    # The page itself never scrolls sideways: wide tables scroll inside their own region.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if os.environ.get("CSP_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["CSP_SHOTS"], f"player-evaluation-{width}.png"), full_page=True)
    assert page.evaluate("window.__cspViolations") == []
