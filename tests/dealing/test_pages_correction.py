"""Correcting a stored round from its page: the round's dealer or a pit boss of the pit opens the game's
form filled from the stored log, gives a reason and saves through round_amend; the correction waits in
the pit boss's queue; four eyes decide it. Blackjack and ochko alike."""

import json
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from dealing import chain, engine, games, services
from dealing.choices import RoundStatus
from dealing.models import Round
from tests.dealing.conftest import GOLDEN, deal_round

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def correct_url(record) -> str:
    return reverse("dealing:round_correct", args=[record.pk])


def wrong_payout_round(table, dealer) -> Round:
    """A salon round with one wrong payout (the simulator's injected mistake), logged by `dealer`."""
    doc = deal_round(table, seed=11, dealer=dealer.username, mistake="wrong_amount")
    record, _ = services.round_log(document=doc, logged_by=dealer)
    assert [f.code for f in engine.replay(record.document).findings] == ["WRONG_AMOUNT"]
    return record


def form_data(response) -> dict:
    """What the browser would post back: the form's fields as drawn."""
    form = response.context["form"]
    data = {}
    for name, _field in form.fields.items():
        value = form[name].value()
        if value in (None, "", False):
            continue
        data[name] = "on" if value is True else str(value)
    return data


def fix_the_finding(data: dict, record: Round) -> dict:
    """Put the owed amount where the dealer's payout was wrong (the field the finding names)."""
    (finding,) = engine.replay(record.document).findings
    key = f"h{finding.hand.replace('.', '-')}_{finding.wager}_amount"
    return {**data, key: finding.expected["amount"]}


def test_the_form_opens_filled_from_the_stored_log_and_gives_it_back_unchanged(staff, tables):
    record = wrong_payout_round(tables.salon, staff.dealer)
    client = login(staff.dealer)
    response = client.get(correct_url(record))
    assert response.status_code == 200 and response.context["amends"] == record
    html = response.content.decode()
    # The heading names the round by its number at the table (issue #20), never by its database id.
    assert f"Correct round {record.table_round} at Escribas" in html and 'name="reason"' in html
    data = form_data(response)
    assert data["round_id"] == str(record.uid)
    response = client.post(correct_url(record), {**data, "action": "check"})
    result = response.context["result"]
    assert chain.json_safe(result.built.document) == record.document  # the stored log, event for event
    assert [f.code for f in result.findings] == ["WRONG_AMOUNT"]


def test_the_dealer_corrects_a_payout_and_it_waits_in_the_pit_bosses_queue(staff, tables):
    record = wrong_payout_round(tables.salon, staff.dealer)
    client = login(staff.dealer)
    data = fix_the_finding(form_data(client.get(correct_url(record))), record)
    data["reason"] = "Paid the player the difference at the table."
    response = client.post(correct_url(record), {**data, "action": "check"})
    result = response.context["result"]
    assert result.clean and "Save the correction" in response.content.decode()
    response = client.post(correct_url(record), {**data, "action": "save", "checked": result.token})
    amendment = Round.objects.get(supersedes=record)
    assert response.status_code == 302 and response["Location"] == reverse("dealing:round_detail", args=[amendment.pk])
    assert (amendment.status, amendment.revision, amendment.logged_by) == (RoundStatus.PENDING, 2, staff.dealer)
    assert amendment.amendment_reason == data["reason"] and amendment.uid == record.uid
    assert engine.replay(amendment.document).findings == []
    record.refresh_from_db()
    assert record.status == RoundStatus.RECORDED  # in force until a pit boss approves

    page = client.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert "awaits a pit boss" in page and "Correct this round" not in page
    assert client.get(correct_url(record)).status_code == 302  # one pending correction at a time

    queue = login(staff.pitboss).get(reverse("dealing:pit_queue"))
    assert [a.pk for a in queue.context["amendments"]] == [amendment.pk]
    login(staff.pitboss).post(
        reverse("dealing:amendment_decide", args=[amendment.pk]), {"decision": "approved", "comment": "Seen on camera."}
    )
    amendment.refresh_from_db()
    record.refresh_from_db()
    assert (amendment.status, record.status) == (RoundStatus.RECORDED, RoundStatus.SUPERSEDED)


def test_a_reason_is_required_and_a_correction_that_changes_nothing_is_refused(staff, tables):
    record = wrong_payout_round(tables.salon, staff.dealer)
    client = login(staff.dealer)
    data = fix_the_finding(form_data(client.get(correct_url(record))), record)
    result = client.post(correct_url(record), {**data, "action": "check"}).context["result"]
    assert result.clean  # a check needs no reason
    response = client.post(correct_url(record), {**data, "action": "save", "checked": result.token})
    assert response.status_code == 200 and "reason" in response.context["form"].errors
    assert "Say why the round is corrected" in response.content.decode()
    assert not Round.objects.filter(supersedes=record).exists()

    data = form_data(client.get(correct_url(record)))
    data["reason"] = "No change at all."
    token = client.post(correct_url(record), {**data, "action": "check"}).context["result"].token
    response = client.post(correct_url(record), {**data, "action": "save", "checked": token})
    assert response.status_code == 200 and response.context["refused"]
    html = response.content.decode()
    assert "The correction was not saved" in html and "The correction changes nothing in the round." in html
    assert not Round.objects.filter(supersedes=record).exists()


