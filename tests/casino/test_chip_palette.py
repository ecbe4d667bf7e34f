"""One chip palette (issue #31 item 7): a denomination has one colour on every page, whatever other
chips its table has, from one definition (casino/chips.py names the colour of each denomination,
casino/static/casino/chips.css paints each colour; no other stylesheet colours a chip)."""

import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from books.forms import CountForm
from casino import chips
from casino.roles import PIT_BOSS
from drills.templatetags.drill_tags import chip_stack
from tests.factories import PitFactory, StaffFactory, TableFactory, UserFactory

ROOT = Path(settings.BASE_DIR)
PALETTE = ROOT / "casino/static/casino/chips.css"


def test_each_colour_of_the_palette_is_painted_once_and_nowhere_else():
    painted = re.findall(r"^\.chip-c-([a-z-]+) \{", PALETTE.read_text(), re.M)
    assert sorted(painted) == sorted(set(chips.COLOURS.values()) | {chips.OTHER})
    for css in ROOT.glob("*/static/**/*.css"):
        if css == PALETTE:
            continue
        text = css.read_text()
        # A chip's colour set anywhere else (a "--chip:" value, a colour by a chip's place in its tray).
        assert not re.search(r"--chip(-ink)?\s*:", text), css
        assert not re.search(r"\.chip-\d", text), css


@pytest.mark.django_db
def test_a_chip_of_100_is_black_wherever_it_lies_in_its_tables_tray():
    pit = PitFactory(name="Pit A")
    small = TableFactory(name="R-1", pit=pit, chips=["100", "500"])  # 100 the first chip
    big = TableFactory(name="R-5", pit=pit, chips=["25", "50", "100"], min_bet=Decimal(25))  # 100 the third
    boss = UserFactory(username="boss", role=PIT_BOSS)
    StaffFactory(user=boss, pits=[pit])
    c = Client()
    c.force_login(boss)
    floor = c.get(reverse("casino:floor")).content.decode()
    assert floor.count('class="chip chip-c-black" title="100"') == 2
    for table in (small, big):
        form = c.get(reverse("dealing:round_new", kwargs={"name": table.name})).content.decode()
        assert '<span class="chip chip-c-black">100</span>' in form
        count = render_to_string("books/_count_fields.html", {"form": CountForm(table=table)})
        assert '<span class="chip chip-c-black" aria-hidden="true">100</span>' in count
    # The drills' stacks: 100 black, 500 purple, with or without smaller chips beside them.
    for tray in (["100", "500"], ["25", "100", "500"]):
        assert {c["value"]: c["colour"] for c in chip_stack("600", tray)["chips"]} == {
            Decimal(100): "chip-c-black",
            Decimal(500): "chip-c-purple",
        }
