"""Veintiuno's round form (rules/veintiuno.md): the seats round the bank and the bank's place; the
engine's check with its findings on their fields; saving through round_log; the round page; a
stored round corrected on the same form."""

import uuid
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from dealing import engine, games
from dealing.games.veintiuno.forms import VeintiunoRoundForm
from dealing.models import Round

pytestmark = pytest.mark.django_db


def form_url(table) -> str:
    return reverse("dealing:round_new", kwargs={"name": table.name})


def round_data(**changes) -> dict:
    """Ana holds the bank at Casa-21 (5–100). Seat 1, Beto, bets 10 on 7♥ 3♣, draws K♠ and stands on
    20; seat 2, Caro, bets 20 on 5♦ 4♠, draws 7♣ and stands on 16; the bank's 6♠ 4♦ draws 7♦: 17.
    Beto is paid 10, Caro's 20 goes to the bank, which stays with Ana."""
    data = {
        "round_id": str(uuid.uuid4()),
        "bank": "Ana",
        "s1_player": "Beto",
        "s1_bet": "10",
        "s1_cards": "7H 3C",
        "s1_play": "KS stand",
        "s2_player": "Caro",
        "s2_bet": "20",
        "s2_cards": "5d 4s",
        "s2_play": "7C stand",
        "bank_cards": "6S 4D",
        "bank_draws": "7D",
        "bank_to": "Ana",
        "h1_bet_result": "pay",
        "h1_bet_amount": "10",
        "h2_bet_result": "take",
        "h2_bet_amount": "20",
    }
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def post(client, table, data, action="check"):
    return client.post(form_url(table), {**data, "action": action})


@pytest.fixture
def dealer_client(staff):
    client = Client()
    client.force_login(staff.dealer)
    return client


def test_veintiuno_finds_its_form_through_the_games_seam():
    assert games.form_for("veintiuno") is VeintiunoRoundForm


def test_the_form_draws_the_seats_round_the_bank(dealer_client, tables):
    response = dealer_client.get(form_url(tables.veintiuno))
    assert response.status_code == 200
    html = response.content.decode()
    for n in range(1, 7):
        assert f'id="box-{n}"' in html and f'name="s{n}_cards"' in html and f'name="s{n}_play"' in html
    assert "pie de banco" in html
    for name in ("bank", "bank_cards", "bank_draws", "puje", "bank_to"):
        assert f'name="{name}"' in html
    assert "Save round" not in html


def test_a_clean_round_is_checked_saved_and_shown_on_its_page(dealer_client, staff, tables):
    data = round_data()
    response = post(dealer_client, tables.veintiuno, data)
    result = response.context["result"]
    assert result.ok and result.clean and result.may_save, [f.message for f in result.findings]
    doc = result.built.document
    assert doc["bank"] == "Ana" and doc["table"] == {"name": "Casa-21", "min": 5, "max": 100}
    assert doc["stakes"] == [{"id": "S1", "seat": 1, "player": "Beto"}, {"id": "S2", "seat": 2, "player": "Caro"}]
    assert [e["e"] for e in doc["events"]] == [
        "deal",
        "deal",
        "deal",
        "bet",
        "bet",
        "deal",
        "deal",
        "deal",
        "hit",
        "stand",
        "hit",
        "stand",
        "draw",
        "pay",
        "take",
        "bank_to",
    ]
    assert Round.objects.count() == 0
    assert "Checked: clean" in response.content.decode()

    response = post(dealer_client, tables.veintiuno, {**data, "checked": result.token}, action="save")
    record = Round.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("dealing:round_detail", args=[record.pk])
    assert record.table == tables.veintiuno and record.dealer == staff.dealer and str(record.uid) == data["round_id"]
    settlement = engine.settle(record.document)
    assert settlement["findings"] == [] and settlement["bank_next"] == "Ana"
    assert record.float_owed == record.float_logged == Decimal("10")  # takes 20, pays 10
    # The round page: the engine's verdict, the log, and (the table having a form now) the next round
    # and a correction on the form. Drawing the seats there is the table layout's (dealing.games' layout slot).
    page = dealer_client.get(reverse("dealing:round_detail", args=[record.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "Clean: every wager settled as owed" in html and "bank_to" in html
    assert "Log the next round" in html and "Correct this round" in html
    correcting = dealer_client.get(reverse("dealing:round_correct", args=[record.pk]))
    assert correcting.status_code == 200 and correcting.context["form"].initial["s1_play"] == "KS stand"
    assert not correcting.context["reordered"]  # the form gives the stored log back event for event


def test_a_wrong_payout_and_a_wrong_next_bank_are_shown_on_their_fields(dealer_client, tables):
    response = post(dealer_client, tables.veintiuno, round_data(h1_bet_amount="20", bank_to="Beto"))
    result = response.context["result"]
    assert result.ok and not result.clean and result.may_save
    by_code = {f.code: f for f in result.findings}
    assert set(by_code) == {"WRONG_AMOUNT", "BANK_SUCCESSION"}
    assert by_code["WRONG_AMOUNT"].field == "h1_bet_result"
    assert by_code["BANK_SUCCESSION"].field == "bank_to"
    html = response.content.decode()
    assert "Save with findings" in html and 'data-owed-result="pay" data-owed-amount="10"' in html
    assert Round.objects.count() == 0


def test_an_opened_pair_gets_a_result_row_per_hand(dealer_client, tables):
    """Seat 1 opens 7♥ 7♠ (20 on the new hand): 7♥ draws K♠ (17), 7♠ draws 3♦ and 4♣ (14)."""
    data = round_data(
        s1_cards="7H 7S",
        s1_play="split 20 KS stand / 3D 4C stand",
        h1_bet_result=None,
        h1_bet_amount=None,
        **{"h1-1_bet_result": "take", "h1-1_bet_amount": "10", "h1-2_bet_result": "take", "h1-2_bet_amount": "20"},
    )
    response = post(dealer_client, tables.veintiuno, data)
    form, result = response.context["form"], response.context["result"]
    assert form.hands[1] == ["1.1", "1.2"]
    assert result.ok and result.findings == [], [f.message for f in result.findings]
    events = result.built.document["events"]
    assert {"e": "split", "hand": "1", "amount": 20} in events


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"s1_cards": "7H"}, "s1_cards", "Enter the two dealt cards"),
        ({"s1_cards": "7H 9C"}, "s1_cards", "9C: not in the 40-card pack"),
        ({"s1_play": "KS flop"}, "s1_play", "neither a card"),
        ({"s1_play": "KS / stand"}, "s1_play", "no opened hand is waiting"),
        ({"s1_bet": None}, "s1_bet", "Enter the bet."),
        ({"s2_player": "Ana"}, "s2_player", "holds the bank"),
        ({"h1_bet_amount": ""}, "h1_bet_amount", "How much was paid?"),
        ({"bank_cards": "6S"}, "bank_cards", "the bank's two cards"),
    ],
)
def test_bad_input_is_refused_next_to_its_field(dealer_client, tables, changes, field, message):
    response = post(dealer_client, tables.veintiuno, round_data(**changes))
    form = response.context["form"]
    assert any(message in error for error in form.errors.get(field, [])), form.errors
    assert response.context["result"] is None


