"""Seed 002's clocks at the table terminal (docs/terminal.md, "The clocks"): the salon's table runs
them, counted by the server from the time the draft's last entry was accepted (a reload resumes the
time left); a hand's clock that runs out logs its `stand` (marked in the draft as the clock's), the
insurance clock's end closes the offer; never while a halt is up, never twice, never early; the
online table has none."""

import uuid
from datetime import timedelta

import pytest

from dealing.models import Round, TerminalDraft
from tests.dealing.test_terminal import client_of, post, urls
from tests.engine.test_blackjack_clocks import ACE_DEAL, DEAL, STAKES

pytestmark = pytest.mark.django_db

STAND_1 = {"e": "stand", "hand": "1"}


def body(events, round_id, **more):
    return {"id": round_id, "terminal": "term-a", "stakes": STAKES, "events": events, **more}


def age(table, seconds):
    """The draft's last entry, `seconds` earlier: the time a player took, without waiting for it."""
    draft = TerminalDraft.objects.get(table=table)
    draft.entry_at -= timedelta(seconds=seconds)
    draft.save(update_fields=["entry_at"])


@pytest.fixture
def rid():
    return str(uuid.uuid4())


def test_the_salon_runs_the_bet_clock_before_the_deal_and_the_online_table_none(staff, tables, rid):
    c = client_of(staff.dealer)
    salon = post(c, urls(tables.salon)["next"], body([], rid)).json()
    assert salon["clock"] == {"kind": "bet", "seconds": 15, "timeout": None}  # the page counts it; nothing logged
    online = post(c, urls(tables.online)["next"], body([], rid) | {"stakes": [{"id": "1", "box": 1, "bet": 100}]})
    assert online.json()["clock"] is None


def test_a_hand_to_act_has_15_seconds_counted_from_its_entry_and_a_reload_resumes_them(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)["next"]
    answer = post(c, u, body(DEAL, rid)).json()
    clock = answer["clock"]
    assert clock["kind"] == "action" and clock["timeout"] == STAND_1
    draft = TerminalDraft.objects.get(table=tables.salon)
    assert clock["deadline"] == int(draft.entry_at.timestamp() * 1000) + 15000
    assert 14000 < clock["deadline"] - answer["now"] <= 15000

    age(tables.salon, 10)  # ten seconds later the page is reloaded: it posts the same log again
    again = post(c, u, body(DEAL, rid)).json()
    assert again["clock"]["deadline"] == clock["deadline"] - 10000
    assert again["clock"]["deadline"] - again["now"] <= 5000  # the 5 seconds left, not a fresh 15


def test_the_end_of_a_hands_clock_logs_its_stand_once_and_never_early(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)["next"]
    post(c, u, body(DEAL, rid))
    timed_out = [*DEAL, STAND_1]

    early = post(c, u, body(timed_out, rid, timeout=6))
    assert early.status_code == 409 and early.json()["error"]["code"] == "clock_running"
    assert TerminalDraft.objects.get(table=tables.salon).events == DEAL  # nothing logged

    age(tables.salon, 16)
    stood = post(c, u, body(timed_out, rid, timeout=6))
    assert stood.status_code == 200
    assert stood.json()["timeouts"] == [6] and stood.json()["clock"]["timeout"] == {"e": "stand", "hand": "2"}
    draft = TerminalDraft.objects.get(table=tables.salon)
    assert draft.events == timed_out and draft.timeouts == [6]

    # The same timeout again (Enter pressed, a retry): the same log, nothing new, the next clock kept.
    repeat = post(c, u, body(timed_out, rid, timeout=6))
    assert repeat.status_code == 200 and repeat.json()["clock"]["deadline"] == stood.json()["clock"]["deadline"]
    assert TerminalDraft.objects.get(table=tables.salon).events == timed_out

    # A clock's end posted over a round that moved on (the hand acted): refused, nothing written.
    late = post(c, u, body([*DEAL, {"e": "hit", "hand": "1", "card": "2*"}], rid, timeout=6))
    assert late.status_code == 409 and late.json()["error"]["code"] == "clock_none"
    stale = post(c, u, body([*DEAL, STAND_1], str(uuid.uuid4()), timeout=6))
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "clock_stale"
    assert TerminalDraft.objects.get(table=tables.salon).events == timed_out


