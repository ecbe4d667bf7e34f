"""Impossible is refused, wrong is recorded (issue #20 item 3): a round that cannot have happened
(more copies of a card than the shoe holds, a card in two places, a card that is no card) is
refused with the engine's reason and stored nowhere — by the API (422 `impossible_round`), the
form (the reason, and no "Save with findings"), a correction and the import; a dealer's mistake is
stored with its findings as before. Which findings are impossible is the engine's to say."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from casino.errors import ServiceError
from dealing import engine, services
from dealing.models import Round, Stake
from tests.dealing.conftest import post_json, to_json
from tests.dealing.test_amend import wrong_payout
from tests.dealing.test_pages import round_data

pytestmark = pytest.mark.django_db
ROUNDS = "/api/v1/rounds/"


def nine_aces(doc: dict) -> dict:
    """The round with its first nine cards made the ace of spades (an ochko shoe holds eight)."""
    events, n = [], 0
    for ev in doc["events"]:
        if "card" in ev and n < 9:
            ev, n = dict(ev, card="AS"), n + 1
        events.append(ev)
    assert n == 9
    return dict(doc, events=events)


def test_the_engine_names_the_impossible_findings():
    assert engine.IMPOSSIBLE == {"CARD_INVALID", "CARD_COUNT"}
    assert engine.IMPOSSIBLE <= engine.CODES
    assert not engine.IMPOSSIBLE & {"WRONG_AMOUNT", "WRONG_RESULT", "DEALER_DRAW_RULE", "DRAW_ORDER"}


def test_the_api_refuses_nine_aces_from_an_eight_pack_shoe_and_stores_nothing(api, staff, tables, deal):
    doc = nine_aces(deal(tables.ochko, seed=1))
    assert "CARD_COUNT" in {f.code for f in engine.replay(doc).findings}
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 422, response.json()
    body = response.json()
    assert body["extra"]["code"] == "impossible_round"
    assert [f["code"] for f in body["extra"]["findings"]] == ["CARD_COUNT"]
    assert "cannot have happened" in body["message"] and "A♠ appears 9 times" in body["message"]
    assert (Round.objects.count(), Stake.objects.count()) == (0, 0)


def test_a_wrong_payment_is_still_stored_with_its_finding(api, staff, tables, deal):
    doc, _fixed = wrong_payout(tables.ochko, deal)
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 201
    assert "WRONG_AMOUNT" in {f["code"] for f in response.json()["findings"]}
    assert Round.objects.count() == 1


def test_a_correction_that_cannot_have_happened_is_refused(staff, tables, deal):
    doc, _fixed = wrong_payout(tables.ochko, deal)
    original, _ = services.round_log(document=doc, logged_by=staff.dealer)
    with pytest.raises(ServiceError) as refused:
        services.round_amend(round=original, document=nine_aces(doc), amended_by=staff.dealer, reason="typo")
    assert (refused.value.status, refused.value.extra["code"]) == (422, "impossible_round")
    assert Round.objects.count() == 1


def test_the_import_refuses_the_line_with_the_engines_reason(tmp_path, staff, tables, deal):
    path = tmp_path / "rounds.jsonl"
    path.write_text(
        "\n".join([to_json(deal(tables.ochko, seed=2)), to_json(nine_aces(deal(tables.ochko, seed=3)))]),
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_rounds", str(path), "--as", "pitboss1", stdout=out, stderr=err)
    assert "line 2: This round cannot have happened" in err.getvalue() and "impossible_round" in err.getvalue()
    assert Round.objects.count() == 1


def test_the_form_shows_the_reason_and_offers_no_save(client, make_user, floor):
    from casino.roles import DEALER

    client.force_login(make_user(DEALER, pits=[floor.pit_a], username="dealer1"))
    url = reverse("dealing:round_new", kwargs={"name": floor.table_a.name})
    data = round_data(b1_cards="AS AS", b3_cards="AS", b4_cards="AS AS AS", dealer_cards="AS AS AS")
    response = client.post(url, {**data, "action": "check"})
    result = response.context["result"]
    assert result.ok and [f.code for f in result.impossible] == ["CARD_COUNT"] and not result.may_save
    html = response.content.decode()
    assert "Refused: this round cannot have happened" in html and "A♠ appears 9 times" in html
    assert "Save with findings" not in html and 'value="save"' not in html
    # Posting "save" anyway (with the token of that check) stores nothing and says why.
    response = client.post(url, {**data, "checked": result.token, "action": "save"})
    assert response.status_code == 200 and Round.objects.count() == 0
    assert "cannot have happened as entered" in response.content.decode()


def test_a_wrong_payment_on_the_form_may_still_be_saved_with_findings(client, make_user, floor):
    from casino.roles import DEALER

    client.force_login(make_user(DEALER, pits=[floor.pit_a], username="dealer1"))
    url = reverse("dealing:round_new", kwargs={"name": floor.table_a.name})
    response = client.post(url, {**round_data(s1a_bet_amount="200"), "action": "check"})
    assert response.context["result"].may_save and not response.context["result"].impossible
    assert "Save with findings" in response.content.decode()