def test_fill_puts_the_owed_results_and_the_next_bank_into_the_blanks(dealer_client, tables):
    data = round_data(h1_bet_result=None, h1_bet_amount=None, h2_bet_result=None, h2_bet_amount=None, bank_to=None)
    response = post(dealer_client, tables.veintiuno, data, action="fill")
    form = response.context["form"]
    assert form.data["h1_bet_result"] == "pay" and form.data["h1_bet_amount"] == "10"
    assert form.data["h2_bet_result"] == "take" and form.data["bank_to"] == "Ana"
    assert response.context["result"].clean


def test_a_stored_round_is_read_back_into_the_form_as_entered(dealer_client, tables):
    data = round_data(
        s1_cards="7H 7S",
        s1_play="split 20 KS stand / 3D 4C stand",
        h1_bet_result=None,
        h1_bet_amount=None,
        **{"h1-1_bet_result": "take", "h1-1_bet_amount": "10", "h1-2_bet_result": "take", "h1-2_bet_amount": "20"},
    )
    result = post(dealer_client, tables.veintiuno, data).context["result"]
    doc = result.built.document
    assert VeintiunoRoundForm.rebuild(doc)["events"] == doc["events"]
    initial = VeintiunoRoundForm.initial_from_document(doc)
    assert initial["s1_play"] == "split KS stand / 3D 4C stand"  # 20 is twice the bet: said by default
    assert initial["bank_cards"] == "6S 4D" and initial["h1-2_bet_result"] == "take"
    response = post(dealer_client, tables.veintiuno, {**initial, "round_id": str(uuid.uuid4())})
    assert response.context["result"].built.document["events"] == doc["events"]


def test_a_declared_natural_is_paid_two_to_one_and_takes_the_bank(dealer_client, tables):
    """Beto's A♠ K♦ declared at once: 2:1, and the bank passes to him; al puje is not called."""
    data = round_data(s1_cards="AS KD", s1_declare="on", s1_play="", h1_bet_amount="20", bank_to="Beto")
    result = post(dealer_client, tables.veintiuno, data).context["result"]
    assert result.ok and result.findings == [], [f.message for f in result.findings]
    events = result.built.document["events"]
    assert {"e": "declare", "hand": "1"} in events and events[-1] == {"e": "bank_to", "player": "Beto"}
    wrong = post(
        dealer_client, tables.veintiuno, round_data(s1_cards="AS KD", s1_declare="on", s1_play="", h1_bet_amount="10")
    ).context["result"]
    assert {f.code: f.field for f in wrong.findings} == {"WRONG_AMOUNT": "h1_bet_result", "BANK_SUCCESSION": "bank_to"}
