"""Shoes: loading (the shuffle), burns, dealer changes, the end; the shoe/1 document the audit reads."""

import random
from decimal import Decimal

import pytest

from casino.errors import ServiceError
from dealing import engine, selectors, services
from dealing.choices import ShoeEventKind
from dealing.engine.ochko import simulator as ochko_sim
from dealing.models import Shoe, ShoeEvent

pytestmark = pytest.mark.django_db


def test_a_new_shoe_records_its_shuffle_and_ends_the_open_one(staff, tables):
    first = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    assert (first.number, first.decks, first.is_open) == (1, 8, True)
    assert list(first.events.values_list("position", "kind")) == [(1, ShoeEventKind.SHUFFLE)]
    second = services.shoe_start(table=tables.ochko, shuffled_by=staff.pitboss)
    first.refresh_from_db()
    assert second.number == 2 and not first.is_open and second.is_open
    assert services.shoe_for_round(table=tables.ochko, reference=None) == second


@pytest.mark.parametrize("table, decks", [("ochko", 8), ("salon", 6), ("online", 8), ("veintiuno", 1)])
def test_packs_come_from_the_tables_house_rules(staff, tables, table, decks):
    assert services.shoe_start(table=getattr(tables, table), shuffled_by=staff.dealer).decks == decks


def test_packs_may_be_given_within_reason(staff, tables):
    assert services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer, decks=6).decks == 6
    with pytest.raises(ServiceError) as err:
        services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer, decks=0)
    assert err.value.extra["code"] == "bad_decks"


@pytest.mark.parametrize(
    "who, allowed",
    [
        ("dealer", True),
        ("pitboss", True),
        ("admin", True),
        ("inspector", False),
        ("auditor", False),
        ("trainee", False),
        ("dealer_c", False),
    ],
)
def test_who_loads_a_shoe(staff, tables, who, allowed):
    if allowed:
        services.shoe_start(table=tables.ochko, shuffled_by=getattr(staff, who))
    else:
        with pytest.raises(ServiceError) as err:
            services.shoe_start(table=tables.ochko, shuffled_by=getattr(staff, who))
        assert err.value.status == 403
        assert not Shoe.objects.exists()


def test_a_closed_table_gets_no_shoe(staff, tables):
    tables.ochko.is_active = False
    tables.ochko.save()
    with pytest.raises(ServiceError) as err:
        services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    assert err.value.extra["code"] == "table_closed"


