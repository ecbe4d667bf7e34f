"""A shoe that cannot hold what is logged to it (issue #33 item 2): a round for an ended shoe is
refused by the API and by import_rounds; the round that gives a shoe more rounds than its cards can
deal has the shoe checked at once (not only once it ends)."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from audit.models import ShoeAudit
from dealing import selectors, services
from dealing.models import Round
from tests.dealing.conftest import deal_round, post_json, to_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"


def test_the_api_refuses_a_round_for_an_ended_shoe(api, staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    services.shoe_end(shoe=shoe, ended_by=staff.dealer)
    doc = deal_round(tables.ochko, seed=1)
    doc["shoe"] = "R-1/1"
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 409
    assert "shoe_ended" in json.dumps(response.json()) and "has ended" in json.dumps(response.json())
    assert not Round.objects.exists()


def test_import_refuses_the_lines_of_an_ended_shoe_and_keeps_the_others(tmp_path, staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    services.shoe_end(shoe=shoe, ended_by=staff.dealer)
    late = deal_round(tables.ochko, seed=2)
    late["shoe"] = "R-1/1"
    path = tmp_path / "late.jsonl"
    path.write_text(to_json(late) + "\n" + to_json(deal_round(tables.ochko, seed=3)) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as exc:
        call_command("import_rounds", str(path), "--json", stdout=out, stderr=err)
    assert exc.value.returncode == 1
    summary = json.loads(out.getvalue())
    assert (summary["stored"], summary["refused"]) == (1, 1)
    assert summary["refusals"][0]["line"] == 1 and summary["refusals"][0]["code"] == "shoe_ended"
    assert Round.objects.get().shoe is None


def test_the_round_that_overfills_a_shoe_has_it_checked_at_once(
    staff, tables, eager, monkeypatch, django_capture_on_commit_callbacks
):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    # A shoe whose cards can deal 3 rounds.
    monkeypatch.setattr(selectors, "MIN_CARDS_PER_ROUND", shoe.decks * 36 // 3)
    assert selectors.shoe_round_limit(shoe) == 3
    for k in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            services.round_log(document=deal_round(tables.ochko, seed=10 + k), logged_by=staff.dealer)
    assert not ShoeAudit.objects.filter(shoe=shoe).exists()  # a shoe in play is checked once it ends
    with django_capture_on_commit_callbacks(execute=True):
        record, _created = services.round_log(document=deal_round(tables.ochko, seed=20), logged_by=staff.dealer)
    assert (record.shoe_id, record.number) == (shoe.pk, 4)
    assert ShoeAudit.objects.get(shoe=shoe).rounds == 4


def test_veintiuno_deals_its_pack_again_so_no_count_of_rounds_is_too_many(staff, tables):
    shoe = services.shoe_start(table=tables.veintiuno, shuffled_by=staff.dealer)
    assert selectors.shoe_round_limit(shoe) is None


def test_an_import_that_overfills_a_shoe_has_it_checked(
    tmp_path, staff, tables, eager, monkeypatch, django_capture_on_commit_callbacks
):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    monkeypatch.setattr(selectors, "MIN_CARDS_PER_ROUND", shoe.decks * 36 // 3)
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(to_json(deal_round(tables.ochko, seed=30 + k)) for k in range(5)) + "\n")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_rounds", str(path), "--jobs", "1", stdout=io.StringIO(), stderr=io.StringIO())
    assert Round.objects.filter(shoe=shoe).count() == 5
    assert ShoeAudit.objects.get(shoe=shoe).rounds == 5
