"""Veintiuno at the table terminal (docs/terminal.md): the page asks who holds the bank and seats the
players (stakes `{id, seat, player}`), the engine offers each next move of the round — the first pass
face down, each seat's bet, the second pass, declare, withdraw, void, al puje, tapo, abrir, the bank's
draws, the payments and `bank_to` — and the round stored is the one typed, audited clean; a wrong
payment halts."""

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from dealing.games import terminal as term
from dealing.games.veintiuno.forms import VeintiunoRoundForm
from dealing.models import Round, TerminalDraft

pytestmark = pytest.mark.django_db

STAKES = [
    {"id": "S1", "seat": 1, "player": "Beto"},
    {"id": "S2", "seat": 2, "player": "Carla"},
]
# Ana holds the bank. Beto opens two kings (abrir, twice his bet); his first hand draws an ace: a
# natural on an opened hand, declared (2:1 on the 10 it keeps); his second (the new 20) draws to 19. Carla, on 12, takes a tapo (a queen,
# seen by nobody: 22). The bank, on 16, draws a 7 and goes over: Beto's natural is paid 2:1 and takes
# the bank, his 19 is paid; the tapo hand, over, has its bet returned.
EVENTS = [
    {"e": "deal", "to": 1, "card": "KH"},
    {"e": "deal", "to": 2, "card": "7S"},
    {"e": "deal", "to": "bank", "card": "QC"},
    {"e": "bet", "stake": "S1", "amount": 10},
    {"e": "bet", "stake": "S2", "amount": 20},
    {"e": "deal", "to": 1, "card": "KD"},
    {"e": "deal", "to": 2, "card": "5D"},
    {"e": "deal", "to": "bank", "card": "6C"},
    {"e": "split", "hand": "1", "amount": 20},
    {"e": "hit", "hand": "1.1", "card": "AS"},
    {"e": "declare", "hand": "1.1"},
    {"e": "hit", "hand": "1.2", "card": "2S"},
    {"e": "hit", "hand": "1.2", "card": "7H"},
    {"e": "stand", "hand": "1.2"},
    {"e": "tapo", "hand": "2", "card": "QS"},
    {"e": "draw", "card": "7C"},
]
PAYMENTS = [
    {"e": "pay", "stake": "S1", "hand": "1.1", "wager": "bet", "amount": 20},
    {"e": "pay", "stake": "S1", "hand": "1.2", "wager": "bet", "amount": 20},
    {"e": "leave", "stake": "S2", "hand": "2", "wager": "bet", "amount": 20},
    {"e": "bank_to", "player": "Beto"},
]
HEADER = {"bank": "Ana"}


def client_of(user):
    c = Client()
    c.force_login(user)
    return c


def url(table, name):
    return reverse(f"dealing:{name}", kwargs={"name": table.name})


def post(c, u, body):
    return c.post(u, json.dumps(body), content_type="application/json")


def config_of(page) -> dict:
    return json.loads(
        page.content.decode().split('id="terminal-config" type="application/json">')[1].split("</script>")[0]
    )


def doc_of(stakes=STAKES, events=(), header=HEADER, table=None):
    return {
        "format": "round/1",
        "variant": "veintiuno",
        "table": {"name": "Casa-21", "min": 5, "max": 100},
        "rules": {},
        "dealer": "dealer1",
        **header,
        "stakes": stakes,
        "events": list(events),
    }


def test_the_engine_offers_every_move_of_a_round_event_by_event():
    """Before each event of the round, the event is among the moves offered (with what it needs);
    at the end nothing is left and nothing was found."""
    log = EVENTS + PAYMENTS
    for n, ev in enumerate(log):
        out = term.follow(doc_of(events=log[:n]))
        assert out["error"] is None and out["halt"] == [], (n, out)
        offered = [{**m["event"], **{k: ev[k] for k in m["needs"] if k in ev}} for m in out["moves"]]
        assert any(all(str(o.get(k)) == str(v) for k, v in ev.items()) and o.keys() == ev.keys() for o in offered), (
            n,
            ev,
            offered,
        )
    end = term.follow(doc_of(events=log))
    assert end["done"] and end["findings"] == [] and end["error"] is None


def test_the_moves_each_key_of_the_game_needs_are_offered_where_the_rules_allow_them():
    # Seat 1 (pie de banco) holds a two-card 13: withdraw and void are offered; the bank's 20 may go al puje.
    events = [
        {"e": "deal", "to": 1, "card": "6H"},
        {"e": "deal", "to": "bank", "card": "KC"},
        {"e": "bet", "stake": "S1", "amount": 10},
        {"e": "deal", "to": 1, "card": "7D"},
        {"e": "deal", "to": "bank", "card": "QD"},
    ]
    out = term.follow(doc_of(stakes=STAKES[:1], events=events))
    offered = {m["event"]["e"] for m in out["moves"]}
    assert {"withdraw", "void", "puje", "tapo", "hit", "stand"} <= offered
    keys = {a[1]: a[0] for a in term.game_of("veintiuno").actions}
    assert {"withdraw", "void", "puje", "declare", "split"} <= keys.keys()
    # Al puje, a hand under 21 may no longer stand nor take a tapo.
    out = term.follow(doc_of(stakes=STAKES[:1], events=[*events, {"e": "puje"}]))
    assert {m["event"]["e"] for m in out["moves"]} >= {"hit"} and not {"stand", "tapo"} & {
        m["event"]["e"] for m in out["moves"]
    }


