"""Issue #20 item 4: in the payout drill take and pay never turn into each other silently —
pressing T then typing 200 records a take (of 200), not "Pay 200" — and a take may carry its
amount, as on the round form."""

import pytest
from django.urls import reverse

from casino.roles import TRAINEE
from drills import payout
from drills.models import Drill, DrillStep
from tests.drills.test_browser import browser_login, row_in_focus

pytestmark = pytest.mark.django_db


def _start(client, make_user, seed="31"):
    client.force_login(make_user(TRAINEE, username="trainee1"))
    client.post(
        reverse("drills:start"),
        {
            "game": "ochko",
            "kind": "payout",
            "table": "r500",
            "rounds": "1",
            "boxes": "4",
            "incidents": "none",
            "seed": seed,
        },
    )
    drill = Drill.objects.get()
    client.get(reverse("drills:play", args=[drill.pk]))
    return drill


def test_a_take_with_its_amount_is_recorded_as_a_take(client, make_user, floor):
    drill = _start(client, make_user)
    current = drill.rounds.get()
    sheet = current.script["sheet"]
    keys = [(line["stake"], line["hand"], line["wager"]) for line in sheet]
    post = {"round": "1"}
    takes = 0
    for order, a in enumerate(payout.simulated_answers(current.doc), start=1):  # in the dealer's order
        k = keys.index(payout.key_of(a))
        line = sheet[k]
        post[f"r{k}_order"] = str(order)
        post[f"r{k}_result"] = a["result"]
        # The trainee writes the amount of every take, as the round form allows.
        post[f"r{k}_amount"] = line["size"] if a["result"] == "take" else (a["amount"] or "")
        takes += a["result"] == "take"
    assert takes, "the seed deals no take"
    client.post(reverse("drills:answer", args=[drill.pk]), post)
    steps = list(DrillStep.objects.filter(drill_round=current))
    assert sum(s.given["result"] == "take" for s in steps) == takes
    assert all(s.correct for s in steps), [(s.given, s.expected) for s in steps if not s.correct]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_pressing_t_then_typing_the_amount_records_a_take(browser_page, make_user, floor):
    make_user(TRAINEE, pits=[floor.pit_a], username="trainee1")
    page = browser_page
    browser_login(page, "trainee1")
    page.check("input[name=kind][value=payout]")
    page.select_option("#id_game", "ochko")
    page.fill("#id_rounds", "1")
    page.fill("#id_boxes", "4")
    page.click(".seed-box summary")
    page.fill("#id_seed", "31")
    with page.expect_navigation():
        page.click("button:has-text('Deal')")
    drill = Drill.objects.get()
    current = drill.rounds.get()
    sheet = current.script["sheet"]
    keys = [(line["stake"], line["hand"], line["wager"]) for line in sheet]
    takes = []
    for answer in payout.simulated_answers(current.doc):
        row = keys.index(payout.key_of(answer))
        while row_in_focus(page) != row:
            page.keyboard.press("ArrowDown" if row_in_focus(page) < row else "ArrowUp")
        page.keyboard.press({"pay": "p", "take": "t", "leave": "l"}[answer["result"]])
        if answer["result"] == "pay":
            page.keyboard.type(str(answer["amount"]))
        elif answer["result"] == "take":
            page.keyboard.type(str(sheet[row]["size"]))  # T, then the amount: still a take
            assert page.locator(f".sheet-row[data-index='{row}'] input[value=take]").is_checked()
            takes.append(row)
        page.keyboard.press("Enter")
    assert takes, "the seed deals no take"
    paid = page.locator(".paid-order").inner_text()
    assert "Take" in paid
    with page.expect_navigation():
        page.keyboard.press("Enter")
    steps = list(DrillStep.objects.filter(drill_round=current))
    assert sum(s.given["result"] == "take" for s in steps) == len(takes)
    assert all(s.correct for s in steps), [(s.given, s.expected) for s in steps if not s.correct]
