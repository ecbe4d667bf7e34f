"""The table terminal's page and its two JSON endpoints: who may use them, what the engine answers
event by event (the halt on a wrong payment), and the stored round: the same as the form's."""

import json
import time
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from dealing import games, services
from dealing.models import HaltOverride, Round
from dealing.services import terminal as terminal_service

pytestmark = pytest.mark.django_db

STAKES = [
    {"id": "1a", "box": 1, "player": "P-23", "ante": 100, "dealer_bet": 10},
    {"id": "2a", "box": 2, "ante": 200},
    {"id": "3a", "box": 3, "player": "P-8", "ante": 100},
]
EVENTS = [
    {"e": "deal", "to": 1, "card": "9*"},
    {"e": "deal", "to": 2, "card": "K*"},
    {"e": "deal", "to": 3, "card": "7*"},
    {"e": "deal", "to": "dealer", "card": "7*"},
    {"e": "bet", "stake": "1a", "amount": 100},
    {"e": "bet", "stake": "2a", "amount": 200},
    {"e": "bet", "stake": "3a", "amount": 100},
    {"e": "open"},
    {"e": "hit", "box": 1, "card": "T*"},
    {"e": "stand", "box": 1},
    {"e": "dark", "box": 2, "card": "8*"},
    {"e": "hit", "box": 3, "card": "9*"},
    {"e": "stand", "box": 3},
    {"e": "draw", "card": "6*"},
    {"e": "draw", "card": "9*"},
    {"e": "reveal", "box": 2},
]
# The dealer busts with 22: every box wins; box 2's dark card is paid its Ante only (its Bet stays).
PAYMENTS = [
    {"e": "pay", "stake": "3a", "wager": "bet", "amount": 100},
    {"e": "pay", "stake": "3a", "wager": "ante", "amount": 100},
    {"e": "pay", "stake": "2a", "wager": "ante", "amount": 200},
    {"e": "leave", "stake": "2a", "wager": "bet"},
    {"e": "pay", "stake": "1a", "wager": "bet", "amount": 100},
    {"e": "pay", "stake": "1a", "wager": "ante", "amount": 100},
    {"e": "pay", "stake": "1a", "wager": "dealer_bet", "amount": 10},
]


def client_of(user):
    c = Client()
    c.force_login(user)
    return c


def urls(table):
    return {
        k: reverse(f"dealing:{n}", kwargs={"name": table.name})
        for k, n in (
            ("page", "terminal"),
            ("next", "terminal_next"),
            ("save", "terminal_save"),
            ("override", "terminal_override"),
        )
    }


def post(c, url, body):
    return c.post(url, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    "role, status",
    [
        ("dealer", 200),
        ("inspector", 200),
        ("pitboss", 200),
        ("admin", 200),
        ("auditor", 403),
        ("trainee", 403),
        ("nobody", 403),
        ("dealer_c", 403),
        ("inspector_c", 403),
    ],
)
def test_the_terminal_is_for_the_dealers_inspectors_and_pit_bosses_of_the_pit(staff, tables, role, status):
    c = client_of(getattr(staff, role))
    u = urls(tables.ochko)
    assert c.get(u["page"]).status_code == status
    assert post(c, u["next"], {"stakes": STAKES, "events": []}).status_code == status


def test_anonymous_is_sent_to_the_login(tables):
    response = Client().get(urls(tables.ochko)["page"])
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_engine_offers_what_may_come_next_and_what_is_owed(staff, tables):
    c = client_of(staff.dealer)
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS[:4]}).json()
    assert [m["event"] for m in answer["moves"]][:2] == [{"e": "fold", "stake": "1a"}, {"e": "bet", "stake": "1a"}]
    assert answer["moves"][1]["needs"] == ["amount"] and answer["moves"][1]["max"] == "1000"
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS}).json()
    assert answer["moves"][0]["event"] == {"e": "pay", "stake": "3a", "wager": "bet", "amount": "100"}
    assert {(w["stake"], w["wager"]): (w["result"], w["amount"]) for w in answer["owed"]}[("2a", "bet")] == (
        "leave",
        "200",
    )
    assert answer["halt"] == [] and answer["error"] is None and not answer["done"]


