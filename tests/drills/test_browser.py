"""In a real browser (system Chromium): trainee1 settles a payout drill with the keyboard alone,
one deliberate mistake included; handles an exposed dealer card in a procedure drill; then
pitboss1 finds the results. Set DRILLS_SCREENSHOTS=/some/dir to keep screenshots of each page."""

import os
from decimal import Decimal

import pytest

from casino.roles import PIT_BOSS, TRAINEE
from drills import payout
from drills.models import Drill
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("DRILLS_SCREENSHOTS")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def browser_login(page, username):
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def row_in_focus(page) -> int:
    return page.evaluate(
        "(() => { const r = document.activeElement.closest('.sheet-row'); return r ? +r.dataset.index : -1; })()"
    )


def _settle_with_keys(page, drill, number, spoil=None):
    """Settle round `number` as the simulated dealer did, keys only; `spoil` the index of the
    answer to get wrong. Returns (the spoiled answer, its wrong amount) or None."""
    current = drill.rounds.get(number=number)
    sheet = current.script["sheet"]
    keys = [(line["stake"], line["hand"], line["wager"]) for line in sheet]
    answers = payout.simulated_answers(current.doc)
    spoiled = None
    for k, answer in enumerate(answers):
        row = keys.index(payout.key_of(answer))
        while row_in_focus(page) != row:
            page.keyboard.press("ArrowDown" if row_in_focus(page) < row else "ArrowUp")
        result, amount = answer["result"], answer["amount"]
        if k == spoil:
            if result == "pay":
                amount = str(Decimal(str(amount)) + 1)
            else:
                result, amount = "pay", str(Decimal(str(sheet[row]["size"])))
            spoiled = (answer, result, amount)
        page.keyboard.press({"pay": "p", "take": "t", "leave": "l"}[result])
        if result == "pay":
            page.keyboard.type(str(amount))
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "submit-round"
    _shot(page, f"payout-round-{number}-settled")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return spoiled


