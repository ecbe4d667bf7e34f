"""In a real browser (system Chromium): trainee1 plays the strategy trainer from the keyboard, one
deliberate mistake included, sees every option's value and the cost, and the page holds at a phone's
width. Set DRILLS_SCREENSHOTS=/some/dir to keep screenshots."""

import os

import pytest

from casino.roles import TRAINEE
from drills import services, strategy
from drills.models import Drill
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("DRILLS_SCREENSHOTS")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_trainee_plays_the_strategy_trainer_with_keys(browser_page, make_user, floor):
    trainee = make_user(TRAINEE, pits=[floor.pit_a], username="trainee1")
    page = browser_page
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto("/accounts/login/")
    page.fill("#id_username", "trainee1")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.goto("/drills/")
    page.check("input[name=kind][value=strategy]")
    page.select_option("#id_game", "blackjack:salon")
    page.fill("#id_rounds", "2")
    page.click(".seed-box summary")
    page.fill("#id_seed", "2024")
    strategy._bj_chart("salon")  # the chart solved before the clock runs (GAMEMATH_WARM in production)
    with page.expect_navigation(timeout=60_000):
        page.click("button:has-text('Deal')")
    drill = Drill.objects.get(trainee=trainee, kind="strategy")
    assert page.locator(".strategy-felt .pcard").count() == 3  # two cards and the dealer's up card
    _shot(page, "strategy-1366")
    mistake_made = False
    for _guard in range(20):
        drill.refresh_from_db()
        current = drill.rounds.filter(answered_at__isnull=True).first()
        if current is None:
            break
        decision = services.strategy_decision(current)
        key = decision.keys[decision.best]
        if not mistake_made:
            wrong = [o for o in decision.options
                     if o != decision.best and decision.options[o] != decision.options[decision.best]]
            if wrong:
                key, mistake_made = decision.keys[wrong[0]], True
        assert page.locator(f'.choice[data-key="{key}"]').count() == 1
        with page.expect_navigation(timeout=60_000):
            page.keyboard.press(key.lower())
        feedback = page.locator("[data-feedback]").first
        assert feedback.locator(".ev-table tbody tr").count() == len(decision.options)
        if key != decision.keys[decision.best] and "wrong" in feedback.get_attribute("class"):
            assert "costs" in feedback.inner_text()
            _shot(page, "strategy-feedback-1366")
            page.set_viewport_size({"width": 390, "height": 844})
            _shot(page, "strategy-feedback-390")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1  # nothing pushes the phone's page sideways
            page.set_viewport_size({"width": 1366, "height": 900})
    drill.refresh_from_db()
    assert not drill.is_active and drill.decisions >= 2 and drill.correct == drill.decisions - int(mistake_made)
    assert "/round/" in page.url
    with page.expect_navigation():
        page.keyboard.press("Enter")  # "See the results"
    assert "/results/" in page.url
    if mistake_made:
        assert page.locator(".situations-card li").count() == 1
    _shot(page, "strategy-results")
