"""In a real browser: every page, opened by each role that may open it, runs under the
Content-Security-Policy without a single violation (no inline script, no inline style).

The pages are those of tests/casino/test_roles.py (PAGES) and one of each object page: a round of
each game, its replay, a shoe, an audit run, the drills (play, results, progress), the ledger's
game night and a round of it. The listener is installed before any script of the page runs, so
a violation during parsing is seen as well as one caused later by a script.

Set CSP_SHOTS=/some/dir to keep a full-page screenshot of each page (to compare looks).
"""

import os
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from audit import services as audit_services
from audit.models import AuditRun
from casino import demo
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from dealing.models import Round, Shoe
from drills import services as drill_services
from ledger.models import GameSession
from tests.casino.test_roles import PAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAMES = {
    DEALER: "dealer1",
    INSPECTOR: "inspector1",
    PIT_BOSS: "pitboss1",
    AUDITOR: "auditor1",
    TRAINEE: "trainee1",
    "superuser": "admin",
}

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def object_pages(eager) -> list[tuple[str, tuple[str, ...]]]:
    readers = (DEALER, PIT_BOSS, AUDITOR)
    pages = []
    for variant in ("ochko", "blackjack", "veintiuno"):
        round_ = Round.objects.filter(table__variant=variant).order_by("pk").first()
        pages.append((reverse("dealing:round_detail", args=[round_.pk]), readers))
        pages.append((reverse("audit:round_replay", args=[round_.pk]), (AUDITOR,)))
    table = Round.objects.filter(table__variant="ochko").first().table
    pages.append((reverse("dealing:round_new", args=[table.name]), (DEALER,)))
    blackjack = Round.objects.filter(table__variant="blackjack").first().table
    pages.append((reverse("dealing:round_new", args=[blackjack.name]), (DEALER,)))
    veintiuno = Round.objects.filter(table__variant="veintiuno").first().table
    pages.append((reverse("dealing:round_new", args=[veintiuno.name]), (DEALER,)))
    pages.append((reverse("dealing:shoe", args=[table.name]), (DEALER, PIT_BOSS)))
    pages.append((reverse("dealing:table_incidents", args=[table.name]), (PIT_BOSS,)))
    shoe = Shoe.objects.filter(table=table).first()
    pages.append((reverse("audit:shoe_detail", args=[shoe.pk]), (AUDITOR,)))
    auditor = get_user_model().objects.get(username="auditor1")
    audit_services.audit_run_start(started_by=auditor)  # eager: planned and audited at once
    run = AuditRun.objects.latest("pk")
    pages += [
        (reverse("audit:dashboard"), (AUDITOR,)),
        (reverse("audit:run_list"), (AUDITOR,)),
        (reverse("audit:run_detail", args=[run.pk]), (AUDITOR,)),
        (reverse("audit:finding_list"), (AUDITOR,)),
    ]
    trainee = get_user_model().objects.get(username="trainee1")
    for variant, preset, kind in (
        ("ochko", "", "payout"),
        ("blackjack", "salon", "procedure"),
        ("veintiuno", "", "payout"),
    ):
        drill = drill_services.drill_start(
            trainee=trainee, variant=variant, preset=preset, kind=kind, rounds=1, seed=4242
        )
        pages.append((reverse("drills:play", args=[drill.pk]), (TRAINEE,)))
    pages += [(reverse("drills:my_progress"), (TRAINEE,)), (reverse("drills:progress", args=[trainee.pk]), (PIT_BOSS,))]
    session = GameSession.objects.order_by("pk").first()
    pages += [
        (reverse("ledger:session_detail", args=[session.pk]), readers),
        (reverse("ledger:round_new", args=[session.pk]), (DEALER,)),
    ]
    first = session.rounds.order_by("number").first()
    if first is not None:
        pages.append((reverse("ledger:round_detail", args=[session.pk, first.number]), readers))
    pages.append((reverse("ledger:session_draw", args=[session.pk]), (DEALER,)))
    return pages


def browser_login(context, live_server, username: str) -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.clear_cookies()
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def test_no_page_breaks_the_content_security_policy(browser_page, live_server, eager):
    demo.demo_floor_load()
    pages = [(reverse(name), allowed) for name, allowed in PAGES if not name.startswith("api:") and name != "schema"]
    pages += object_pages(eager)
    page = browser_page
    page.context.add_init_script(WATCH)
    console_errors: list[str] = []
    page.on("console", lambda m: console_errors.append(m.text) if m.type == "error" else None)
    shots = os.environ.get("CSP_SHOTS")

    by_role: dict[str, list[str]] = {}
    for url, allowed in pages:
        for role in allowed:
            by_role.setdefault(role, []).append(url)
    by_role.setdefault("superuser", []).append(reverse("swagger-ui"))

    seen, problems = 0, []
    for role, urls in by_role.items():
        browser_login(page.context, live_server, USERNAMES[role])
        for url in urls:
            console_errors.clear()
            response = page.goto(url)
            page.wait_for_load_state("networkidle")
            assert response.status < 400, (role, url, response.status)
            assert "content-security-policy" in response.headers, url
            violations = page.evaluate("window.__cspViolations")
            csp_errors = [e for e in console_errors if "Content Security Policy" in e]
            if violations or csp_errors:
                problems.append((role, url, violations, csp_errors))
            if shots:
                name = re.sub(r"[^A-Za-z0-9]+", "_", f"{role}{url}").strip("_")
                page.screenshot(path=os.path.join(shots, f"{name}.png"), full_page=True)
            seen += 1
    assert seen >= 40
    assert problems == [], "\n".join(map(str, problems))
