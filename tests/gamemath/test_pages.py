"""The Game math pages: open to every role, every figure the engine's, bad questions on their field."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from casino import navigation
from casino.roles import ROLES
from dealing.engine.ochko import math as ochko

pytestmark = pytest.mark.django_db

OCHKO = reverse("gamemath:ochko")
ASK = reverse("gamemath:ochko_ask")


def _cell(html: str, bet: int, hand: str, up: str) -> dict:
    """One cell of a chart on the page: its action and its exact margin (data attributes)."""
    table = re.search(rf'<table class="gm-grid" data-bet="{bet}">(.*?)</table>', html, re.S).group(1)
    row = re.search(rf'<tr data-hand="{re.escape(hand)}">(.*?)</tr>', table, re.S).group(1)
    cell = re.search(rf'<td class="a-\w+" data-up="{up}" data-action="(\w+)" data-margin="([-0-9.]+)"', row)
    return {"action": cell.group(1), "margin": cell.group(2)}


def _engine_cell(bet: int, kind: str, hand: str, up: str, rules=None) -> dict:
    document = ochko.strategy(bet, rules)
    row = next(r for r in document["rows"] if r["kind"] == kind and r["hand"] == hand)
    return row["cells"][up]


@pytest.mark.parametrize("role", [*ROLES, "superuser"])
def test_every_role_reads_the_pages_and_finds_them_in_the_bar(client_for, role):
    client = client_for(role)
    for url in (OCHKO, ASK):
        assert client.get(url).status_code == 200, (role, url)
    # The bar offers the section to every role (trainees too: the pages show no floor data).
    page = client.get(OCHKO).content.decode()
    assert f'href="{OCHKO}"' in page


def test_anonymous_is_sent_to_login(client):
    for url in (OCHKO, ASK):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"


def test_the_navigation_entry_is_for_every_role(make_user):
    for role in ROLES:
        assert any(i["url_name"] == "gamemath:ochko" for i in navigation.items_for(make_user(role)))
    assert not any(i["url_name"] == "gamemath:ochko" for i in navigation.items_for(make_user(None)))


@pytest.mark.parametrize(
    "query, rules",
    [
        ("", None),
        ("?dark_win_bet=leave&dark_double_bust_bet=take", {"dark_win_bet": "leave", "dark_double_bust_bet": "take"}),
    ],
)
def test_the_charts_on_the_page_are_the_engines(client_for, query, rules):
    html = client_for("trainee").get(OCHKO + query).content.decode()
    for bet, kind, hand, up in [
        (1, "total", "16", "7"),
        (1, "total", "14", "9"),
        (10, "total", "17", "A"),
        (10, "one_card", "A", "T"),
        (1, "total", "18", "6"),
    ]:
        shown = _cell(html, bet, f"{kind}:{'10' if hand == 'T' else hand}", "10" if up == "T" else up)
        expected = _engine_cell(bet, kind, hand, up, rules)
        assert shown == {"action": expected["action"], "margin": expected["margin"]}, (bet, hand, up)
    # The letter drawn in the cell is the action's, and a legend names each colour.
    assert re.search(r'data-action="dark" data-margin="[-0-9.]+"\s+title="Dark card', html)
    assert '<span class="gm-swatch a-dark">D</span>' in html


def test_the_bet_decision_and_the_house_edge_are_the_engines(client_for):
    html = client_for("dealer").get(OCHKO).content.decode()
    ace = ochko.ev(["AS"])
    row = re.search(r'<tr data-card="A">(.*?)</tr>', html, re.S).group(1)
    for name, value in ace["options"].items():
        assert re.search(rf'data-option="{re.escape(name)}" title="{value}"', row), name
    assert re.search(rf'class="num best" data-option="{ace["best"]}"', row)
    table = re.search(r'<table class="gm-table" id="rule-effects">(.*?)</table>', html, re.S).group(1)
    for document in ochko.edge_table():
        rules = document["rules"]
        line = re.search(
            rf'<tr data-rules="{rules["dark_win_bet"]}/{rules["dark_double_bust_bet"]}"[^>]*>(.*?)</tr>', table, re.S
        ).group(1)
        assert f'data-house-edge="{document["house_edge"]}"' in line
        shown = re.search(r'data-house-edge="[^"]+" title="[^"]+">([0-9.]+) %<', line).group(1)
        assert Decimal(shown) == (Decimal(document["house_edge"]) * 100).quantize(Decimal("0.0001"))
    dark = ochko.strategy(1)["dark_value"]["value"]
    assert f"{(Decimal(dark) * 100).quantize(Decimal('0.001'))} %" in html
    # The bar chart's data is a JSON element (not executed) and the drawing a static script: no inline code.
    assert '<script id="gamemath-edge-chart" type="application/json">' in html
    assert "gamemath/edge_chart.js" in html
    assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))[^>]*>", html)


def test_a_question_is_answered_with_the_best_option_marked(client_for):
    client = client_for("trainee")
    html = client.get(ASK, {"cards": "10S 6H", "dealer": "9C", "bet": "10"}).content.decode()
    answer = ochko.ev(["TS", "6H"], dealer="9C", bet=10)
    table = re.search(r'<table class="gm-table" id="answer-options">(.*?)</table>', html, re.S).group(1)
    for _name, value in answer["options"].items():
        assert f"<code>{value}</code>" in table
    assert f'<tr data-option="{answer["best"]}" class="best">' in table
    # The one-card question: fold or a Bet, under a house rule chosen on the form.
    html = client.get(ASK, {"cards": "AS", "dark_win_bet": "take"}).content.decode()
    answer = ochko.ev(["AS"], rules={"dark_win_bet": "take"})
    assert f'<tr data-option="{answer["best"]}" class="best">' in html
    assert all(f"<code>{v}</code>" in html for v in answer["options"].values())


@pytest.mark.parametrize(
    "query, field, words",
    [
        ({"cards": "5S 6H", "dealer": "9C"}, "cards", "not a card of the 36-card ochko pack"),
        ({"cards": "TS 6H", "dealer": "1C"}, "dealer", "not a card of the 36-card ochko pack"),
        ({"cards": "AS AH", "dealer": "9C"}, "cards", "already settled"),
        ({"cards": "TS 6H", "dealer": "TS", "removed": "TS TS TS TS TS TS TS"}, "removed", "the shoe holds only 8"),
        ({"cards": "AS", "bet": "3"}, "bet", "a Bet needs the dealer"),
        ({"cards": "TS 6H", "dealer": "9C", "bet": "11"}, "bet", "The Bet is 1 to 10"),
        ({"cards": "TS 6H"}, "dealer", "name his up card"),
    ],
)
def test_a_bad_question_is_shown_next_to_its_field(client_for, query, field, words):
    html = client_for("pit_boss").get(ASK, query).content.decode()
    error = re.search(rf'<p class="field-error" id="{field}-error">([^<]*)</p>', html)
    assert error is not None, html[html.find("gm-form") :][:2000]
    assert words in error.group(1).replace("&#x27;", "'")
    assert 'id="answer-options"' not in html


def test_a_warm_page_and_api_ask_the_engine_nothing_new(client_for, monkeypatch):
    """Cached per rule set: once rendered, the charts and the edges are not recomputed (issue 19: the
    full solve takes about a second of CPU; a warm answer must take milliseconds)."""
    client = client_for("inspector")
    query = {"dark_win_bet": "take", "dark_double_bust_bet": "take"}
    assert client.get(OCHKO, query).status_code == 200
    assert client.get(reverse("api:math-ochko-strategy"), {"bet": 10, **query}).status_code == 200

    def refuse(*args, **kwargs):
        raise AssertionError("recomputed")

    for name in ("strategy", "edge", "edge_table"):
        monkeypatch.setattr(ochko, name, refuse)
    again = client.get(OCHKO, query)
    assert again.status_code == 200 and 'id="rule-effects"' in again.content.decode()
    assert client.get(reverse("api:math-ochko-strategy"), {"bet": 10, **query}).status_code == 200
    assert client.get(reverse("api:math-ochko-edge"), query).status_code == 200
