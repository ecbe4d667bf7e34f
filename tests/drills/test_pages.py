"""The drill pages, role by role, and what they show."""

import re
from html import escape

import pytest
from django.urls import reverse

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from drills import payout
from drills.models import CertificationStandard, Drill, DrillStep
from tests.factories import CertificationStandardFactory, DrillFactory

pytestmark = pytest.mark.django_db


def _login(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def setup(client, make_user, floor):
    """A trainee of pit A with an answered payout round; a trainee of pit B."""
    trainee = make_user(TRAINEE, pits=[floor.pit_a])
    other = make_user(TRAINEE, pits=[floor.pit_b])
    drill = DrillFactory(trainee=trainee, rounds_planned=3, seed=12)
    from drills import services

    current = services.drill_next(drill=drill, user=trainee)
    services.payout_answer(drill=drill, user=trainee, answers=payout.simulated_answers(current.doc))
    return {"trainee": trainee, "other": other, "drill": drill, "floor": floor}


# Pages × roles: 200 for the roles listed, 403 for the other roles; 404 where a drill is out of reach.
READ_PAGES = ["results", "round", "progress"]


@pytest.mark.parametrize(
    "role, pits, expected",
    [
        ("owner", "a", 200),
        (TRAINEE, "a", 404),  # another trainee, even in the same pit
        (PIT_BOSS, "a", 200),
        (PIT_BOSS, "b", 404),
        (AUDITOR, "none", 200),
        (DEALER, "a", 403),
        (INSPECTOR, "a", 403),
        ("superuser", "none", 200),
    ],
)
def test_reading_a_trainees_drill_per_role(client, make_user, setup, role, pits, expected):
    floor = setup["floor"]
    user = (
        setup["trainee"]
        if role == "owner"
        else make_user(role, pits={"a": [floor.pit_a], "b": [floor.pit_b], "none": []}[pits])
    )
    _login(client, user)
    drill = setup["drill"]
    for url in (
        reverse("drills:results", args=[drill.pk]),
        reverse("drills:round", args=[drill.pk, 1]),
        reverse("drills:progress", args=[drill.trainee_id]),
    ):
        assert client.get(url).status_code == expected, url


def test_anonymous_is_sent_to_login(client, setup):
    drill = setup["drill"]
    for url in (
        reverse("drills:home"),
        reverse("drills:play", args=[drill.pk]),
        reverse("drills:results", args=[drill.pk]),
        reverse("drills:trainees"),
    ):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_only_the_owner_plays(client, make_user, setup):
    drill = setup["drill"]
    for role, status in [(PIT_BOSS, 403), (AUDITOR, 403), (DEALER, 403)]:
        _login(client, make_user(role, pits=setup["floor"].pits))
        assert client.get(reverse("drills:play", args=[drill.pk])).status_code == status
        assert client.post(reverse("drills:answer", args=[drill.pk])).status_code == status
    _login(client, setup["other"])
    assert client.get(reverse("drills:play", args=[drill.pk])).status_code == 404
    assert client.post(reverse("drills:finish", args=[drill.pk])).status_code == 404


def test_trainees_do_not_see_the_floor_and_land_on_their_drills(client, setup):
    _login(client, setup["trainee"])
    assert client.get(reverse("casino:floor")).status_code == 403
    response = client.get(reverse("casino:home"))
    assert response.status_code == 302 and response["Location"] == reverse("drills:home")
    html = client.get(reverse("drills:home")).content.decode()
    assert 'href="/"' not in html.split("<main")[0]  # no Floor entry in the navigation


def test_staff_land_on_the_floor(client, make_user, floor):
    for role in (DEALER, PIT_BOSS, AUDITOR):
        _login(client, make_user(role, pits=floor.pits))
        assert client.get(reverse("casino:home"))["Location"] == reverse("casino:floor")
    _login(client, make_user(None))
    assert client.get(reverse("casino:home")).status_code == 403


def test_start_and_play_a_payout_drill_with_the_form(client, make_user, floor):
    client.force_login(make_user(TRAINEE))
    response = client.post(
        reverse("drills:start"),
        {
            "game": "ochko",
            "kind": "payout",
            "table": "r500",
            "rounds": "2",
            "boxes": "2",
            "f_ochko_folds": "on",
            "incidents": "none",
            "seed": "31",
        },
    )
    drill = Drill.objects.get()
    assert response["Location"] == reverse("drills:play", args=[drill.pk])
    assert drill.table_min == 500 and drill.options["boxes"] == 2 and drill.options["folds"] is True
    assert drill.options["dark"] is False  # unticked: never dealt
    page = client.get(reverse("drills:play", args=[drill.pk])).content.decode()
    assert 'class="felt-table' in page and 'class="pcard' in page and 'class="pchip' in page  # drawn
    assert "<kbd>P</kbd>" in page and 'class="tray-chip' in page
    current = drill.rounds.get()
    sheet = current.script["sheet"]
    answers = {a["stake"] + a["wager"]: a for a in payout.simulated_answers(current.doc)}
    post = {"round": "1"}
    for order, (k, line) in enumerate(reversed(list(enumerate(sheet))), start=1):
        a = answers[line["stake"] + line["wager"]]
        post[f"r{k}_result"] = a["result"]
        post[f"r{k}_amount"] = a["amount"] or ""
        post[f"r{k}_order"] = str(order)
    response = client.post(reverse("drills:answer", args=[drill.pk]), post)
    assert response["Location"] == reverse("drills:round", args=[drill.pk, 1])
    review = client.get(response["Location"]).content.decode()
    assert "Next round" in review
    assert DrillStep.objects.filter(drill_round=current).count() == len(sheet)


def test_bad_start_form_shows_the_errors(client, make_user):
    client.force_login(make_user(TRAINEE))
    response = client.post(reverse("drills:start"), {"game": "ochko", "kind": "payout", "table": "escribas"})
    assert response.status_code == 400
    assert "not a table of the game chosen" in response.content.decode()
    assert not Drill.objects.exists()


def test_a_wrong_settlement_shows_the_finding_and_the_right_settlement(client, setup):
    trainee, drill = setup["trainee"], setup["drill"]
    _login(client, trainee)
    client.get(reverse("drills:play", args=[drill.pk]))
    current = drill.rounds.get(number=2)
    sheet = current.script["sheet"]
    post = {"round": "2"}
    for k, _line in enumerate(sheet):
        post[f"r{k}_result"] = "pay"
        post[f"r{k}_amount"] = "999999"
    response = client.post(reverse("drills:answer", args=[drill.pk]), post)
    review = client.get(response["Location"]).content.decode()
    assert "Right settlement:" in review and "WRONG_" in review
    assert re.search(r"\d+ mistakes? in this round", review)


def test_a_round_in_play_is_not_reviewed(client, setup):
    """The review of a procedure round lists the right moves: never before the round is over."""
    _login(client, setup["trainee"])
    drill = setup["drill"]
    client.get(reverse("drills:play", args=[drill.pk]))  # round 2 is dealt and in play
    assert client.get(reverse("drills:round", args=[drill.pk, 2])).status_code == 404
    assert client.get(reverse("drills:round", args=[drill.pk, 1])).status_code == 200


def test_procedure_page_and_number_choices(client, make_user):
    trainee = make_user(TRAINEE)
    client.force_login(trainee)
    client.post(
        reverse("drills:start"),
        {
            "game": "ochko",
            "kind": "procedure",
            "table": "r100",
            "rounds": "1",
            "incidents": "every",
            "incident_kinds": ["dealer_card_exposed"],
            "seed": "8",
        },
    )
    drill = Drill.objects.get()
    page = client.get(reverse("drills:play", args=[drill.pk])).content.decode()
    assert 'class="choice"' in page and "<kbd>1</kbd>" in page
    step = drill.rounds.get().script["steps"][0]
    wrong = next(c for c in step["choices"] if not c["correct"])
    client.post(reverse("drills:answer", args=[drill.pk]), {"round": "1", "step": "0", "choice": wrong["key"]})
    page = client.get(reverse("drills:play", args=[drill.pk])).content.decode()
    assert "The right move:" in page and escape(wrong["explain"]) in page
    assert "flips face up" in page  # the incident is the next step
    assert client.get(reverse("drills:round", args=[drill.pk, 1])).status_code == 404  # in play


def test_pit_boss_sees_his_trainees_and_sets_standards(client, make_user, setup):
    floor = setup["floor"]
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    _login(client, boss)
    page = client.get(reverse("drills:trainees")).content.decode()
    assert setup["trainee"].username in page and setup["other"].username not in page
    response = client.post(
        reverse("drills:standards"),
        {"game": "ochko", "kind": "payout", "rounds_in_row": "50", "min_accuracy": "98", "time_limit_s": "60"},
    )
    assert response.status_code == 302
    standard = CertificationStandard.objects.get()
    assert standard.set_by == boss and standard.rounds_in_row == 50
    bad = client.post(
        reverse("drills:standards"), {"game": "ochko", "kind": "payout", "rounds_in_row": "0", "min_accuracy": "98"}
    )
    assert bad.status_code == 400


def test_auditors_read_the_standards_but_do_not_set_them(client, make_user):
    CertificationStandardFactory()
    client.force_login(make_user(AUDITOR))
    page = client.get(reverse("drills:standards")).content.decode()
    assert "Set the standard" not in page and "in force" in page
    response = client.post(
        reverse("drills:standards"), {"game": "ochko", "kind": "payout", "rounds_in_row": "5", "min_accuracy": "90"}
    )
    assert response.status_code == 403
    assert CertificationStandard.objects.count() == 1


def test_results_page_has_the_band_the_chart_and_the_mistakes(client, setup):
    _login(client, setup["trainee"])
    page = client.get(reverse("drills:results", args=[setup["drill"].pk])).content.decode()
    assert "round-chart-data" in page and "vendor/chart.umd.min.js" in page
    assert "Excellent" in page  # a clean first round
    assert "Most frequent mistakes" in page
    progress = client.get(reverse("drills:my_progress"))
    assert progress["Location"] == reverse("drills:progress", args=[setup["trainee"].pk])
    page = client.get(progress["Location"]).content.decode()
    assert "history-chart-data" in page and "My progress" in page
