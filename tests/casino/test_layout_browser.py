"""In a real browser (issue #20 item 6): the navigation fits one line at 1366 px for every role;
the round forms and the round page fit 390, 768, 1024 and 1366 px without horizontal overflow;
and at 1024×768 the sticky Check bar never covers the field being typed (Box 1's Cards field
reached by Tab, and every field of the box after it).

Set LAYOUT_SHOTS=/some/dir to keep a screenshot of each page at each width."""

import os
import re

import pytest
from django.urls import reverse

from casino import demo
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing.models import Round
from tests.casino.test_axe_browser import OVERFLOW
from tests.casino.test_csp_browser import USERNAMES, browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]
SHOTS = os.environ.get("LAYOUT_SHOTS")

ONE_LINE = """() => {
  const nav = document.querySelector(".mainnav");
  const tops = [...nav.children].map(el => Math.round(el.getBoundingClientRect().top));
  const bar = document.querySelector(".topbar").getBoundingClientRect();
  return {lines: new Set(tops).size, height: Math.round(bar.height)};
}"""
COVERED = """(id) => {
  const el = document.getElementById(id), bar = document.querySelector(".action-bar");
  const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
  return {field: [Math.round(r.top), Math.round(r.bottom)], bar: Math.round(b.top),
          covered: r.bottom > b.top && r.top < b.bottom, visible: r.top >= 0 && r.bottom <= innerHeight};
}"""


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, re.sub(r"[^A-Za-z0-9]+", "_", name) + ".png"), full_page=True)


def test_the_navigation_fits_one_line_at_1366_for_every_role(browser_page, live_server):
    demo.demo_floor_load()
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 900})
    for role in (DEALER, INSPECTOR, PIT_BOSS, AUDITOR, TRAINEE, "superuser"):
        browser_login(page.context, live_server, USERNAMES[role])
        page.goto("/drills/" if role == TRAINEE else reverse("dealing:table_list"))
        shape = page.evaluate(ONE_LINE)
        _shot(page, f"nav-1366-{role}")
        assert shape["lines"] == 1 and shape["height"] < 80, (role, shape)
    # The menus open and close by keyboard alone.
    browser_login(page.context, live_server, USERNAMES["superuser"])
    page.goto(reverse("dealing:table_list"))
    summary = page.locator(".navmenu[data-menu=pit] > summary")
    summary.focus()
    page.keyboard.press("Enter")
    assert page.locator(".navmenu[data-menu=pit]").get_attribute("open") is not None
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.navmenu') !== null")
    page.keyboard.press("Escape")
    assert page.locator(".navmenu[data-menu=pit]").get_attribute("open") is None


def test_the_round_pages_fit_every_width_and_the_check_bar_covers_no_field(browser_page, live_server):
    demo.demo_floor_load()
    page = browser_page
    browser_login(page.context, live_server, USERNAMES[DEALER])
    urls = [reverse("dealing:round_new", args=[name]) for name in ("R-1", "Escribas", "Casa-21")]
    urls.append(reverse("dealing:round_detail", args=[Round.objects.filter(table__name="R-1").first().pk]))
    urls.append(reverse("dealing:shoe", args=["R-1"]))
    wide = []
    for width in (390, 768, 1024, 1366):
        page.set_viewport_size({"width": width, "height": 768 if width == 1024 else 900})
        for url in urls:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            found = page.evaluate(OVERFLOW)
            if found:
                wide.append((width, url, found))
            _shot(page, f"layout-{width}-{url}")
    assert wide == [], "\n".join(map(str, wide))

    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(reverse("dealing:round_new", args=["R-1"]))
    page.focus("#id_s1a_player")
    page.keyboard.type("P-1")  # a box in play (the form's Tab skips empty boxes)
    seen = []
    for _ in range(15):
        page.keyboard.press("Tab")
        active = page.evaluate("document.activeElement.id")
        if active.startswith(("id_s1", "id_b1")):
            where = page.evaluate(COVERED, active)
            seen.append(active)
            assert not where["covered"] and where["visible"], (active, where)
        if active == "id_b1_cards":
            break
        if active.startswith(("id_s1a_ante", "id_s1a_bet")):
            page.keyboard.type("100")
    assert "id_b1_cards" in seen, seen
    _shot(page, "layout-1024x768-box1-cards")
