"""In a real browser: axe-core (vendored, casino/static/vendor/axe.min.js) on every page of
tests/casino/test_csp_browser.py, opened by each role that may open it, at 1366 and 390 px wide:
no serious or critical accessibility violation (but Swagger UI's own nested controls on the API
docs page, see RUN), and no page wider than the window (no horizontal
overflow). axe is evaluated by the browser test itself, not loaded by any page (the pages' CSP
stays as it is).

Set AXE_SHOTS=/some/dir to keep a screenshot of each page at each width.
"""

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from casino import demo
from tests.casino.test_csp_browser import USERNAMES, browser_login, object_pages
from tests.casino.test_roles import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.timeout(1800)]

AXE = (Path(__file__).resolve().parents[2] / "casino" / "static" / "vendor" / "axe.min.js").read_text("utf-8")
WIDTHS = (1366, 390)
# Swagger UI (the API docs page) draws each operation as a button holding a link: its own markup,
# vendored and not ours to change; that one rule is not run inside it. Everything else is.
RUN = """async () => {
  const swagger = document.getElementById("swagger-ui");
  const options = {resultTypes: ["violations"]};
  if (swagger) options.rules = {"nested-interactive": {enabled: false}};
  const result = await axe.run(document, options);
  return result.violations.filter(v => v.impact === "serious" || v.impact === "critical").map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n")[1])}));
}"""
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width + 1) return null;
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && getComputedStyle(el).position !== "fixed" && !el.closest(".table-scroll, .scroll-x, [data-scroll]")) {
      wide.push((el.id ? "#" + el.id : el.tagName.toLowerCase() + "." + [...el.classList].join(".")) + " " + Math.round(r.right));
      if (wide.length > 5) break;
    }
  }
  return {scrollWidth: document.documentElement.scrollWidth, width, wide};
}"""


# One test per width: each walks every page, and the two run side by side under `make test`'s workers.
@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_has_no_serious_accessibility_violation_and_fits_the_window(browser_page, live_server, eager, width):
    demo.demo_floor_load()
    pages = [(reverse(name), allowed) for name, allowed in PAGES if not name.startswith("api:") and name != "schema"]
    pages += object_pages(eager)
    page = browser_page
    page.set_default_timeout(90_000)  # the odds pages compute on a loaded machine
    shots = os.environ.get("AXE_SHOTS")
    by_role: dict[str, list[str]] = {}
    for url, allowed in pages:
        for role in allowed:
            by_role.setdefault(role, []).append(url)

    seen, problems, overflow = 0, [], []
    page.set_viewport_size({"width": width, "height": 900})
    for role, urls in by_role.items():
        browser_login(page.context, live_server, USERNAMES[role])
        for url in urls:
            response = page.goto(url)
            page.wait_for_load_state("networkidle")
            assert response.status < 400, (role, url, response.status)
            page.evaluate(AXE)
            found = page.evaluate(RUN)
            if found:
                problems.append((width, role, url, found))
            wide = page.evaluate(OVERFLOW)
            if wide:
                overflow.append((width, role, url, wide))
            if shots:
                name = re.sub(r"[^A-Za-z0-9]+", "_", f"{width}_{role}{url}").strip("_")
                page.screenshot(path=os.path.join(shots, f"{name}.png"), full_page=True)
            seen += 1
    assert seen >= 40
    assert problems == [], "\n".join(map(str, problems))
    assert overflow == [], "\n".join(map(str, overflow))