def test_the_felt_names_the_special_hands_and_hides_the_tapo_card():
    walk_doc = doc_of(events=EVENTS[:15])
    felt = term.follow(walk_doc)["felt"]
    assert felt["hands"]["1.1"]["say"] == "21: natural, declared"
    assert felt["hands"]["1.2"]["say"] == "19"
    assert felt["hands"]["2"] == {"total": None, "bust": False, "say": "tapo y quedo", "box": 2}
    assert felt["dealer"]["total"] == 16
    assert "1" not in felt["hands"]  # the opened pair lives on in its two hands


def test_the_page_seats_the_players_and_carries_the_bank_and_the_bets(staff, tables):
    c = client_of(staff.dealer)
    table = tables.veintiuno
    first = uuid.uuid4()
    assert (
        post(
            c,
            url(table, "terminal_save"),
            {"id": str(first), "header": HEADER, "stakes": STAKES, "events": EVENTS + PAYMENTS},
        ).status_code
        == 201
    )
    page = c.get(url(table, "terminal"))
    assert page.status_code == 200
    cfg = config_of(page)
    assert cfg["place"] == "seat" and cfg["stakeWager"] is False and cfg["suited"] is True
    assert cfg["ranks"] == "A234567JQK" and cfg["dealerTo"] == "bank"
    # Beto took the bank: he holds it now and leaves his seat; Carla keeps hers and her last bet.
    assert cfg["header"] == [{"name": "bank", "label": "Who holds the bank", "value": "Beto"}]
    assert cfg["stakes"] == [{"id": "S2", "box": 2, "bet": 20, "player": "Carla", "last_bet": 20}]
    assert {a["key"]: a["event"] for a in cfg["actions"]} == {
        "N": "declare",
        "W": "withdraw",
        "V": "void",
        "U": "puje",
        "P": "split",
    }
    assert b'id="term-header"' in page.content and b"Bank" in page.content
    # No other amount of a stake (the suit is asked for the game's own reason, not for a side bet), and
    # the player is no option: round/1 names who sits at each seat.
    assert cfg["extra"] == [] and term.extras("veintiuno", {}) == ()
    assert b'<th scope="col">Player</th>' in page.content and b"Player (optional)" not in page.content


def test_a_round_typed_at_the_terminal_is_stored_as_typed_and_audited_clean(staff, tables):
    c = client_of(staff.dealer)
    table = tables.veintiuno
    rid = str(uuid.uuid4())
    terminal = "t-test"
    log = EVENTS + PAYMENTS
    for n in range(len(log) + 1):
        answer = post(
            c,
            url(table, "terminal_next"),
            {"id": rid, "terminal": terminal, "header": HEADER, "stakes": STAKES, "events": log[:n]},
        )
        assert answer.status_code == 200 and answer.json()["error"] is None
    # The draft keeps the bank: a reload (or a takeover) resumes the round with it.
    draft = TerminalDraft.objects.get(table=table)
    assert draft.header == HEADER and len(draft.events) == len(log)
    saved = post(
        c,
        url(table, "terminal_save"),
        {"id": rid, "terminal": terminal, "header": HEADER, "stakes": STAKES, "events": log},
    )
    assert saved.status_code == 201, saved.content
    doc = Round.objects.get(uid=rid).document
    assert doc["bank"] == "Ana" and doc["stakes"] == STAKES and doc["events"] == log
    assert term.follow(doc)["findings"] == []  # the whole round audited: nothing found
    assert VeintiunoRoundForm.rebuild(doc) == doc  # what the round form stores for it
    assert not TerminalDraft.objects.filter(table=table).exists()


def test_a_wrong_payment_halts_and_the_round_is_not_stored_with_it(staff, tables):
    c = client_of(staff.dealer)
    table = tables.veintiuno
    wrong = [{**PAYMENTS[0], "amount": 10}]  # the declared natural (a bet of 10) paid even, not 2:1
    answer = post(c, url(table, "terminal_next"), {"header": HEADER, "stakes": STAKES, "events": EVENTS + wrong}).json()
    assert [f["code"] for f in answer["halt"]] == ["WRONG_AMOUNT"] and answer["halt"][0]["event"] == len(EVENTS)
    refused = post(
        c,
        url(table, "terminal_save"),
        {"id": str(uuid.uuid4()), "header": HEADER, "stakes": STAKES, "events": EVENTS + wrong + PAYMENTS[1:]},
    )
    assert refused.status_code == 409 and not Round.objects.exists()


def test_without_the_bank_the_engine_says_what_is_missing_and_nothing_is_stored(staff, tables):
    c = client_of(staff.dealer)
    table = tables.veintiuno
    answer = post(c, url(table, "terminal_next"), {"stakes": STAKES, "events": []}).json()
    assert answer["error"] and "bank" in (answer["error"]["path"] or "") + answer["error"]["message"]
    # The bank cannot also sit at a seat; a header field the game does not ask is not sent on.
    assert term.header_fields("veintiuno", {"bank": "  Ana ", "shoe": "x"}) == {"bank": "Ana"}
    assert term.header_fields("ochko", {"bank": "Ana"}) == {}
    saved = post(
        c, url(table, "terminal_save"), {"id": str(uuid.uuid4()), "stakes": STAKES, "events": EVENTS + PAYMENTS}
    )
    assert saved.status_code == 400 and not Round.objects.exists()