def test_a_pit_boss_correction_is_decided_by_another_pit_boss(staff, tables):
    record = wrong_payout_round(tables.salon, staff.dealer)
    boss = login(staff.pitboss)
    data = fix_the_finding(form_data(boss.get(correct_url(record))), record)
    assert data["dealer"] == "dealer1"  # the round's dealer stays (a pit boss may choose)
    data["reason"] = "The dealer told me he paid 100 short."
    token = boss.post(correct_url(record), {**data, "action": "check"}).context["result"].token
    response = boss.post(correct_url(record), {**data, "action": "save", "checked": token}, follow=True)
    assert "another pit boss of the pit decides (four eyes)" in response.content.decode()
    amendment = Round.objects.get(supersedes=record)
    assert amendment.logged_by == staff.pitboss and amendment.dealer == staff.dealer

    queue = boss.get(reverse("dealing:pit_queue"))
    assert queue.context["amendments"] == [] and [r.pk for r in queue.context["waiting_amendments"]] == [amendment.pk]
    assert "you made the correction" in queue.content.decode()
    response = boss.post(
        reverse("dealing:amendment_decide", args=[amendment.pk]), {"decision": "approved", "comment": ""}, follow=True
    )
    assert "You made this correction yourself; another pit boss decides on it." in response.content.decode()
    amendment.refresh_from_db()
    assert amendment.status == RoundStatus.PENDING
    assert [a.pk for a in login(staff.pitboss2).get(reverse("dealing:pit_queue")).context["amendments"]] == [
        amendment.pk
    ]


@pytest.mark.parametrize(
    "who, status",
    [
        (None, 302),
        ("trainee", 403),
        ("inspector", 403),
        ("auditor", 403),
        ("nobody", 403),
        ("dealer2", 404),
        ("pitboss_c", 404),
        ("dealer", 200),
        ("pitboss", 200),
        ("pitboss2", 200),
        ("admin", 200),
    ],
)
def test_who_may_correct_a_round(staff, tables, who, status):
    """Its dealer, a pit boss of its pit; another dealer does not even see it (404)."""
    record = wrong_payout_round(tables.salon, staff.dealer)
    client = Client() if who is None else login(getattr(staff, who))
    response = client.get(correct_url(record))
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))
    response = client.post(correct_url(record), {"action": "save", "reason": "x"})
    assert response.status_code == status
    assert not Round.objects.filter(supersedes=record).exists()


def test_a_dealer_of_the_pit_may_not_correct_anothers_round_even_when_he_sees_it(staff, tables, make_user, pits):
    """A dealer who is also an inspector sees his pit's rounds, yet corrects only those he dealt."""
    from casino.roles import DEALER, INSPECTOR

    both = make_user([DEALER, INSPECTOR], pits=[pits.a, pits.b], username="dealer-inspector")
    record = wrong_payout_round(tables.salon, staff.dealer)
    client = login(both)
    assert client.get(reverse("dealing:round_detail", args=[record.pk])).status_code == 200
    assert "Correct this round" not in client.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert client.get(correct_url(record)).status_code == 403


def test_only_the_revision_in_force_is_corrected(staff, tables):
    record = wrong_payout_round(tables.salon, staff.dealer)
    fixed = json.loads(json.dumps(record.document))
    (finding,) = engine.replay(record.document).findings
    fixed["events"][finding.event]["amount"] = finding.expected["amount"]
    amendment = services.round_amend(round=record, document=fixed, amended_by=staff.dealer, reason="fix")
    services.round_amendment_decide(round=amendment, decided_by=staff.pitboss, decision="approved")
    client = login(staff.dealer)
    response = client.get(correct_url(record), follow=True)
    assert "Only the revision in force of a round can be corrected" in response.content.decode()
    assert client.get(correct_url(amendment)).status_code == 200  # the approved correction is in force


def test_an_ochko_round_is_corrected_through_its_own_form(staff, tables):
    doc = deal_round(tables.ochko, seed=5, dealer="dealer1", mistake="wrong_amount")
    record, _ = services.round_log(document=doc, logged_by=staff.dealer)
    client = login(staff.dealer)
    response = client.get(correct_url(record))
    assert response.status_code == 200 and response.context["form"].variant == "ochko"
    data = form_data(response)
    result = client.post(correct_url(record), {**data, "action": "check"}).context["result"]
    assert chain.json_safe(result.built.document) == record.document
    assert [f.code for f in result.findings] == ["WRONG_AMOUNT"]
    (finding,) = result.findings
    amount_field = finding.field.replace("_result", "_amount")
    data.update({amount_field: finding.expected["amount"], "reason": "Wrong payout on the Bet."})
    token = client.post(correct_url(record), {**data, "action": "check"}).context["result"].token
    client.post(correct_url(record), {**data, "action": "save", "checked": token})
    amendment = Round.objects.get(supersedes=record)
    assert engine.replay(amendment.document).findings == [] and amendment.status == RoundStatus.PENDING


def test_a_log_the_form_cannot_show_is_sent_to_the_api(staff, tables):
    """An ochko round with an exposed-card incident: the form has no place for it."""
    case = json.loads((GOLDEN / "ochko" / "30-exposed-card-approved.json").read_text(encoding="utf-8"))
    doc = dict(case["round"], table=dict(case["round"]["table"], name="R-1"), dealer="dealer1")
    record, _ = services.round_log(document=doc, logged_by=staff.dealer)
    client = login(staff.dealer)
    assert "Correct this round" in client.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    response = client.get(correct_url(record), follow=True)
    html = response.content.decode()
    assert "holds what the form cannot show (burn, incident)" in html and f"/api/v1/rounds/{record.pk}/amend/" in html
    # Every game the project ships has its round form (veintiuno's too): the form is what the log outgrows.
    shipped = games.all_games()
    assert {g.variant for g in shipped} >= {"ochko", "blackjack", "veintiuno"}
    assert all(games.form_for(g.variant) is not None for g in shipped)
    assert record.float_owed == Decimal(str(engine.replay(record.document).float))
