"""The round in progress lives on the server: each entry the terminal's engine follows is written to
the table's draft; a reload resumes it; a second terminal is refused (409) until its dealer takes
the round over; a stored round clears it; a new shoe leaves it behind for a pit boss to void with a
reason, never dropped."""

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from dealing import services
from dealing.models import Round, TerminalDraft
from tests.dealing.test_terminal import EVENTS, PAYMENTS, STAKES, client_of, post, urls

pytestmark = pytest.mark.django_db

A, B = "terminal-a", "terminal-b"


def body(events, terminal=A, round_id=None, **more):
    return {"id": round_id or ROUND, "terminal": terminal, "stakes": STAKES, "events": events, **more}


ROUND = str(uuid.uuid4())


def config_of(response) -> dict:
    html = response.content.decode()
    start = html.index('id="terminal-config"')
    start = html.index(">", start) + 1
    return json.loads(html[start : html.index("</script>", start)])


def takeover_url(table):
    return reverse("dealing:terminal_takeover", kwargs={"name": table.name})


def test_each_entry_is_kept_and_a_reload_resumes_at_the_same_entry(staff, tables):
    c = client_of(staff.dealer)
    u = urls(tables.ochko)
    for n in range(1, 6):
        assert post(c, u["next"], body(EVENTS[:n])).status_code == 200
    draft = TerminalDraft.objects.get(table=tables.ochko)
    assert draft.events == EVENTS[:5] and draft.terminal == A and draft.held_by == staff.dealer
    assert draft.dealer == "dealer1" and str(draft.round_id) == ROUND
    post(c, u["next"], body(EVENTS[:4]))  # an entry taken back is taken back on the server too
    assert TerminalDraft.objects.get(table=tables.ochko).events == EVENTS[:4]

    resumed = config_of(c.get(u["page"]))["draft"]  # the page, reloaded
    assert resumed["events"] == EVENTS[:4] and resumed["roundId"] == ROUND and resumed["terminal"] == A
    assert resumed["stakes"] == STAKES and resumed["heldBy"] == "dealer1"


def test_a_second_terminal_is_refused_until_it_takes_the_round_over(staff, tables):
    u = urls(tables.ochko)
    first, second = client_of(staff.dealer), client_of(staff.dealer2)
    post(first, u["next"], body(EVENTS[:3]))
    refused = post(second, u["next"], body(EVENTS[:4], terminal=B))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "draft_taken"
    assert "dealer1" in refused.json()["error"]["message"]
    assert TerminalDraft.objects.get(table=tables.ochko).events == EVENTS[:3]  # nothing written
    # Before the deal (no entries) the second terminal only edits its stakes: nothing to refuse.
    assert post(second, u["next"], body([], terminal=B)).status_code == 200
    assert TerminalDraft.objects.get(table=tables.ochko).terminal == A

    taken = post(second, takeover_url(tables.ochko), {"terminal": B})
    assert taken.status_code == 200 and taken.json()["events"] == EVENTS[:3]
    draft = TerminalDraft.objects.get(table=tables.ochko)
    assert draft.terminal == B and draft.held_by == staff.dealer2 and draft.taken_over_at is not None
    assert post(second, u["next"], body(EVENTS[:4], terminal=B)).status_code == 200

    # The terminal that lost it: its next entry and its store are refused, and change nothing.
    stale = post(first, u["next"], body(EVENTS[:5]))
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "draft_taken"
    stored = post(first, u["save"], body(EVENTS + PAYMENTS))
    assert stored.status_code == 409 and stored.json()["error"]["code"] == "draft_taken"
    assert not Round.objects.filter(table=tables.ochko).exists()
    assert TerminalDraft.objects.get(table=tables.ochko).events == EVENTS[:4]


def test_a_stored_round_clears_its_draft(staff, tables):
    c = client_of(staff.dealer)
    u = urls(tables.ochko)
    post(c, u["next"], body(EVENTS + PAYMENTS))
    assert TerminalDraft.objects.filter(table=tables.ochko).exists()
    assert post(c, u["save"], body(EVENTS + PAYMENTS)).status_code == 201
    assert not TerminalDraft.objects.filter(table=tables.ochko).exists()
    assert config_of(c.get(u["page"]))["draft"] is None


def test_an_inspector_follows_and_writes_no_draft(staff, tables):
    c = client_of(staff.inspector)
    assert post(c, urls(tables.ochko)["next"], body(EVENTS[:4])).status_code == 200
    assert not TerminalDraft.objects.exists()


@pytest.mark.parametrize("terminal", ["", "x" * 65, 7])
def test_a_terminal_without_a_usable_id_is_told_which_field(staff, tables, terminal):
    answer = post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:4], terminal=terminal))
    assert answer.status_code == 400 and answer.json()["error"]["path"] == "terminal"
    assert not TerminalDraft.objects.exists()


