"""round/1 `played_at` (third wave): a round keeps when it was dealt — through the API and
import_rounds — the chain covers it, periods and rollups count the round at it, and a time in the
future, without an offset or before its table came into play is refused naming the field."""

import datetime as dt
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from audit import rollups
from audit.models import Rollup
from audit.services import rounds_audit
from casino.models import Table
from dealing.models import Round
from tests.dealing.conftest import deal_round, post_json, to_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"


def _command(name, *args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(name, *args, stdout=out, stderr=err)
    except CommandError as exc:
        return exc.returncode, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def opened(tables):
    """Table R-1 in play since 2025 (a history may be imported)."""
    Table.objects.filter(pk=tables.ochko.pk).update(opened_at=dt.datetime(2025, 1, 1, tzinfo=dt.UTC))
    tables.ochko.refresh_from_db()
    return tables.ochko


def test_the_api_keeps_the_rounds_own_time_and_the_chain_covers_it(api, staff, opened):
    doc = deal_round(opened, seed=1)
    doc["played_at"] = "2026-03-14T21:05:09+03:00"
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 201, response.content
    record = Round.objects.get(pk=response.json()["id"])
    assert record.played_at == dt.datetime(2026, 3, 14, 18, 5, 9, tzinfo=dt.UTC)
    assert record.logged_at > timezone.now() - dt.timedelta(minutes=5)
    assert response.json()["played_at"].startswith("2026-03-14T")
    code, out, _err = _command("verify_chain", "--json")
    assert code == 0 and json.loads(out)["ok"] is True
    # The time is part of the link: moved behind the application's back, the chain breaks.
    Round.objects.filter(pk=record.pk).update(played_at=record.played_at - dt.timedelta(days=1))
    code, out, _err = _command("verify_chain", "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["breaks"][0]["link"] == record.chain_index


def test_a_round_without_played_at_was_dealt_when_it_was_logged(api, staff, tables):
    response = post_json(api(staff.dealer), ROUNDS, deal_round(tables.ochko, seed=2))
    assert response.status_code == 201
    record = Round.objects.get(pk=response.json()["id"])
    assert record.played_at == record.logged_at


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("2999-01-01T00:00:00+00:00", "played_at_future"),
        ("2026-03-14T21:05:09", "bad_played_at"),  # no offset: the moment is unknown
        ("yesterday", "bad_played_at"),
        (1710443109, "bad_played_at"),
        ("2024-06-01T12:00:00+00:00", "played_at_before_table"),
    ],
)
def test_a_played_at_that_cannot_be_is_refused_naming_the_field(api, staff, opened, value, code):
    doc = deal_round(opened, seed=3)
    doc["played_at"] = value
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 400, response.content
    body = json.dumps(response.json())
    assert code in body and "$.played_at" in body
    assert not Round.objects.exists()


def test_a_minute_of_clock_skew_is_allowed(api, staff, tables):
    doc = deal_round(tables.ochko, seed=4)
    doc["played_at"] = (timezone.now() + dt.timedelta(seconds=30)).isoformat()
    assert post_json(api(staff.dealer), ROUNDS, doc).status_code == 201


def test_import_keeps_each_rounds_time_reports_progress_and_a_json_summary(tmp_path, staff, opened):
    times = ["2026-01-05T20:00:00+00:00", "2026-01-05T20:02:00+00:00", None]
    lines = []
    for k, at in enumerate(times):
        doc = deal_round(opened, seed=10 + k)
        if at:
            doc["played_at"] = at
        lines.append(to_json(doc))
    bad = deal_round(opened, seed=20)
    bad["played_at"] = "2999-01-01T00:00:00Z"
    lines.append(to_json(bad))
    path = tmp_path / "history.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _command("import_rounds", str(path), "--json")
    assert code == 1
    summary = json.loads(out)
    assert (summary["stored"], summary["repeats"], summary["refused"]) == (3, 0, 1)
    assert summary["refusals"][0]["line"] == 4 and summary["refusals"][0]["path"] == "$.played_at"
    assert "4 lines: 3 stored" in err  # progress on stderr
    played = sorted(Round.objects.values_list("played_at", flat=True))
    assert played[:2] == [dt.datetime(2026, 1, 5, 20, 0, tzinfo=dt.UTC), dt.datetime(2026, 1, 5, 20, 2, tzinfo=dt.UTC)]
    assert played[2] > timezone.now() - dt.timedelta(minutes=5)  # none given: the time of the import
    code, out, err = _command("verify_chain", "--json")
    assert code == 0 and json.loads(out)["records"] == 3 and "records" in err
    # Quiet: no progress.
    code, out, err = _command("verify_chain", "--verbosity", "0")
    assert code == 0 and err == ""


def test_a_round_logged_today_for_last_month_lands_in_last_months_rollup(api, staff, opened):
    at = timezone.now() - dt.timedelta(days=35)
    doc = deal_round(opened, seed=30)
    doc["played_at"] = at.isoformat()
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 201
    rounds_audit(round_ids=[response.json()["id"]])  # the incremental rollup update
    day = timezone.localtime(at).date()
    assert list(Rollup.objects.values_list("day", "rounds")) == [(day, 1)]
    assert rollups.differences() == []


def _form_save(client, url, data):
    checked = client.post(url, {**data, "action": "check"}).context["result"]
    return client.post(url, {**data, "checked": checked.token, "action": "save"})


def test_the_round_form_takes_a_late_round_with_its_time_and_reason(staff, opened):
    from django.test import Client
    from django.urls import reverse

    from tests.dealing.test_pages import round_data

    client = Client()
    client.force_login(staff.dealer)
    url = reverse("dealing:round_new", kwargs={"name": opened.name})
    dealt = timezone.localtime() - dt.timedelta(hours=3)
    data = {**round_data(), "played_at": dealt.strftime("%Y-%m-%dT%H:%M:%S")}
    refused = _form_save(client, url, data)
    assert refused.status_code == 200 and not Round.objects.exists()
    assert "Say why the round is entered late" in refused.content.decode()
    saved = _form_save(client, url, {**data, "late_reason": "Terminal down; from the paper sheet."})
    assert saved.status_code == 302
    record = Round.objects.get()
    assert record.played_at == dealt.replace(microsecond=0)
    assert record.document["late_reason"] == "Terminal down; from the paper sheet."


def test_a_round_entered_on_time_needs_no_reason(staff, tables):
    from django.test import Client
    from django.urls import reverse

    from tests.dealing.test_pages import round_data

    client = Client()
    client.force_login(staff.dealer)
    url = reverse("dealing:round_new", kwargs={"name": tables.ochko.name})
    assert _form_save(client, url, round_data()).status_code == 302
    record = Round.objects.get()
    assert record.played_at == record.logged_at and "played_at" not in record.document