def test_a_timeout_is_only_the_entry_the_clock_logs(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)["next"]
    post(c, u, body(DEAL, rid))
    age(tables.salon, 16)
    other = post(c, u, body([*DEAL, {"e": "stand", "hand": "2"}], rid, timeout=6))  # box 2 is not to act
    assert other.status_code == 409 and other.json()["error"]["code"] == "clock_none"
    bad = post(c, u, body([*DEAL, STAND_1], rid, timeout="6"))
    assert bad.status_code == 400 and bad.json()["error"]["path"] == "timeout"
    assert TerminalDraft.objects.get(table=tables.salon).events == DEAL


def test_the_insurance_clock_has_8_seconds_and_its_end_closes_the_offer(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)["next"]
    offer = post(c, u, body(ACE_DEAL, rid)).json()["clock"]
    assert offer["kind"] == "insurance" and offer["seconds"] == 8 and offer["timeout"] == {"e": "peek"}
    age(tables.salon, 9)
    closed = post(c, u, body([*ACE_DEAL, {"e": "peek"}], rid, timeout=6))
    assert closed.status_code == 200
    assert not [m for m in closed.json()["moves"] if m["event"]["e"] in ("insurance", "even_money")]
    assert closed.json()["clock"]["kind"] == "action"  # the hands' clocks now


def test_no_clock_runs_while_a_halt_is_up(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)["next"]
    over_half = [*ACE_DEAL, {"e": "insurance", "stake": "1", "amount": 80}]  # a wrong insurance halts
    halted = post(c, u, body(over_half, rid)).json()
    assert halted["halt"] and halted["clock"] is None
    age(tables.salon, 60)
    refused = post(c, u, body([*over_half, {"e": "peek"}], rid, timeout=7))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "clock_none"
    assert TerminalDraft.objects.get(table=tables.salon).events == over_half


def test_an_inspector_sees_the_clock_and_logs_nothing(staff, tables, rid):
    u = urls(tables.salon)["next"]
    post(client_of(staff.dealer), u, body(DEAL, rid))
    inspector = client_of(staff.inspector)
    seen = post(inspector, u, body(DEAL, rid)).json()["clock"]
    draft = TerminalDraft.objects.get(table=tables.salon)
    assert seen["deadline"] == int(draft.entry_at.timestamp() * 1000) + 15000
    age(tables.salon, 16)
    refused = post(inspector, u, body([*DEAL, STAND_1], rid, timeout=6))
    assert refused.status_code == 409
    assert TerminalDraft.objects.get(table=tables.salon).events == DEAL


def test_the_stored_round_has_the_timed_out_stand_as_an_ordinary_stand(staff, tables, rid):
    c, u = client_of(staff.dealer), urls(tables.salon)
    post(c, u["next"], body(DEAL, rid))
    age(tables.salon, 16)
    assert post(c, u["next"], body([*DEAL, STAND_1], rid, timeout=6)).status_code == 200
    rest = [{"e": "stand", "hand": "2"}, {"e": "draw", "card": "5*"}]
    answer = post(c, u["next"], body([*DEAL, STAND_1, *rest], rid)).json()
    assert answer["timeouts"] == [6]  # the mark stays with the draft as the round goes on
    settle = [m["event"] for m in answer["moves"]]
    events = [*DEAL, STAND_1, *rest, *settle]
    stored = post(c, u["save"], body(events, rid))
    assert stored.status_code == 201, stored.content
    assert Round.objects.get(table=tables.salon).document["events"][6] == STAND_1  # round/1, unchanged
