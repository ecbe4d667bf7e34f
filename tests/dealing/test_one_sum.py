"""#35 item 5: several ochko boxes paid with one sum (the `pay_sum` event, docs/engine.md) through
the API, `import_rounds` and the audit — one engine path — and shown on the round page and the
audit replay, its findings said in every language."""

import copy
import io
import json
from decimal import Decimal
from uuid import uuid4

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from audit.models import Finding
from casino.finding_words import finding_text
from dealing.choices import AuditStatus
from dealing.models import Round
from tests.dealing.conftest import post_json, to_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"
# Box 1: 9 T = 19, box 3: T 9 = 19; the dealer 7 6 9 = 22 busts: both boxes win.
PLAY = [
    {"e": "deal", "to": 1, "card": "9H"},
    {"e": "deal", "to": 3, "card": "TS"},
    {"e": "deal", "to": "dealer", "card": "7C"},
    {"e": "bet", "stake": "1a", "amount": 300},
    {"e": "bet", "stake": "3a", "amount": 200},
    {"e": "open"},
    {"e": "hit", "box": 1, "card": "TD"},
    {"e": "stand", "box": 1},
    {"e": "hit", "box": 3, "card": "9C"},
    {"e": "stand", "box": 3},
    {"e": "draw", "card": "6S"},
    {"e": "draw", "card": "9D"},
]
# Box 3 takes a dark card instead and wins: its Ante is paid, its Bet stays.
DARK = PLAY[:8] + [{"e": "dark", "box": 3, "card": "9C"}] + PLAY[10:] + [{"e": "reveal", "box": 3}]


def doc(settle, *, dealer_bet_on=1, events=PLAY):
    stakes = [
        {"id": "1a", "box": 1, "player": "P-1", "ante": 100},
        {"id": "3a", "box": 3, "player": "P-2", "ante": 200},
    ]
    for s in stakes:
        if s["box"] == dealer_bet_on:
            s["dealer_bet"] = 10
    return {
        "format": "round/1",
        "id": str(uuid4()),
        "variant": "ochko",
        "table": {"name": "R-1", "min": 100, "max": 5000},
        "dealer": "dealer1",
        "stakes": stakes,
        "events": copy.deepcopy(events) + settle,
    }


def pay_sum(boxes, amount):
    return [{"e": "pay_sum", "boxes": boxes, "amount": amount}]


# (the log, the findings it must get as (code, rule))
CASES = {
    "clean": (doc(pay_sum([3, 1], 810)), []),
    "wrong_amount": (doc(pay_sum([3, 1], 800)), [("WRONG_AMOUNT", "sum")]),
    "dealer_bet_not_last": (doc(pay_sum([3, 1], 810), dealer_bet_on=3), [("PAYMENT_ORDER", "sum_dealer_bet")]),
    "stay_folded_in": (doc(pay_sum([3, 1], 610), events=DARK), [("PAYMENT_ORDER", "sum_stay")]),
    "wrong_order": (doc(pay_sum([1, 3], 810), dealer_bet_on=3), [("PAYMENT_ORDER", "box_order")]),
}


def rules_of(findings):
    return sorted((f["code"], f["params"]["rule"]) for f in findings)


@pytest.mark.parametrize("case", list(CASES))
def test_a_one_sum_round_through_the_api_is_stored_with_exactly_its_findings(
    api, staff, tables, eager, django_capture_on_commit_callbacks, case
):
    document, expected = CASES[case]
    client = api(staff.dealer)
    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(client, ROUNDS, document)
    assert response.status_code == 201, response.json()
    assert rules_of(response.json()["findings"]) == expected
    record = Round.objects.get(pk=response.json()["id"])
    record.refresh_from_db()
    assert record.document["events"][-1]["e"] == "pay_sum"  # stored as logged
    # the float as logged is the sum paid, whatever it was owed
    assert record.float_logged == -Decimal(str(document["events"][-1]["amount"]))
    assert record.audit_status == (AuditStatus.FINDINGS if expected else AuditStatus.CLEAN)
    assert sorted(Finding.objects.filter(round=record).values_list("code", "params__rule")) == expected
    detail = client.get(f"/api/v1/rounds/{record.pk}/").json()
    # settlement/1 stays per wager
    wagers = {(w["stake"], w["wager"]): (w["result"], w["amount"]) for w in detail["settlement"]["wagers"]}
    assert wagers[("1a", "ante")] == ("pay", "100") and wagers[("3a", "ante")] == ("pay", "200")


