"""The ledger's pages: the round form checks with the engine before saving, fills the payments with
what is owed, saves through the services; errors show next to their fields."""

import re

import pytest
from django.test import Client

from ledger import selectors
from ledger.models import GameSession, SessionRound

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealer(casa):
    client = Client()
    client.force_login(casa.dealer)
    return client


def form(**fields):
    """A round of the night: Ana's bank; Beto (place 1), Caro (2), Dani (3)."""
    data = {
        "uid": "4c3f0f3e-8d1a-4b59-9a38-1d7c5d6f1a01",
        "min_bet": "5",
        "max_bet": "50",
        "bank_card_1": "QC",
        "bank_card_2": "7D",
        "bank_draws": "",
        "s1_bet": "10",
        "s1_c1": "KH",
        "s1_c2": "JS",
        "s1_play": "stand",
        "s2_bet": "5",
        "s2_c1": "5D",
        "s2_c2": "QH",
        "s2_play": "stand",
        "s3_out": "on",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v is not None}


def test_check_then_save(dealer, night):
    session = night()
    url = f"/ledger/{session.pk}/rounds/new/"
    page = dealer.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round 1" in html and 'name="s1_bet"' in html and 'name="s3_play"' in html
    assert not SessionRound.objects.exists()

    checked = dealer.post(url, {**form(), "action": "check"})
    assert checked.status_code == 200
    html = checked.content.decode()
    assert "What the rules engine sees" in html
    # The payment rows come filled with what each hand is owed: Beto's relancina (20) beats 17.
    assert re.search(r'name="pay_1_result"[^>]*>.*?<option value="pay" selected', html, re.S)
    assert 'name="pay_1_amount" value="10"' in html
    assert re.search(r'name="pay_2_result"[^>]*>.*?<option value="take" selected', html, re.S)
    assert 'value="save"' in html
    assert not SessionRound.objects.exists()

    data = {
        **form(),
        "pay_1_result": "pay",
        "pay_1_amount": "10",
        "pay_2_result": "take",
        "pay_2_amount": "5",
        "bank_to": "Ana",
        "action": "save",
    }
    saved = dealer.post(url, data)
    assert saved.status_code == 302 and saved["Location"] == f"/ledger/{session.pk}/#round-1"
    entry = SessionRound.objects.get()
    assert str(entry.round.uid) == data["uid"]
    events = entry.round.document["events"]
    assert [e["e"] for e in events][-3:] == ["pay", "take", "bank_to"]
    assert {s["player"] for s in entry.round.document["stakes"]} == {"Beto", "Caro"}  # Dani sat out
    # Saving twice (a double click) stores the round once.
    assert dealer.post(url, data).status_code == 302
    assert SessionRound.objects.count() == 1

    ledger = dealer.get(f"/ledger/{session.pk}/")
    html = ledger.content.decode()
    assert ledger.status_code == 200 and 'id="chart-data"' in html
    assert selectors.session_ledger(session).balances == {"Ana": -5, "Beto": 10, "Caro": -5, "Dani": 0}
    detail = dealer.get(f"/ledger/{session.pk}/rounds/1/")
    assert detail.status_code == 200 and 'data-card="KH"' in detail.content.decode()
    assert dealer.get(f"/ledger/{session.pk}/rounds/2/").status_code == 404


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"s1_c1": "9H"}, "s1_c1", "Not a card of the 40-card pack"),
        ({"s1_c2": ""}, "s1_c2", "Needed, or tick"),
        ({"s1_play": "5C fly"}, "s1_play", "fly"),
        ({"bank_draws": "5C 10H"}, "bank_draws", "10H"),
        ({"max_bet": "500"}, "max_bet", "outside table Casa-21"),
        ({"s1_bet": "7"}, "s1_bet", "multiple of the night"),
    ],
)
def test_errors_show_next_to_their_fields(dealer, night, fields, field, message):
    session = night()
    response = dealer.post(f"/ledger/{session.pk}/rounds/new/", {**form(**fields), "action": "check"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and message in " ".join(errors[field]), errors


def test_nobody_playing_is_an_error(dealer, night):
    session = night()
    response = dealer.post(f"/ledger/{session.pk}/rounds/new/", {**form(s1_out="on", s2_out="on"), "action": "check"})
    assert "Nobody played" in response.content.decode()


def test_the_draw_page_records_passes_until_one_is_highest(dealer, casa):
    response = dealer.post(
        "/ledger/new/", {"table": casa.table.pk, "players": "Ana\nBeto\nCaro", "unit": "5", "name": "Sábado"}
    )
    session = GameSession.objects.get()
    assert response["Location"] == f"/ledger/{session.pk}/draw/"
    page = dealer.get(f"/ledger/{session.pk}/draw/")
    assert page.status_code == 200 and page.content.decode().count('class="card-input"') == 3
    tie = dealer.post(f"/ledger/{session.pk}/draw/", {"card_0": "AS", "card_1": "AH", "card_2": "7C"})
    assert tie.status_code == 302
    page = dealer.get(f"/ledger/{session.pk}/draw/").content.decode()
    assert "Tie!" in page and page.count('class="card-input"') == 2
    bad = dealer.post(f"/ledger/{session.pk}/draw/", {"card_0": "AS", "card_1": ""})
    assert bad.status_code == 200 and "Each player draws a card" in bad.content.decode()
    done = dealer.post(f"/ledger/{session.pk}/draw/", {"card_0": "2S", "card_1": "3S"})
    assert done["Location"] == f"/ledger/{session.pk}/rounds/new/"
    session.refresh_from_db()
    assert session.first_bank == "Beto"


def test_a_session_form_error_is_shown(dealer, casa):
    response = dealer.post("/ledger/new/", {"table": casa.table.pk, "players": "Ana\nana", "unit": "5"})
    assert response.status_code == 200
    assert "twice" in " ".join(response.context["form"].errors["players"])


def test_the_admin_shows_nights_read_only(night, make_user):
    session = night()
    admin = Client()
    admin.force_login(make_user("superuser"))
    assert admin.get("/admin/ledger/gamesession/").status_code == 200
    page = admin.get(f"/admin/ledger/gamesession/{session.pk}/change/")
    assert page.status_code == 200 and "Ana" in page.content.decode()
    assert admin.get("/admin/ledger/gamesession/add/").status_code == 403
