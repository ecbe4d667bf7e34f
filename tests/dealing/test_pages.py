"""The dealer's round form and the round pages: the engine's check before saving, saving through
round_log, errors next to their fields, and who may use them."""

import uuid
from decimal import Decimal

import pytest
from django.urls import reverse

from casino.roles import DEALER, PIT_BOSS
from dealing import engine
from dealing.models import Round

pytestmark = pytest.mark.django_db


def form_url(table) -> str:
    return reverse("dealing:round_new", kwargs={"name": table.name})


def round_data(**changes) -> dict:
    """A clean round at a 100–5,000 table: box 1 wins 19 against 17, box 3 folds, box 4 busts.

    Box 1 (1a: Ante 100, Bet 300, dealer bet 10): T 9, stands; box 3 (3a: Ante 200) folds;
    box 4 (4a: Ante 100, Bet 200): 9 8 10 = mnogo; the dealer: 7, then T = 17.
    """
    data = {
        "round_id": str(uuid.uuid4()),
        "s1a_player": "P-23",
        "s1a_ante": "100",
        "s1a_dealer_bet": "10",
        "s1a_bet": "300",
        "b1_cards": "TS 9H",
        "s1a_bet_result": "pay",
        "s1a_bet_amount": "300",
        "s1a_ante_result": "pay",
        "s1a_ante_amount": "100",
        "s1a_dealer_bet_result": "pay",
        "s1a_dealer_bet_amount": "10",
        "s3a_player": "P-08",
        "s3a_ante": "200",
        "s3a_fold": "on",
        "b3_cards": "6D",
        "s3a_ante_result": "take",
        "s3a_ante_amount": "200",
        "s4a_player": "P-11",
        "s4a_ante": "100",
        "s4a_bet": "200",
        "b4_cards": "9C 8d ts",
        "s4a_bet_result": "take",
        "s4a_bet_amount": "200",
        "s4a_ante_result": "take",
        "s4a_ante_amount": "100",
        "dealer_cards": "7C TD",
    }
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


@pytest.fixture
def dealer(make_user, floor):
    return make_user(DEALER, pits=[floor.pit_a], username="dealer1")


@pytest.fixture
def dealer_client(client, dealer):
    client.force_login(dealer)
    return client


def check(client, table, data, action="check"):
    return client.post(form_url(table), {**data, "action": action})


def test_the_form_draws_six_boxes_and_the_dealers_place(dealer_client, floor):
    response = dealer_client.get(form_url(floor.table_a))
    assert response.status_code == 200
    html = response.content.decode()
    for n in range(1, 7):
        assert f'id="box-{n}"' in html
        assert f'name="b{n}_cards"' in html and f'name="s{n}a_player"' in html and f'name="s{n}c_ante"' in html
    assert 'name="dealer_cards"' in html
    assert 'name="round_id"' in html
    assert "Save round" not in html  # nothing to save before the engine has checked it


def test_a_clean_round_is_checked_then_saved_through_round_log(dealer_client, dealer, floor):
    data = round_data()
    response = check(dealer_client, floor.table_a, data)
    assert response.status_code == 200
    result = response.context["result"]
    assert result.ok and result.clean and result.may_save
    assert [e["e"] for e in result.built.document["events"]] == [
        "deal",
        "deal",
        "deal",
        "deal",
        "bet",
        "fold",
        "take",
        "bet",
        "open",
        "hit",
        "stand",
        "hit",
        "hit",
        "take",
        "take",
        "draw",
        "pay",
        "pay",
        "pay",
    ]
    assert Round.objects.count() == 0  # checking stores nothing
    html = response.content.decode()
    assert "Checked: clean" in html and "Save round" in html

    response = check(dealer_client, floor.table_a, {**data, "checked": result.token}, action="save")
    record = Round.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("dealing:round_detail", args=[record.pk])
    assert record.dealer == dealer and record.logged_by == dealer and record.table == floor.table_a
    assert str(record.uid) == data["round_id"]
    assert engine.replay(record.document).findings == []
    assert record.float_owed == record.float_logged == Decimal("90")  # takes 200 + 300, pays 300 + 100 + 10
    # Saving the same round again (a double click) stores nothing new.
    check(dealer_client, floor.table_a, {**data, "checked": result.token}, action="save")
    assert Round.objects.count() == 1


