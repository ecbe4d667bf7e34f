"""How often a round is replayed on its way (issue 15, "one round, many walks"): once per round
logged through the API, at most twice on the form's save path (the builder's one question to the
engine, the service), once per audit, once per round page. Counted by wrapping the engine loop's
`replay` (a whole document), `next_events` (a round in progress, asked what comes next) and `walk`
(a round carried on event by event as a builder writes it: one walk, however many questions)."""

from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from dealing import engine
from dealing.engine import loop
from dealing.models import Round
from tests.dealing.conftest import post_json
from tests.dealing.test_pages import round_data as ochko_round
from tests.dealing.test_pages_blackjack import seed_round as blackjack_round
from tests.dealing.test_pages_veintiuno import round_data as veintiuno_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def walks(monkeypatch) -> Counter:
    """Counter of engine walks by ("replay" | "next_events" | "walk", variant), from now on: every
    walk of a round goes through the engine's one event loop (dealing.engine.loop), given the game's
    Replay."""
    counts: Counter = Counter()
    variant_of = {engine.variant(name).Replay: name for name in ("ochko", "blackjack", "veintiuno")}
    for what in ("replay", "next_events", "walk"):
        real = getattr(loop, what)

        def counted(cls, doc, *more, _real=real, _what=what):  # more: the replay's approvers
            counts[(_what, variant_of.get(cls, cls.__module__))] += 1
            return _real(cls, doc, *more)

        monkeypatch.setattr(loop, what, counted)
    return counts


def replays(counts: Counter) -> int:
    return sum(n for (what, _variant), n in counts.items() if what == "replay")


def walks_of(counts: Counter) -> int:
    return sum(counts.values())


@pytest.fixture
def dealer_client(staff):
    client = Client()
    client.force_login(staff.dealer)
    return client


@pytest.mark.parametrize("which", ["ochko", "salon", "veintiuno"])
def test_a_round_logged_through_the_api_is_replayed_once_and_once_more_by_its_audit(
    which, staff, tables, deal, api, walks, eager, django_capture_on_commit_callbacks
):
    table = {"ochko": tables.ochko, "salon": tables.salon, "veintiuno": tables.veintiuno}[which]
    doc = deal(table, seed=7)
    walks.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post_json(api(staff.dealer), "/api/v1/rounds/", doc)
    assert response.status_code == 201, response.content
    assert walks_of(walks) == 1 and replays(walks) == 1  # the service's
    walks.clear()
    for callback in callbacks:
        callback()  # the commit: the round's audit
    assert walks_of(walks) == 1 and Round.objects.get().audit_status != "pending"


def save_path(client, table, data, walks) -> tuple[int, int]:
    """(walks while checking, walks while saving what was checked) of one round on its form."""
    url = reverse("dealing:round_new", kwargs={"name": table.name})
    walks.clear()
    result = client.post(url, {**data, "action": "check"}).context["result"]
    assert result.ok and result.may_save
    checking = walks_of(walks)
    walks.clear()
    response = client.post(url, {**data, "action": "save", "checked": result.token})
    assert response.status_code == 302
    return checking, walks_of(walks)


def test_the_ochko_form_asks_the_engine_once_and_the_save_replays_once_more(dealer_client, tables, walks):
    """round_data has a mnogo (box 4) settled at once: the builder's one replay finds it, the round
    is written again with it in place; the check replays that; the save trusts the check's token."""
    checking, saving = save_path(dealer_client, tables.ochko, ochko_round(), walks)
    assert checking == 2 and saving == 2  # builder + check; builder + service


def test_an_ochko_round_without_an_instant_is_checked_with_one_replay(dealer_client, tables, walks):
    data = ochko_round(
        s4a_player=None,
        s4a_ante=None,
        s4a_bet=None,
        b4_cards=None,
        s4a_bet_result=None,
        s4a_bet_amount=None,
        s4a_ante_result=None,
        s4a_ante_amount=None,
    )
    checking, saving = save_path(dealer_client, tables.ochko, data, walks)
    assert checking == 1 and saving == 2  # the builder's replay is the check's


def test_the_veintiuno_form_replays_once_to_check_and_once_to_save(dealer_client, tables, walks):
    checking, saving = save_path(dealer_client, tables.veintiuno, veintiuno_round(), walks)
    assert checking == 1 and saving == 1  # the save's one replay is the service's


def test_the_blackjack_form_walks_the_round_once_to_check_and_once_more_to_save(dealer_client, tables, walks):
    """The blackjack builder asks the engine, hand by hand, what may come next (whether a hand may
    stand, whether the dealer peeks): the engine follows the log as it is written, one walk, whose
    outcome is the check's. The save builds the document again (one walk) and trusts the check's
    token; the service replays it to store it."""
    checking, saving = save_path(dealer_client, tables.salon, blackjack_round(), walks)
    assert checking == 1 and saving == 2  # the builder's walk is the check's; builder + service
    assert walks[("replay", "blackjack")] == 1  # the service's, on saving


def test_the_round_page_replays_its_round_once(dealer_client, staff, tables, walks):
    checking, saving = save_path(dealer_client, tables.ochko, ochko_round(), walks)
    record = Round.objects.get()
    walks.clear()
    assert dealer_client.get(reverse("dealing:round_detail", args=[record.pk])).status_code == 200
    assert walks_of(walks) == 1
