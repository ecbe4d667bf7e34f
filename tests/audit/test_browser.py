"""In a real browser (system Chromium): the auditor opens the dashboard, follows an open finding to
the round replay, sees the table drawn with the finding marked, and confirms it."""

import pytest

from audit.models import Finding, Review
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_auditor_follows_a_finding_from_the_dashboard_to_the_replay_and_confirms_it(
    browser_page, people, floor, log_rounds, eager
):
    log_rounds(floor.table_a, people.dealer, n=6, seed=101, mistake_rate=1.0, kinds=["wrong_amount"])
    assert Finding.objects.filter(status="open").exists()
    page = browser_page
    page.goto("/audit/")
    page.fill("#id_username", people.auditor.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Audit dashboard')")
    assert page.locator("[data-testid=kpi-audited]").inner_text() == "6"
    page.wait_for_function("document.querySelectorAll('canvas').length >= 3 && typeof Chart !== 'undefined'")
    link = page.locator("[data-testid=open-finding-link]").first
    href = link.get_attribute("href")
    finding = Finding.objects.get(pk=int(href.rsplit("#finding-", 1)[1]))
    link.click()
    page.wait_for_selector("[data-testid=felt]")
    assert f"/audit/rounds/{finding.round_id}/" in page.url
    # The table is drawn: the dealer's hand and the boxes with cards; the finding's wager is flagged.
    assert page.locator("[data-testid=dealer] .au-card").count() >= 1
    assert page.locator(".au-box .au-card").count() >= 2
    assert page.locator("[data-testid=wagers] tr.flag").count() == 1
    card = page.locator(f"#finding-{finding.pk}")
    assert "WRONG_AMOUNT" in card.inner_text()
    card.locator("select[name=status]").select_option("confirmed")
    assert card.locator("select[name=classification]").input_value() == "dealer_error"
    card.locator("input[name=comment]").fill("Bet overpaid, seen on camera 3")
    card.locator("button[type=submit]").click()
    page.wait_for_selector(f"#finding-{finding.pk} .au-pill-confirmed")
    finding.refresh_from_db()
    assert (finding.status, finding.classification, finding.reviewed_by) == (
        "confirmed",
        "dealer_error",
        people.auditor,
    )
    assert Review.objects.get(finding=finding).comment == "Bet overpaid, seen on camera 3"
    assert "Bet overpaid, seen on camera 3" in page.locator(f"#finding-{finding.pk} .au-history").inner_text()
    page.screenshot(path="/tmp/audit-browser-replay.png", full_page=True)
