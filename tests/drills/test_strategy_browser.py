"""In a real browser (system Chromium): trainee1 plays the strategy trainer from the keyboard, one
deliberate mistake included, sees every option's value and the cost, and the page holds at a phone's
width. Set DRILLS_SCREENSHOTS=/some/dir to keep screenshots."""

import os

import pytest

from casino.roles import TRAINEE
from dealing.games.blackjack import strategy as bj_strategy
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
    bj_strategy.chart("salon")  # the chart solved before the clock runs (GAMEMATH_WARM in production)
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
            wrong = [
                o
                for o in decision.options
                if o != decision.best and decision.options[o] != decision.options[decision.best]
            ]
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


def _login(page, username):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def test_trainee_plays_ochko_at_a_table_with_its_own_house_rules(browser_page, make_user, floor):
    trainee = make_user(TRAINEE, pits=[floor.pit_a], username="trainee2")
    page = browser_page
    _login(page, "trainee2")
    page.goto("/drills/")
    page.check("input[name=kind][value=strategy]")
    page.select_option("#id_game", "ochko")
    house_rules = page.locator("fieldset.house-rules")
    assert house_rules.is_visible()  # only for ochko's strategy trainer
    page.select_option("#id_dark_win_bet", "take")
    page.fill("#id_rounds", "2")
    page.click(".seed-box summary")
    page.fill("#id_seed", "77")
    _shot(page, "ochko-start-1366")
    with page.expect_navigation(timeout=120_000):
        page.click("button:has-text('Deal')")
    drill = Drill.objects.get(trainee=trainee, kind="strategy")
    assert drill.options["house_rules"] == {"dark_win_bet": "take"}
    assert page.locator(".strategy-felt .pcard").count() == 2  # the first card and the dealer's, face down
    _shot(page, "ochko-bet-1366")
    answered = 0
    for _guard in range(30):
        drill.refresh_from_db()
        current = drill.rounds.filter(answered_at__isnull=True).first()
        if current is None:
            break
        decision = services.strategy_decision(current)
        assert current.doc["rules"] == {"dark_win_bet": "take"}
        # the bet first, then the play: the keys are the digits, then S H D
        assert (decision.dealer is None) == (page.locator(".bet-choices").count() == 1)
        key = decision.keys[decision.best]
        with page.expect_navigation(timeout=120_000):
            page.keyboard.press(key.lower())
        answered += 1
        if "/round/" in page.url:  # the last hand's review: every decision of it, each graded right
            assert all("ok" in f.get_attribute("class") for f in page.locator("[data-feedback]").all())
            break
        feedback = page.locator("[data-feedback]").first
        assert feedback.locator(".ev-table tbody tr").count() == len(decision.options)
        assert "ok" in feedback.get_attribute("class")  # the best option is graded right
        if answered == 1:
            _shot(page, "ochko-feedback-1366")
    drill.refresh_from_db()
    assert not drill.is_active and drill.decisions == answered and drill.correct == answered
    _shot(page, "ochko-round-1366")


def test_a_split_is_drawn_hand_by_hand(browser_page, make_user, floor):
    trainee = make_user(TRAINEE, pits=[floor.pit_a], username="trainee3")
    drill = services.drill_start(
        trainee=trainee, variant="blackjack", preset="salon", kind="strategy", seed=5, rounds=1
    )
    current = services.drill_next(drill=drill, user=trainee)
    current.doc = {
        **current.doc,
        "cards": ["8S", "8H"],
        "dealer": "AC",
        "draws": ["3D", "TC", "2S"] + current.doc["draws"][3:],
    }
    current.script = {"state": strategy.start_state("blackjack", current.doc)}
    current.save()
    page = browser_page
    _login(page, "trainee3")
    page.goto(f"/drills/{drill.pk}/")
    assert "insurance" in page.locator(".prompt").inner_text().lower()
    _shot(page, "bj-insurance-1366")
    for key in ("n", "p"):
        with page.expect_navigation(timeout=120_000):
            page.keyboard.press(key)
    hands = page.locator(".s-split")
    assert hands.count() == 2 and page.locator(".s-split.s-current").get_attribute("data-hand") == "1"
    assert hands.nth(0).locator(".pcard").count() == 2 and hands.nth(1).locator(".pcard").count() == 1
    _shot(page, "bj-split-1366")
    with page.expect_navigation(timeout=120_000):
        page.keyboard.press("d")
    assert page.locator(".s-split.s-current").get_attribute("data-hand") == "2"
    _shot(page, "bj-split-second-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "bj-split-second-390")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1