def test_a_wrong_payment_halts_the_moment_it_is_entered(staff, tables):
    c = client_of(staff.dealer)
    wrong = [{**PAYMENTS[0], "amount": 90}]
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS + wrong}).json()
    assert [(f["code"], f["event"]) for f in answer["halt"]] == [("WRONG_AMOUNT", len(EVENTS))]
    assert "90" in answer["halt"][0]["text"] and "100" in answer["halt"][0]["text"]


def test_a_suitless_card_at_the_online_table_is_refused_with_the_reason(staff, tables):
    c = client_of(staff.dealer)
    stakes = [{"id": "1", "box": 1, "bet": 10}]
    answer = post(c, urls(tables.online)["next"], {"stakes": stakes, "events": [{"e": "deal", "to": 1, "card": "9*"}]})
    assert answer.json()["error"]["code"] == "suit_needed" and answer.json()["error"]["event"] == 0


def test_the_stored_round_is_the_forms_round_and_the_next_one_carries_the_stakes(staff, tables):
    c = client_of(staff.dealer)
    u = urls(tables.ochko)
    rid = str(uuid.uuid4())
    answer = post(c, u["next"], {"stakes": STAKES, "events": EVENTS + PAYMENTS}).json()
    assert answer["done"] and answer["findings"] == []
    response = post(c, u["save"], {"id": rid, "stakes": STAKES, "events": EVENTS + PAYMENTS})
    assert response.status_code == 201, response.content
    record = Round.objects.get(uid=rid)
    assert response.json()["url"] == reverse("dealing:round_detail", args=[record.pk])
    assert record.dealer == staff.dealer and record.logged_by == staff.dealer
    doc = record.document
    assert doc["dealer"] == "dealer1" and doc["table"] == {"name": "R-1", "min": 100, "max": 5000}
    assert "player" not in doc["stakes"][1]  # the anonymous player stays anonymous
    # What the round form would store for this round: the same document, event for event.
    assert games.form_for("ochko").rebuild(doc) == doc
    # Sent again (a retry): one round.
    assert post(c, u["save"], {"id": rid, "stakes": STAKES, "events": EVENTS + PAYMENTS}).status_code == 200
    assert Round.objects.filter(table=tables.ochko).count() == 1
    # The next round's stakes: carried, with the Bet each played.
    page = c.get(u["page"])
    config = json.loads(
        page.content.decode().split('id="terminal-config" type="application/json">')[1].split("</script>")[0]
    )
    assert [(s["id"], s.get("player"), s["ante"], s.get("dealer_bet"), s["last_bet"]) for s in config["stakes"]] == [
        ("1a", "P-23", 100, 10, 100),
        ("2a", None, 200, None, 200),
        ("3a", "P-8", 100, None, 100),
    ]


def test_an_inspector_follows_but_does_not_store(staff, tables):
    c = client_of(staff.inspector)
    response = post(
        c, urls(tables.ochko)["save"], {"id": str(uuid.uuid4()), "stakes": STAKES, "events": EVENTS + PAYMENTS}
    )
    assert response.status_code == 403
    assert not Round.objects.exists()


def test_a_pit_boss_names_the_dealer(staff, tables):
    c = client_of(staff.pitboss)
    u = urls(tables.ochko)
    body = {"id": str(uuid.uuid4()), "stakes": STAKES, "events": EVENTS + PAYMENTS}
    assert post(c, u["save"], body).status_code == 400
    assert post(c, u["save"], {**body, "dealer": "dealer2"}).status_code == 201
    assert Round.objects.get().dealer == staff.dealer2


def test_an_impossible_log_is_stored_nowhere(staff, tables):
    c = client_of(staff.dealer)
    response = post(
        c, urls(tables.ochko)["save"], {"id": str(uuid.uuid4()), "stakes": STAKES, "events": [{"e": "fly"}]}
    )
    assert response.status_code == 400 and response.json()["error"]["message"]
    assert not Round.objects.exists()


