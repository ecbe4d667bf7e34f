"""Every dealing page checks the role and the pit on the server: anonymous → the login page, a role
without access → 403, the right role → 200; tables of another pit → 403."""

import pytest
from django.test import Client
from django.urls import reverse

from casino import navigation
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, ROLES
from dealing import services

pytestmark = pytest.mark.django_db

READERS = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
LOGGERS = (DEALER, PIT_BOSS)
REPORTERS = (INSPECTOR, PIT_BOSS)

# (url name, kwargs, roles allowed). `R-1` stands in Pit A.
PAGES = [
    ("dealing:table_list", {}, READERS),
    ("dealing:round_pick_table", {}, LOGGERS),
    ("dealing:round_new", {"name": "R-1"}, LOGGERS),
    ("dealing:shoe", {"name": "R-1"}, READERS),
    ("dealing:table_incidents", {"name": "R-1"}, READERS),
    ("dealing:incident_list", {}, READERS),
    ("dealing:incident_new", {}, REPORTERS),
    ("dealing:pit_queue", {}, (PIT_BOSS,)),
]
PEOPLE = [*ROLES, "superuser", None]  # None: logged in, but holding no role


def client_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def person(staff):
    return {
        DEALER: staff.dealer,
        INSPECTOR: staff.inspector,
        PIT_BOSS: staff.pitboss,
        AUDITOR: staff.auditor,
        "trainee": staff.trainee,
        "superuser": staff.admin,
        None: staff.nobody,
    }


@pytest.mark.parametrize("name, kwargs, allowed", PAGES, ids=[p[0] for p in PAGES])
def test_anonymous_is_sent_to_the_login_page(client, tables, name, kwargs, allowed):
    url = reverse(name, kwargs=kwargs)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name, kwargs, allowed", PAGES, ids=[p[0] for p in PAGES])
@pytest.mark.parametrize("who", PEOPLE, ids=[str(p) for p in PEOPLE])
def test_each_role_gets_its_pages_and_only_those(person, name, kwargs, allowed, who):
    response = client_as(person[who]).get(reverse(name, kwargs=kwargs), follow=False)
    if who == "superuser" or who in allowed:
        assert response.status_code in (200, 302), (who, name)
        if response.status_code == 302:  # "Log a round" goes straight to the one table there is
            assert name == "dealing:round_pick_table"
    else:
        assert response.status_code == 403, (who, name)


@pytest.mark.parametrize("name", ["dealing:round_new", "dealing:shoe", "dealing:table_incidents"])
def test_a_table_of_another_pit_is_refused(staff, tables, name):
    response = client_as(staff.dealer_c).get(reverse(name, kwargs={"name": "R-1"}))
    assert response.status_code == 403
    assert "not in your pits" in response.content.decode()
    assert client_as(staff.dealer).get(reverse(name, kwargs={"name": "NO-SUCH"})).status_code == 404


def test_the_round_page_follows_who_may_see_the_round(staff, tables, logged):
    record = logged(tables.ochko, staff.dealer)
    url = reverse("dealing:round_detail", args=[record.pk])
    assert Client().get(url).status_code == 302
    for user in (staff.dealer, staff.inspector, staff.pitboss, staff.auditor, staff.admin):
        assert client_as(user).get(url).status_code == 200, user
    assert client_as(staff.trainee).get(url).status_code == 403
    assert client_as(staff.dealer2).get(url).status_code == 404  # a dealer sees the rounds he dealt
    assert client_as(staff.pitboss_c).get(url).status_code == 404  # another pit


def test_decisions_are_posts_for_pit_bosses_only(staff, tables):
    incident = services.incident_report(
        table=tables.ochko,
        kind="misdrawn_card",
        card="7H",
        exposed=False,
        resolution="under_shoe",
        dealer=staff.dealer,
        reported_by=staff.inspector,
    )
    url = reverse("dealing:incident_decide", args=[incident.pk])
    assert Client().post(url, {"decision": "approved"}).status_code == 302  # to the login page
    for user in (staff.dealer, staff.inspector, staff.auditor, staff.trainee):
        assert client_as(user).post(url, {"decision": "approved"}).status_code == 403
    assert client_as(staff.pitboss).get(url).status_code == 405
    assert client_as(staff.pitboss_c).post(url, {"decision": "approved"}).status_code == 404  # not his pit
    incident.refresh_from_db()
    assert incident.status == "reported"


def test_the_navigation_offers_each_role_its_dealing_pages(staff):
    expected = {
        staff.dealer: ["Tables", "Log a round", "Incidents"],
        staff.inspector: ["Tables", "Incidents"],
        staff.pitboss: ["Tables", "Log a round", "Incidents", "Pit queue"],
        staff.auditor: ["Tables", "Incidents"],
        staff.trainee: [],
        staff.nobody: [],
        staff.admin: ["Tables", "Log a round", "Incidents", "Pit queue"],
    }
    ours = {"Tables", "Log a round", "Incidents", "Pit queue"}
    for user, labels in expected.items():
        offered = [str(item["label"]) for item in navigation.items_for(user)]
        assert [label for label in offered if label in ours] == labels, user