def test_a_wrong_sum_carries_what_it_cost_and_is_said_in_every_language(api, staff, tables):
    response = post_json(api(staff.dealer), ROUNDS, CASES["wrong_amount"][0])
    (f,) = response.json()["findings"]
    assert f["player_delta"] == "-10" and f["severity"] == "critical"
    assert (
        f["message"]
        == "Event 12: the one sum for boxes 3, 1 was 800; their wagers were owed 810 (rules/ochko.md, step 11)."
    )
    said = {}
    for language in ("ru", "es", "pt-br"):
        with translation.override(language):
            said[language] = finding_text(f)
    assert said["ru"].startswith("Событие 12") and "боксы 3, 1" in said["ru"] and "810" in said["ru"]
    assert "casillas 3, 1" in said["es"] and "boxes 3, 1" in said["pt-br"]
    for case in ("dealer_bet_not_last", "stay_folded_in"):
        (g,) = post_json(api(staff.dealer), ROUNDS, CASES[case][0]).json()["findings"]
        for language in ("ru", "es", "pt-br"):
            with translation.override(language):
                text = finding_text(g)
            assert text != g["message"] and "%(" not in text and "3, 1" in text


@pytest.mark.parametrize(
    "event, field",
    [
        ({"e": "pay_sum", "boxes": [3], "amount": 810}, "boxes"),
        ({"e": "pay_sum", "boxes": [3, 2], "amount": 810}, "boxes"),
        ({"e": "pay_sum", "boxes": "3,1", "amount": 810}, "boxes"),
        ({"e": "pay_sum", "boxes": [3, 1]}, "amount"),
    ],
)
def test_a_sum_the_engine_cannot_follow_is_refused_naming_the_field_and_nothing_is_stored(
    api, staff, tables, event, field
):
    response = post_json(api(staff.dealer), ROUNDS, doc([event]))
    assert response.status_code == 400
    extra = response.json()["extra"]
    assert extra["event"] == 12 and extra["path"] == f"$.events[12].{field}"
    assert not Round.objects.exists()


def test_import_rounds_stores_and_audits_one_sum_rounds_as_the_api_does(
    tmp_path, staff, tables, eager, django_capture_on_commit_callbacks
):
    path = tmp_path / "rounds.jsonl"
    path.write_text("\n".join(to_json(d) for d, _ in CASES.values()) + "\n", encoding="utf-8")
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_rounds", str(path), stdout=out, stderr=io.StringIO())
    assert out.getvalue().strip() == f"{len(CASES)} stored, 0 already stored, 0 refused"
    for document, expected in CASES.values():
        record = Round.objects.get(uid=document["id"])
        assert sorted(Finding.objects.filter(round=record).values_list("code", "params__rule")) == expected


def test_the_round_page_and_the_audit_replay_show_the_sum(
    client, staff, tables, eager, django_capture_on_commit_callbacks
):
    document = CASES["wrong_amount"][0]
    with django_capture_on_commit_callbacks(execute=True):
        from dealing import services

        record, _ = services.round_log(document=json.loads(to_json(document)), logged_by=staff.dealer)
    client.force_login(staff.pitboss)
    page = client.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert "in one sum for boxes 3, 1: 800" in page
    replay = client.get(reverse("audit:round_replay", args=[record.pk])).content.decode()
    assert "pay in one sum" in replay and "boxes 3, 1" in replay
    assert "Boxes 3, 1 paid with one sum: 800." in replay
    with translation.override("ru"):
        client.cookies["django_language"] = "ru"
        replay_ru = client.get(
            reverse("audit:round_replay", args=[record.pk]), HTTP_ACCEPT_LANGUAGE="ru"
        ).content.decode()
    assert "оплата общей суммой" in replay_ru and "Боксы 3, 1 оплачены общей суммой: 800." in replay_ru