def test_burns_are_cards_of_the_pack_with_a_reason_and_a_fee_when_paid(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    burn = services.shoe_burn(shoe=shoe, card="10h", reason="load", recorded_by=staff.dealer)
    assert (burn.card, burn.position, burn.fee) == ("TH", 2, None)
    paid = services.shoe_burn(shoe=shoe, card="AS", reason="paid", fee="50", recorded_by=staff.inspector)
    assert paid.fee == Decimal(50) and paid.position == 3
    for card, reason, fee, code in [
        ("1X", "load", None, "bad_card"),
        ("2H", "load", None, "card_not_in_pack"),  # ochko packs start at the six
        ("AS", "because", None, "bad_reason"),
        ("AS", "paid", None, "fee_required"),
        ("AS", "paid", "0", "bad_fee"),
        ("AS", "paid", "1.005", "bad_fee"),
        ("AS", "load", 50, "fee_not_paid"),
    ]:
        with pytest.raises(ServiceError) as err:
            services.shoe_burn(shoe=shoe, card=card, reason=reason, fee=fee, recorded_by=staff.dealer)
        assert err.value.extra["code"] == code
    assert shoe.events.count() == 3


def test_a_blackjack_shoe_burns_any_card_of_its_52(staff, tables):
    shoe = services.shoe_start(table=tables.salon, shuffled_by=staff.dealer)
    assert services.shoe_burn(shoe=shoe, card="2H", reason="other", recorded_by=staff.dealer).card == "2H"


def test_an_ended_shoe_takes_nothing_more(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    services.shoe_end(shoe=shoe, ended_by=staff.dealer)
    for write in (
        lambda: services.shoe_burn(shoe=shoe, card="AS", reason="load", recorded_by=staff.dealer),
        lambda: services.shoe_dealer_change(shoe=shoe, dealer=staff.dealer2, recorded_by=staff.dealer),
        lambda: services.shoe_end(shoe=shoe, ended_by=staff.dealer),
    ):
        with pytest.raises(ServiceError) as err:
            write()
        assert err.value.status == 409 and err.value.extra["code"] == "shoe_ended"


def test_dealer_changes_name_a_dealer_of_the_pit(staff, tables):
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    change = services.shoe_dealer_change(shoe=shoe, dealer=staff.dealer2, recorded_by=staff.inspector)
    assert (change.kind, change.dealer, change.position) == (ShoeEventKind.DEALER_CHANGE, staff.dealer2, 2)
    for dealer in (staff.dealer_c, staff.inspector):
        with pytest.raises(ServiceError) as err:
            services.shoe_dealer_change(shoe=shoe, dealer=dealer, recorded_by=staff.pitboss)
        assert err.value.extra["code"] == "unknown_dealer"
    for who in (staff.auditor, staff.trainee, staff.inspector_c):
        with pytest.raises(ServiceError) as err:
            services.shoe_burn(shoe=shoe, card="AS", reason="load", recorded_by=who)
        assert err.value.status == 403
    assert shoe.events.count() == 2


def _play_a_shoe(staff, tables, *, load_burns=6, rounds=5, seed=1):
    """A shoe at R-1 as a dealer would log it: the engine's simulator deals from the shoe's cards."""
    rng = random.Random(seed)
    cards = ochko_sim.new_shoe(rng)
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    for _ in range(load_burns):
        services.shoe_burn(shoe=shoe, card=cards.pop(), reason="load", recorded_by=staff.dealer)
    for k in range(rounds):
        doc = ochko_sim.simulate_round(rng, number=k, shoe=cards, dealer="dealer1", table_name="R-1", incidents=0).doc
        services.round_log(document=doc, logged_by=staff.dealer)
    return shoe, cards


def test_the_shoe_document_follows_the_shoe_in_order_and_the_engine_judges_it(staff, tables):
    shoe, cards = _play_a_shoe(staff, tables)
    services.shoe_burn(shoe=shoe, card=cards.pop(), reason="paid", fee=50, recorded_by=staff.dealer)
    services.shoe_dealer_change(shoe=shoe, dealer=staff.dealer2, recorded_by=staff.pitboss)
    services.shoe_burn(shoe=shoe, card=cards.pop(), reason="dealer_change", recorded_by=staff.dealer2)
    doc = selectors.shoe_document(shoe=shoe)
    assert doc["format"] == "shoe/1" and doc["variant"] == "ochko"
    assert [item["e"] for item in doc["items"]] == (
        ["shuffle"] + ["burn"] * 6 + ["round"] * 5 + ["burn", "dealer_change", "burn"]
    )
    assert doc["items"][-3]["fee"] == 50 and doc["items"][-2]["dealer"] == "dealer2"
    assert engine.check_shoe(doc) == []
    assert selectors.shoe_cards_left(shoe=shoe) == 288 - 8 - sum(
        len(engine.replay(item["round"]).cards) for item in doc["items"] if item["e"] == "round"
    )


def test_missing_load_burns_are_the_engines_finding(staff, tables):
    shoe, _ = _play_a_shoe(staff, tables, load_burns=4, rounds=2)
    assert {f.code for f in engine.check_shoe(selectors.shoe_document(shoe=shoe))} == {"BURN_COUNT"}


def test_shoe_items_put_events_and_rounds_in_order(staff, tables):
    shoe, _ = _play_a_shoe(staff, tables, load_burns=1, rounds=2)
    items = selectors.shoe_items(shoe=shoe)
    assert [item.position for item in items] == [1, 2, 3, 4]
    assert [type(item).__name__ for item in items] == ["ShoeEvent", "ShoeEvent", "Round", "Round"]
    assert ShoeEvent.objects.filter(shoe=shoe).count() == 2


def test_the_tables_list_counts_the_open_shoes_rounds_without_counting_them(client, staff, tables, logged):
    """The tables list reads a shoe's rounds from its last round's number (one index read), so a
    shoe that a dealer never changes does not make the list grow with it; the figure is still the
    rounds dealt from it."""
    shoe = services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    rounds = [logged(tables.ochko, staff.dealer, seed=seed) for seed in range(3)]
    assert {r.shoe_id for r in rounds} == {shoe.pk}
    client.force_login(staff.pitboss)
    page = client.get("/tables/").content.decode()
    assert f"{tables.ochko.name}/{shoe.number} · 3 rounds" in page
    assert selectors.shoe_round_count(shoe=shoe) == selectors.shoe_rounds_count(shoe=shoe) == 3