def test_a_bad_round_id_is_told_which_field(staff, tables):
    answer = post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:4], round_id="nope"))
    assert answer.status_code == 400 and answer.json()["error"]["path"] == "id"


@pytest.mark.parametrize(
    "role, status",
    [
        ("dealer2", 200),
        ("pitboss", 200),
        ("admin", 200),
        ("inspector", 403),
        ("auditor", 403),
        ("trainee", 403),
        ("nobody", 403),
        ("dealer_c", 403),
        ("pitboss_c", 403),
    ],
)
def test_who_takes_a_round_over(staff, tables, role, status):
    post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:3]))
    answer = post(client_of(getattr(staff, role)), takeover_url(tables.ochko), {"terminal": B})
    assert answer.status_code == status
    assert TerminalDraft.objects.get(table=tables.ochko).terminal == (B if status == 200 else A)


def test_anonymous_takes_nothing_over(staff, tables):
    post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:3]))
    answer = post(Client(), takeover_url(tables.ochko), {"terminal": B})
    assert answer.status_code == 302 and TerminalDraft.objects.get().terminal == A


def test_nothing_to_take_over(staff, tables):
    answer = post(client_of(staff.dealer), takeover_url(tables.ochko), {"terminal": B})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_draft"


def left_behind(staff, tables):
    post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:6]))
    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    return TerminalDraft.objects.get(table=tables.ochko)


def void_url(draft):
    return reverse("dealing:terminal_draft_void", kwargs={"name": draft.table.name, "pk": draft.pk})


def test_a_new_shoe_leaves_the_round_behind_for_the_pit_boss(staff, tables):
    draft = left_behind(staff, tables)
    assert draft.left_behind_why == "new_shoe" and draft.events == EVENTS[:6]
    c = client_of(staff.dealer)
    u = urls(tables.ochko)
    # The terminal that followed it is told so; the round is not stored on the new shoe.
    answer = post(c, u["next"], body(EVENTS[:7]))
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "draft_left_behind"
    assert post(c, u["save"], body(EVENTS + PAYMENTS)).status_code == 409
    assert not Round.objects.exists()
    # The page: no round in progress, the one left behind listed; a new round begins.
    page = c.get(u["page"])
    assert config_of(page)["draft"] is None and "Rounds left behind" in page.content.decode()
    assert 'class="term-void"' not in page.content.decode()  # a dealer does not void
    assert post(c, u["next"], body(EVENTS[:2], round_id=str(uuid.uuid4()))).status_code == 200
    assert TerminalDraft.objects.filter(table=tables.ochko).count() == 2


def test_a_pit_boss_voids_a_round_left_behind_with_a_reason(staff, tables):
    draft = left_behind(staff, tables)
    boss = client_of(staff.pitboss)
    assert 'class="term-void"' in boss.get(urls(tables.ochko)["page"]).content.decode()
    boss.post(void_url(draft), {"reason": "  "})
    draft.refresh_from_db()
    assert draft.voided_at is None  # no reason, nothing voided
    response = boss.post(void_url(draft), {"reason": "Shoe changed mid-round; cards returned"}, follow=True)
    assert response.status_code == 200
    draft.refresh_from_db()
    assert draft.voided_by == staff.pitboss and draft.void_reason == "Shoe changed mid-round; cards returned"
    assert draft.voided_at is not None and draft.events == EVENTS[:6]  # kept, with who and why
    assert "Rounds left behind" not in boss.get(urls(tables.ochko)["page"]).content.decode()
    assert boss.post(void_url(draft), {"reason": "again"}).status_code == 302  # refused, said on the page
    draft.refresh_from_db()
    assert draft.void_reason == "Shoe changed mid-round; cards returned"


@pytest.mark.parametrize(
    "role, status", [("dealer", 403), ("inspector", 403), ("pitboss_c", 403), ("auditor", 403), ("trainee", 403)]
)
def test_only_a_pit_boss_of_the_pit_voids(staff, tables, role, status):
    draft = left_behind(staff, tables)
    assert client_of(getattr(staff, role)).post(void_url(draft), {"reason": "r"}).status_code == status
    draft.refresh_from_db()
    assert draft.voided_at is None


def test_a_round_still_held_is_not_voided(staff, tables):
    post(client_of(staff.dealer), urls(tables.ochko)["next"], body(EVENTS[:3]))
    draft = TerminalDraft.objects.get()
    client_of(staff.pitboss).post(void_url(draft), {"reason": "r"})
    draft.refresh_from_db()
    assert draft.voided_at is None and draft.is_held