def test_a_wrong_payout_is_shown_next_to_its_field_before_saving(dealer_client, floor):
    response = check(dealer_client, floor.table_a, round_data(s1a_bet_amount="200"))
    result = response.context["result"]
    assert result.ok and not result.clean and result.may_save
    (finding,) = result.findings
    assert finding.code == "WRONG_AMOUNT"
    assert finding.field == "s1a_bet_result"
    assert finding.message.startswith("Box 1, stake 1a: Bet paid 200, owed 300")
    html = response.content.decode()
    assert "Save with findings" in html
    assert 'data-owed-result="pay" data-owed-amount="300"' in html
    assert Round.objects.count() == 0


def test_saving_needs_the_round_that_was_checked(dealer_client, floor):
    data = round_data()
    token = check(dealer_client, floor.table_a, data).context["result"].token
    changed = {**round_data(s1a_bet_amount="200"), "round_id": data["round_id"], "checked": token}
    response = check(dealer_client, floor.table_a, changed, action="save")
    assert response.status_code == 200
    assert "changed since it was checked" in response.content.decode()
    assert Round.objects.count() == 0


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("b1_cards", "TS 5H", "5H: not in the 36-card pack (6 to A)."),
        ("b1_cards", "TS 9X", "9X: not a card. Write rank and suit"),
        ("s1a_bet_amount", "300.125", "300.125 has 3 decimals"),
        ("s1a_ante", "abc", "Enter an amount such as 150 or 7.50."),
        ("s1a_bet", None, "Enter the Bet, or tick fold."),
        ("s1a_player", "", "Who plays this stake?"),
        ("s1a_bet_amount", "", "How much was paid?"),
        ("b4_dark", "TS 9D", "Only one card here."),
        ("dealer_cards", "", "Enter your cards"),
    ],
)
def test_bad_input_is_refused_next_to_its_field(dealer_client, floor, field, value, message):
    response = check(dealer_client, floor.table_a, round_data(**{field: value}))
    assert response.status_code == 200
    form = response.context["form"]
    assert any(message in error for error in form.errors[field]), form.errors
    assert response.context["result"] is None  # nothing reaches the engine
    assert message.split(":")[0] in response.content.decode()


def test_a_bet_outside_one_to_ten_times_the_ante_is_a_finding_on_the_bet(dealer_client, floor):
    response = check(dealer_client, floor.table_a, round_data(s1a_bet="1100", s1a_bet_amount="1100"))
    result = response.context["result"]
    assert [(f.code, f.field) for f in result.findings] == [("BET_RANGE", "s1a_bet")]


def test_fill_owed_puts_the_owed_results_into_the_blanks_only(dealer_client, floor):
    data = round_data(
        s1a_bet_result=None, s1a_bet_amount=None, s4a_ante_result=None, s4a_ante_amount=None, s1a_ante_amount="90"
    )
    response = check(dealer_client, floor.table_a, data)
    assert not response.context["result"].may_save  # two wagers have no result
    response = check(dealer_client, floor.table_a, data, action="fill")
    form = response.context["form"]
    assert form["s1a_bet_result"].value() == "pay" and form["s1a_bet_amount"].value() == "300"
    assert form["s4a_ante_result"].value() == "take" and form["s4a_ante_amount"].value() == "100"
    assert form["s1a_ante_amount"].value() == "90"  # what was entered stays as entered
    result = response.context["result"]
    assert [f.code for f in result.findings] == ["WRONG_AMOUNT"] and result.may_save


