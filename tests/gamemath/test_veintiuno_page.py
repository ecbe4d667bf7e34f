"""The veintiuno game-math page: open to every role, every figure the engine's."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from casino.roles import ROLES
from dealing.engine.veintiuno import math as veintiuno

pytestmark = pytest.mark.django_db

PAGE = reverse("gamemath:veintiuno")


@pytest.mark.parametrize("role", [*ROLES, "superuser"])
def test_every_role_reads_the_page(client_for, role):
    assert client_for(role).get(PAGE).status_code == 200


def test_anonymous_is_sent_to_login(client):
    response = client.get(PAGE)
    assert response.status_code == 302 and response["Location"] == f"{reverse('login')}?next={PAGE}"


def test_the_figures_on_the_page_are_the_engines(client_for):
    html = client_for("trainee").get(PAGE).content.decode()
    edge = veintiuno.edge()
    shown = re.search(r'id="edge-house">([^<]+)<', html).group(1)
    assert shown == f"{(Decimal(edge['house_edge']) * 100).quantize(Decimal('0.001'))} %"
    monona = re.search(r'<tr data-hand="monona">.*?title="([^"]+)"', html, re.S).group(1)
    assert monona == veintiuno.specials_document()["chances"]["monona"]
    assert re.search(r'<tr data-hand="monona">.*?<td class="num">130</td>', html, re.S)  # one in 130
    # The documented threshold's row is the engine's edge, and it is marked.
    row = re.search(r'<tr data-threshold="12" class="on">.*?data-house-edge="([^"]+)"', html, re.S).group(1)
    assert row == edge["house_edge"]


def test_a_richer_suited_twelve_changes_the_edge_and_a_bad_one_is_shown_on_its_field(client_for):
    client = client_for("dealer")
    richer = client.get(PAGE + "?suited_twelve_pays=5").content.decode()
    expected = veintiuno.edge({"suited_twelve_pays": 5})["house_edge"]
    assert f'data-house-edge="{expected}"' in richer
    bad = client.get(PAGE + "?suited_twelve_pays=99")
    assert bad.status_code == 200
    assert "less than or equal to 10" in bad.content.decode()


API_EDGE = reverse("api:math-veintiuno-edge")
API_SPECIALS = reverse("api:math-veintiuno-specials")


@pytest.mark.parametrize("role", [*ROLES, "superuser"])
def test_every_role_reads_the_api(client_for, role):
    client = client_for(role)
    assert client.get(API_SPECIALS).json()["chances"]["natural"] == veintiuno.specials_document()["chances"]["natural"]


def test_the_api_answers_the_engines_edge_and_refuses_a_bad_rule_naming_it(client_for):
    client = client_for("auditor")
    answer = client.get(API_EDGE, {"suited_twelve_pays": 3}).json()
    assert answer["house_edge"] == veintiuno.edge({"suited_twelve_pays": 3})["house_edge"]
    assert answer["player"]["threshold"] == veintiuno.THRESHOLD and answer["bank"]["stands_on"] == veintiuno.BANK_STANDS
    bad = client.get(API_EDGE, {"suited_twelve_pays": 11})
    assert bad.status_code == 400 and "suited_twelve_pays" in bad.json()["extra"]["fields"]


def test_anonymous_gets_401_from_the_api(client):
    assert client.get(API_SPECIALS).status_code == 401
