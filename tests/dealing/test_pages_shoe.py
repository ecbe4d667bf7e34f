"""The shoe page: the shoe in play, its burns, dealer changes and rounds in order, the cards left,
and its actions (start a shoe, a burn with the paid fee prefilled, a dealer change) through the services."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from dealing import services
from dealing.models import Shoe, ShoeEvent

pytestmark = pytest.mark.django_db


def shoe_url(name="R-1") -> str:
    return reverse("dealing:shoe", kwargs={"name": name})


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def loaded(table, user, burns=6):
    shoe = services.shoe_start(table=table, shuffled_by=user)
    for card in ["6S", "7H", "8D", "9C", "TS", "JH"][:burns]:
        services.shoe_burn(shoe=shoe, card=card, reason="load", recorded_by=user)
    return shoe


def test_a_table_without_a_shoe(staff, tables):
    response = client_as(staff.dealer).get(shoe_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "No shoe has been loaded at this table yet." in html
    assert "Start a new shoe" in html and "Record the burn" not in html


def test_a_dealer_starts_a_shoe_burns_and_changes_dealer(staff, tables):
    dealer = client_as(staff.dealer)
    response = dealer.post(shoe_url(), {"action": "start", "start-decks": "8"})
    assert response.status_code == 302
    shoe = Shoe.objects.get()
    assert (shoe.table, shoe.decks, shoe.shuffled_by, shoe.number) == (tables.ochko, 8, staff.dealer, 1)
    page = dealer.get(shoe_url())
    html = page.content.decode()
    assert 'name="burn-fee" value="50"' in html  # half the table minimum, prefilled
    assert (
        dealer.post(
            shoe_url(), {"action": "burn", "burn-reason": "load", "burn-card": "6s", "burn-fee": "50"}
        ).status_code
        == 302
    )
    assert (
        dealer.post(
            shoe_url(), {"action": "burn", "burn-reason": "paid", "burn-card": "QD", "burn-fee": "50"}
        ).status_code
        == 302
    )
    assert dealer.post(shoe_url(), {"action": "dealer_change", "change-dealer": "dealer2"}).status_code == 302
    events = list(shoe.events.order_by("position").values_list("kind", "card", "reason", "fee", "dealer__username"))
    assert [e[:3] for e in events] == [
        ("shuffle", "", ""),
        ("burn", "6S", "load"),
        ("burn", "QD", "paid"),
        ("dealer_change", "", ""),
    ]
    assert events[1][3] is None and str(events[2][3]) == "50.00" and events[3][4] == "dealer2"
    page = dealer.get(shoe_url())
    assert page.context["burns"] == 2 and page.context["changes"] == 1
    assert page.context["cards_left"] == 288 - 2


@pytest.mark.parametrize(
    "data, message",
    [
        ({"burn-reason": "paid", "burn-card": "QD", "burn-fee": ""}, "half the table minimum (50)"),
        ({"burn-reason": "load", "burn-card": "5H"}, "is not in the ochko pack"),
        ({"burn-reason": "load", "burn-card": "ZZ"}, "ZZ is not a card"),
        ({"burn-reason": "paid", "burn-card": "QD", "burn-fee": "25.125"}, "25.125 has 3 decimals"),
    ],
)
def test_a_bad_burn_is_refused_with_the_reason(staff, tables, data, message):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    response = client_as(staff.dealer).post(shoe_url(), {"action": "burn", **data}, follow=True)
    assert message in response.content.decode()
    assert shoe.events.count() == 1  # the shuffle only


def test_rounds_in_order_with_links_and_the_cards_left(staff, tables, logged):
    shoe = loaded(tables.ochko, staff.dealer)
    first = logged(tables.ochko, staff.dealer, seed=1)
    second = logged(tables.ochko, staff.dealer2, seed=2)
    page = client_as(staff.dealer).get(shoe_url())
    rows = page.context["rows"]
    assert [r["kind"] for r in rows] == ["shuffle"] + ["burn"] * 6 + ["round", "round"]
    html = page.content.decode()
    assert reverse("dealing:round_detail", args=[first.pk]) in html
    assert reverse("dealing:round_detail", args=[second.pk]) not in html  # dealer1 does not see dealer2's round
    assert (
        reverse("dealing:round_detail", args=[second.pk]) in client_as(staff.pitboss).get(shoe_url()).content.decode()
    )
    from dealing import engine

    out = 6 + sum(len(engine.replay(r.document).cards) for r in (first, second))
    assert page.context["cards_left"] == 288 - out == services_cards_left(shoe)
    assert page.context["shoe_findings"] == []


def services_cards_left(shoe):
    from dealing.selectors import shoe_cards_left

    return shoe_cards_left(shoe=shoe)


def test_too_few_burns_after_loading_is_shown_as_a_finding(staff, tables, logged):
    loaded(tables.ochko, staff.dealer, burns=4)
    logged(tables.ochko, staff.dealer)
    page = client_as(staff.pitboss).get(shoe_url())
    assert [f.code for f in page.context["shoe_findings"]] == ["BURN_COUNT"]
    assert "4 card(s) were burned" in page.content.decode()


def test_an_inspector_records_burns_but_does_not_load_a_shoe(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    inspector = client_as(staff.inspector)
    html = inspector.get(shoe_url()).content.decode()
    assert "Record the burn" in html and "Start a new shoe" not in html
    assert inspector.post(shoe_url(), {"action": "start", "start-decks": "8"}).status_code == 403
    inspector.post(shoe_url(), {"action": "burn", "burn-reason": "other", "burn-card": "9H"})
    assert Shoe.objects.count() == 1 and shoe.events.filter(kind="burn").count() == 1


def test_an_auditor_reads_the_shoe_and_changes_nothing(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    auditor = client_as(staff.auditor)
    html = auditor.get(shoe_url()).content.decode()
    assert "Record the burn" not in html and "Start a new shoe" not in html
    for data in (
        {"action": "start", "start-decks": "8"},
        {"action": "burn", "burn-reason": "load", "burn-card": "9H"},
        {"action": "dealer_change", "change-dealer": "dealer2"},
    ):
        assert auditor.post(shoe_url(), data).status_code == 403
    assert ShoeEvent.objects.filter(shoe=shoe).count() == 1


def test_an_ended_shoe_is_still_shown_by_its_number(staff, tables):
    old = loaded(tables.ochko, staff.dealer, burns=0)
    new = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    dealer = client_as(staff.dealer)
    assert dealer.get(shoe_url()).context["shoe"] == new
    page = dealer.get(reverse("dealing:shoe_number", kwargs={"name": "R-1", "number": old.number}))
    assert page.context["shoe"] == old and "ended" in page.content.decode()
    assert "Record the burn" not in page.content.decode()


def _positions(response) -> list[int]:
    return [int(p) for p in re.findall(r'<span class="pos">#(\d+)</span>', response.content.decode())]


def test_the_shoe_page_pages_its_timeline_by_position(staff, tables, logged, monkeypatch):
    from dealing import selectors

    monkeypatch.setattr(selectors, "SHOE_PAGE", 4)
    monkeypatch.setattr(selectors.shoe_items_page, "__kwdefaults__", {"before": None, "after": None, "size": 4})
    shoe = loaded(tables.ochko, staff.dealer, burns=6)
    for k in range(5):
        logged(tables.ochko, staff.dealer, seed=40 + k)
    everything = [item.position for item in selectors.shoe_items(shoe=shoe)]
    assert len(everything) == 12  # the shuffle, 6 burns, 5 rounds
    client = client_as(staff.dealer)
    page = client.get(shoe_url())
    assert _positions(page) == everything[-4:]  # the latest, in order
    seen, html = [], page.content.decode()
    for _ in range(5):
        if 'rel="prev"' not in html:
            break
        before = int(re.search(r'rel="prev" href="\?before=(\d+)"', html).group(1))
        page = client.get(shoe_url() + f"?before={before}")
        html = page.content.decode()
        seen = _positions(page) + seen
    assert seen + everything[-4:] == everything  # every item once, nothing repeated
    later = client.get(shoe_url() + f"?after={everything[3]}")
    assert _positions(later) == everything[4:8]
    assert client.get(shoe_url() + "?before=x").status_code == 404


def test_a_shoe_with_more_rounds_than_the_page_checks_is_not_read_whole(staff, tables, logged, monkeypatch):
    from dealing import selectors

    loaded(tables.ochko, staff.dealer, burns=6)
    for k in range(3):
        logged(tables.ochko, staff.dealer, seed=50 + k)
    monkeypatch.setattr(selectors, "SHOE_CHECK_LIMIT", 2)

    def whole(**kwargs):
        raise AssertionError("the whole shoe was read")

    monkeypatch.setattr(selectors, "shoe_items", whole)
    response = client_as(staff.dealer).get(shoe_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "3 rounds: too many to check here as a whole" in html
    assert len(_positions(response)) == 10  # the shuffle, 6 burns, 3 rounds: one page