def test_htmx_gets_the_form_alone_and_a_redirect_header_on_save(dealer_client, floor):
    data = round_data()
    response = dealer_client.post(form_url(floor.table_a), {**data, "action": "check"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith("<form") and "<html" not in html
    token = response.context["result"].token
    response = dealer_client.post(
        form_url(floor.table_a), {**data, "action": "save", "checked": token}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("dealing:round_detail", args=[Round.objects.get().pk])


def test_a_pit_boss_logs_for_a_dealer_of_his_pit(client, make_user, dealer, floor):
    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    client.force_login(boss)
    html = client.get(form_url(floor.table_a)).content.decode()
    assert 'name="dealer"' in html and ">dealer1<" in html or "(dealer1)" in html
    data = round_data(dealer="dealer1")
    token = check(client, floor.table_a, data).context["result"].token
    check(client, floor.table_a, {**data, "checked": token}, action="save")
    record = Round.objects.get()
    assert record.dealer == dealer and record.logged_by == boss


def test_an_engine_refusal_lands_on_the_field_that_caused_it(dealer, floor, monkeypatch):
    """A document the engine cannot read is never saved; its event index or JSON path names the field."""
    from dealing.games.ochko.forms import OchkoRoundForm

    form = OchkoRoundForm(round_data(), table=floor.table_a, user=dealer)
    assert form.is_valid(), form.errors
    where = {}

    def refuse_event(doc):
        k = next((i for i, e in enumerate(doc["events"]) if e["e"] == "pay" and e["wager"] == "bet"), None)
        if k is None:  # the builder asking about a round still being built
            raise engine.RoundError("partial", "Not yet.")
        where["bet"] = k
        raise engine.RoundError("bad_amount", f"Event {k}: the amount is wrong.", event=k, path=f"$.events[{k}].amount")

    monkeypatch.setattr(engine, "replay", refuse_event)
    result = form.check()
    bet_event = where["bet"]
    assert not result.ok and result.error_field == "s1a_bet_result"
    assert form.errors["s1a_bet_result"] == [f"Event {bet_event}: the amount is wrong."]

    form = OchkoRoundForm(round_data(), table=floor.table_a, user=dealer)
    assert form.is_valid()

    def refuse_stake(doc):
        raise engine.RoundError("bad_value", "Stake #2: the Ante is not readable.", path="$.stakes[1].ante")

    monkeypatch.setattr(engine, "replay", refuse_stake)
    result = form.check()
    assert result.error_field == "s3a_ante" and "s3a_ante" in form.errors

    form = OchkoRoundForm(round_data(), table=floor.table_a, user=dealer)
    assert form.is_valid()
    monkeypatch.setattr(engine, "replay", lambda doc: (_ for _ in ()).throw(engine.RoundError("x", "No idea where.")))
    form.check()
    assert form.non_field_errors() == ["No idea where."]


def test_a_dealer_logs_only_as_himself(dealer_client, dealer, make_user, floor):
    other = make_user(DEALER, pits=[floor.pit_a], username="dealer2")
    html = dealer_client.get(form_url(floor.table_a)).content.decode()
    assert 'name="dealer"' not in html  # no choice of dealer
    data = round_data(dealer=other.username)  # a forged field is ignored
    token = check(dealer_client, floor.table_a, data).context["result"].token
    check(dealer_client, floor.table_a, {**data, "checked": token}, action="save")
    assert Round.objects.get().dealer == dealer


@pytest.fixture
def veintiuno_without_a_form():
    """Veintiuno as it was before its round form: a game whose `dealing.games` entry leaves the slot empty."""
    from dealing import games

    shipped = games.get("veintiuno")
    games.register(games.Game(variant="veintiuno"))
    yield
    games.register(shipped)


def test_a_table_without_a_form_yet_says_so(client, make_user, floor, veintiuno_without_a_form):
    from tests.factories import TableFactory

    TableFactory(name="Casa-21", pit=floor.pit_a, variant="veintiuno", boxes=6)
    client.force_login(make_user(PIT_BOSS, pits=[floor.pit_a]))
    response = client.get(reverse("dealing:round_new", kwargs={"name": "Casa-21"}))
    assert response.status_code == 200
    assert "No round form for Casa-21 yet" in response.content.decode()
