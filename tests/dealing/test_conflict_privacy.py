"""A 409 reveals nothing of another pit: a round id taken by another pit's round is refused without
naming that round (probing showed its database id in the answer)."""

import pytest

from dealing.models import Round
from tests.dealing.conftest import post_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"


@pytest.fixture
def pit_a_round(api, staff, tables, deal):
    doc = deal(tables.ochko, seed=7)  # R-1, Pit A, dealt by dealer1
    response = post_json(api(staff.dealer), ROUNDS, doc)
    assert response.status_code == 201
    return doc, response.json()["id"]


def test_an_id_taken_in_another_pit_is_a_409_that_names_no_round(api, staff, tables, deal, pit_a_round):
    taken, _pk = pit_a_round
    doc = deal(tables.elsewhere, seed=8, dealer="dealer-c")  # R-X, Pit C
    doc["id"] = taken["id"]
    response = post_json(api(staff.dealer_c), ROUNDS, doc)
    assert response.status_code == 409
    body = response.json()
    assert body == {
        "message": f"A different round with the id {taken['id']} is already stored.",
        "extra": {"code": "id_conflict", "path": None, "event": None, "round": None},
    }
    assert Round.objects.count() == 1


def test_who_may_see_the_round_is_told_which_it_is(api, staff, tables, deal, pit_a_round):
    taken, pk = pit_a_round
    # Its dealer and Pit A's pit boss see the round; another dealer of the pit sees only his own.
    for user, dealer, shown in (
        (staff.dealer, "dealer1", pk),
        (staff.pitboss, "dealer2", pk),
        (staff.dealer2, "dealer2", None),
    ):
        changed = deal(tables.ochko, seed=9, dealer=dealer)
        changed["id"] = taken["id"]
        response = post_json(api(user), ROUNDS, changed)
        assert response.status_code == 409, response.json()
        assert response.json()["extra"]["round"] == shown, user