def test_trainee_drills_and_the_pit_boss_sees_the_results(browser_page, make_user, floor):
    trainee = make_user(TRAINEE, pits=[floor.pit_a], username="trainee1")
    make_user(PIT_BOSS, pits=[floor.pit_a], username="pitboss1")
    page = browser_page

    # --- trainee1 lands on the drills, not the floor ---
    browser_login(page, "trainee1")
    page.wait_for_selector("h1:has-text('Drills')")
    assert page.locator(".mainnav a", has_text="Floor").count() == 0
    _shot(page, "home")

    # --- a payout drill of two rounds: the first right, the second with one mistake ---
    page.check("input[name=kind][value=payout]")
    page.select_option("#id_game", "ochko")
    page.fill("#id_rounds", "2")
    page.fill("#id_boxes", "3")
    page.click(".seed-box summary")
    page.fill("#id_seed", "4242")
    with page.expect_navigation():
        page.click("button:has-text('Deal')")
    drill = Drill.objects.get(trainee=trainee, kind="payout")
    assert page.locator(".felt-table .pcard").count() > 0  # the table is drawn: cards ...
    assert page.locator(".felt-table .pchip").count() > 0  # ... and chips
    assert page.locator(".keys-line kbd", has_text="P").count() == 1  # the shortcuts are on screen
    _shot(page, "payout-round-1")
    assert _settle_with_keys(page, drill, 1) is None
    page.wait_for_selector(".round-score")
    assert page.locator(".round-score").inner_text().startswith(str(drill.rounds.get(number=1).decisions))
    assert page.locator(".scoreboard .acc").inner_text() == "100 %"
    with page.expect_navigation():
        page.keyboard.press("Enter")  # "Next round" has the focus

    answer, result, amount = _settle_with_keys(page, drill, 2, spoil=0)
    _shot(page, "payout-review")
    wrong = page.locator(".graded-row.wrong")
    assert wrong.count() >= 1
    first = wrong.first.inner_text()
    assert "Right settlement:" in first
    right = drill.rounds.get(number=2).graded["answers"][0]["right"]
    owed = right["amount"] if right["result"] == "pay" else right["size"]
    assert f"{Decimal(owed):,.0f}" in first.replace(".00", "")  # the right amount, as the floor writes it
    assert page.locator(".next-bar .was").inner_text() == "100 %"
    now = Decimal(page.locator(".next-bar .acc-now").inner_text().rstrip(" %"))
    assert now < 100  # the mistake lowered the accuracy
    with page.expect_navigation():
        page.keyboard.press("Enter")  # "See the results"
    assert "/results/" in page.url
    _shot(page, "payout-results")

    # --- a procedure drill whose dealer card flips during the deal ---
    page.goto("/drills/")
    page.check("input[name=kind][value=procedure]")
    page.fill("#id_rounds", "1")
    page.fill("#id_boxes", "2")
    page.select_option("#id_incidents", "every")
    for box in page.locator("input[name=incident_kinds]").all():
        if box.get_attribute("value") != "dealer_card_exposed":
            box.uncheck()
    with page.expect_navigation():
        page.click("button:has-text('Deal')")
    procedure = Drill.objects.get(trainee=trainee, kind="procedure")
    script = procedure.rounds.get().script
    handled = False
    for _k, step in enumerate(script["steps"]):
        page.wait_for_selector(".prompt")
        right = next(c for c in step["choices"] if c["correct"])
        if step["kind"] == "incident":
            assert "flips face up" in page.locator(".prompt").inner_text()
            assert page.locator(".dealer-hand .pcard:not(.back)").count() == 1  # the exposed card, face up
            _shot(page, "procedure-incident")
        with page.expect_navigation():
            page.keyboard.press(right["key"])
        if step["kind"] == "incident":
            feedback = page.locator(".feedback.ok").inner_text()
            assert "pit boss" in feedback and "burned" in feedback
            assert page.locator(".dealer-hand .pcard.back").count() == 1  # a new card, face down
            handled = True
            _shot(page, "procedure-after-incident")
    assert handled
    page.wait_for_selector(".round-score")
    _shot(page, "procedure-review")
    assert page.locator(".graded-row.wrong").count() == 0

    # --- pitboss1 sees trainee1's results ---
    with page.expect_navigation():
        page.click("text=Log out")
    browser_login(page, "pitboss1")
    page.goto("/drills/trainees/")
    card = page.locator(".trainee-card", has_text="trainee1")
    assert card.count() == 1
    _shot(page, "pitboss-trainees")
    with page.expect_navigation():
        card.locator("a.t-name").click()
    assert page.locator("h1").inner_text().startswith(trainee.get_full_name())
    with page.expect_navigation():
        page.click(f"a[href='/drills/{drill.pk}/results/']")
    assert page.locator(".big-acc").inner_text() != "–"
    assert page.locator(".mistakes li").count() >= 1
    _shot(page, "pitboss-results")


def test_the_shortcuts_work_with_a_russian_keyboard_layout(browser_page, make_user, floor):
    # With a Russian layout the P key types "з"; the trainee still means "pay". A Latin layout's
    # own letter wins over the key's position (AZERTY's A is "a", though it sits where Q is).
    make_user(TRAINEE, pits=[floor.pit_a], username="trainee1")
    page = browser_page
    browser_login(page, "trainee1")
    page.check("input[name=kind][value=payout]")
    page.select_option("#id_game", "ochko")
    page.fill("#id_rounds", "1")
    with page.expect_navigation():
        page.click("button:has-text('Deal')")
    assert page.evaluate(
        "[shortcutKey({key: 'з', code: 'KeyP'}), shortcutKey({key: 'a', code: 'KeyQ'}),"
        " shortcutKey({key: 'Enter', code: 'Enter'})]"
    ) == ["p", "a", "Enter"]
    checked = (
        "(() => { const r = document.activeElement.closest('.sheet-row');"
        " const c = r && r.querySelector('input[type=radio]:checked'); return c ? c.value : null; })()"
    )
    assert page.evaluate(checked) is None
    page.evaluate(
        "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
        " {key: 'е', code: 'KeyT', bubbles: true, cancelable: true}))"
    )
    assert page.evaluate(checked) == "take"
    page.evaluate(
        "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
        " {key: 'з', code: 'KeyP', bubbles: true, cancelable: true}))"
    )
    assert page.evaluate(checked) == "pay"
    assert page.evaluate("document.activeElement.classList.contains('amount')")
