"""A stored round is replayed by the engine once for its round page and once for its audit replay
page, whatever the game: the table layout of the game draws from that one outcome."""

import pytest
from django.test import Client
from django.urls import reverse

from dealing import engine

pytestmark = pytest.mark.django_db

ROUNDS = [
    "ochko/23-error-payment-order",
    "ochko/30-exposed-card-approved",
    "blackjack/09-double-after-split",
    "veintiuno/03-natural-pays-double-and-takes-bank",
]


@pytest.fixture
def replays(monkeypatch):
    """The documents `engine.replay` was asked to replay, in order."""
    asked: list[dict] = []
    replay = engine.replay

    def counted(doc, **options):
        asked.append(doc)
        return replay(doc, **options)

    monkeypatch.setattr(engine, "replay", counted)
    return asked


@pytest.mark.parametrize("name", ROUNDS)
@pytest.mark.parametrize("page", ["dealing:round_detail", "audit:round_replay"])
def test_a_page_of_a_stored_round_replays_it_once(eager, people, golden_round, replays, name, page):
    record = golden_round(name)
    replays.clear()  # logging and auditing it replayed it too
    client = Client()
    client.force_login(people.auditor)
    response = client.get(reverse(page, args=[record.pk]))
    assert response.status_code == 200
    assert len(replays) == 1 and replays[0]["id"] == record.document["id"]
    assert response.context["outcome" if page == "dealing:round_detail" else "r"] is not None