def test_veintiuno_is_followed_at_the_terminal_too(staff, tables):
    """Every game is at the terminal now (#31 item 6; tests/dealing/test_terminal_veintiuno.py); its
    round form stays a link away."""
    page = client_of(staff.dealer).get(urls(tables.veintiuno)["page"])
    assert page.status_code == 200 and b"terminal-config" in page.content
    assert reverse("dealing:round_new", kwargs={"name": tables.veintiuno.name}).encode() in page.content
    assert all(games.slot_of(g.variant, "terminal") is not None for g in games.all_games())


def test_the_round_trip_of_one_event_is_short(staff, tables):
    c = client_of(staff.dealer)
    u = urls(tables.ochko)["next"]
    post(c, u, {"stakes": STAKES, "events": []})
    times = []
    for n in range(len(EVENTS + PAYMENTS) + 1):
        t = time.perf_counter()
        assert post(c, u, {"stakes": STAKES, "events": (EVENTS + PAYMENTS)[:n]}).status_code == 200
        times.append(time.perf_counter() - t)
    times.sort()
    assert times[len(times) // 2] < 0.05, times  # the median, on a loaded machine


def test_services_stay_the_one_way_in(staff, tables, monkeypatch):
    calls = []
    real = services.round_log
    # The terminal's service (dealing/services/terminal.py) stores through round_log.
    monkeypatch.setattr(terminal_service, "round_log", lambda **kw: calls.append(kw) or real(**kw))
    post(
        client_of(staff.dealer),
        urls(tables.ochko)["save"],
        {"id": str(uuid.uuid4()), "stakes": STAKES, "events": EVENTS + PAYMENTS},
    )
    assert len(calls) == 1 and calls[0]["table"] == tables.ochko


@pytest.mark.parametrize("which", ["ochko", "veintiuno"])
def test_the_tables_and_the_shoe_page_link_to_the_terminal(staff, tables, which):
    table = getattr(tables, which)
    link = reverse("dealing:terminal", kwargs={"name": table.name}).encode()
    for user in (staff.dealer, staff.inspector, staff.pitboss):
        c = client_of(user)
        assert link in c.get(reverse("dealing:table_list")).content
        assert link in c.get(reverse("dealing:shoe", kwargs={"name": table.name})).content
    assert link not in client_of(staff.auditor).get(reverse("dealing:table_list")).content


def test_a_jackpot_table_carries_the_side_bet_and_types_suits():
    from dealing.games import terminal as term

    previous = {
        "variant": "blackjack",
        "stakes": [{"id": "1", "box": 1, "player": "P-13", "bet": 10, "jackpot": 1}, {"id": "9", "box": 9, "bet": 10}],
        "events": [],
    }
    assert term.extras("blackjack", {"preset": "online"}) == ("jackpot",)
    assert term.extras("blackjack", {"preset": "salon"}) == ()
    assert term.suited("blackjack", {"preset": "online"}) and not term.suited("ochko", {})
    assert term.carried_stakes("blackjack", previous, boxes=1, extra=("jackpot",)) == [
        {"id": "1", "box": 1, "bet": 10, "player": "P-13", "jackpot": 1}
    ]  # box 9 is not on a 1-box table
    assert term.carried_stakes("ochko", previous, boxes=6) == []  # another game's round carries nothing


def test_a_round_in_progress_shows_no_finding_of_what_is_still_to_come(staff, tables):
    c = client_of(staff.dealer)
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": EVENTS[:1]}).json()
    assert answer["findings"] == [] and answer["halt"] == []
    # A card out of the pack is found as it is dealt.
    answer = post(c, urls(tables.ochko)["next"], {"stakes": STAKES, "events": [{**EVENTS[0], "card": "2*"}]}).json()
    assert [(f["code"], f["event"]) for f in answer["halt"]] == [("CARD_INVALID", 0)]


# --- a halt is not passed by habit: the server holds to it ----------------------------------------------

WRONG = [{**PAYMENTS[0], "amount": 90}]  # box 3's Bet of 100 paid 90: the terminal halts here
HALTED_AT = len(EVENTS)


def test_a_round_with_a_wrong_payment_neither_taken_back_nor_overridden_is_refused_409(staff, tables):
    c = client_of(staff.dealer)
    u = urls(tables.ochko)
    body = {"id": str(uuid.uuid4()), "stakes": STAKES, "events": EVENTS + WRONG + PAYMENTS[1:]}
    response = post(c, u["save"], body)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "halt_unresolved" and error["event"] == HALTED_AT and error["message"]
    # A client that invents an override gets no further.
    assert post(c, u["save"], {**body, "overrides": ["forged", {"i": HALTED_AT}]}).status_code == 409
    assert not Round.objects.exists() and not HaltOverride.objects.exists()
    # Taken back and paid right: stored.
    assert post(c, u["save"], {**body, "events": EVENTS + PAYMENTS}).status_code == 201


def override(c, table, events, username="pitboss1", password="demo", reason="Paid 90; player agreed"):
    return post(
        c,
        urls(table)["override"],
        {"stakes": STAKES, "events": events, "username": username, "password": password, "reason": reason},
    )


def test_a_pit_boss_overrides_a_halt_with_his_own_credentials_and_a_reason(staff, tables):
    c = client_of(staff.dealer)
    halted = EVENTS + WRONG
    assert override(c, tables.ochko, halted, password="wrong").status_code == 403
    assert override(c, tables.ochko, halted, username="dealer1").status_code == 403  # not the dealer himself
    assert override(c, tables.ochko, halted, username="dealer2").status_code == 403  # a dealer is no pit boss
    assert override(c, tables.ochko, halted, username="pitboss-c").status_code == 403  # another pit's
    assert override(c, tables.ochko, halted, reason=" ").status_code == 400
    assert override(c, tables.ochko, EVENTS).status_code == 409  # nothing halted: nothing to override
    answer = override(c, tables.ochko, halted)
    assert answer.status_code == 200 and answer.json()["by"] == "pitboss1"
    token = answer.json()["token"]

    u = urls(tables.ochko)
    body = {"id": str(uuid.uuid4()), "stakes": STAKES, "events": halted + PAYMENTS[1:], "overrides": [token]}
    # The override covers that log only: for an entry changed since, it counts for nothing.
    other = {**body, "events": EVENTS + [{**PAYMENTS[0], "amount": 80}] + PAYMENTS[1:]}
    assert post(c, u["save"], other).status_code == 409
    response = post(c, u["save"], body)
    assert response.status_code == 201, response.content
    record = Round.objects.get()
    note = HaltOverride.objects.get(round=record)
    assert (note.event, note.codes, note.overridden_by, note.reason) == (
        HALTED_AT,
        "WRONG_AMOUNT",
        staff.pitboss,
        "Paid 90; player agreed",
    )
    # The finding stays with the round.
    answer = post(c, u["next"], {"stakes": STAKES, "events": body["events"]}).json()
    assert ("WRONG_AMOUNT", HALTED_AT) in [(f["code"], f["event"]) for f in answer["findings"]]
    # The round page says so.
    page = c.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    section = page.split('id="halt-overrides"')[1].split("</section>")[0]
    assert "pitboss1" in section and "Paid 90; player agreed" in section and "WRONG_AMOUNT" in section
    # Sent again (a retry): one round, one override.
    assert post(c, u["save"], body).status_code == 200 and HaltOverride.objects.count() == 1


def test_a_round_logged_at_the_terminal_draws_its_suitless_cards_as_cards_of_their_rank(staff, tables):
    c = client_of(staff.pitboss)
    response = post(
        c,
        urls(tables.ochko)["save"],
        {"id": str(uuid.uuid4()), "dealer": "dealer1", "stakes": STAKES, "events": EVENTS + PAYMENTS},
    )
    record = Round.objects.get(pk=int(response.json()["url"].rstrip("/").split("/")[-1]))
    page = c.get(reverse("dealing:round_detail", args=[record.pk])).content.decode()
    assert "pcard bad" not in page  # (the log itself, as text, still reads "9*")
    assert (
        '<span class="pcard suitless" title="10"><span class="r" data-suit="">10</span><span class="s">10</span>'
        in page
    )
    replay = c.get(reverse("audit:round_replay", args=[record.pk])).content.decode()
    assert "au-card invalid" not in replay and 'data-card="T*"' in replay
