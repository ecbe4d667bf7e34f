"""`manage.py demo_floor`: the demo pits, tables and users; twice changes nothing; never in production."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.forms.models import model_to_dict

from casino.models import Pit, Staff, Table
from casino.roles import ROLES, has_role

pytestmark = pytest.mark.django_db

USERS = {
    "dealer1": "dealer",
    "inspector1": "inspector",
    "pitboss1": "pit_boss",
    "pitboss2": "pit_boss",
    "auditor1": "auditor",
    "trainee1": "trainee",
}


def snapshot() -> dict:
    """Every row the command touches, with the values it sets."""
    User = get_user_model()
    return {
        "pits": [model_to_dict(p) for p in Pit.objects.order_by("pk")],
        "tables": [model_to_dict(t) for t in Table.objects.order_by("pk")],
        "users": [
            (
                u.pk,
                u.username,
                u.password,
                u.is_superuser,
                u.last_login,
                sorted(u.groups.values_list("name", flat=True)),
            )
            for u in User.objects.order_by("pk")
        ],
        "staff": [
            (s.pk, s.user_id, s.badge, sorted(s.pits.values_list("pk", flat=True)))
            for s in Staff.objects.order_by("pk")
        ],
    }


def test_demo_floor_loads_pits_tables_and_one_user_per_role(settings):
    settings.DEBUG = True
    call_command("demo_floor", stdout=open("/dev/null", "w"))

    assert list(Pit.objects.values_list("name", flat=True)) == ["Pit A", "Pit B"]
    tables = {t.name: t for t in Table.objects.all()}
    assert set(tables) == {"R-1", "R-2", "R-3", "Escribas", "Sacerdotes", "Faraón", "Online-1", "Casa-21"}
    limits = {name: (t.variant, t.min_bet, t.max_bet) for name, t in tables.items()}
    assert limits["R-1"] == ("ochko", Decimal("100"), Decimal("5000"))
    assert limits["R-2"] == ("ochko", Decimal("500"), Decimal("25000"))
    assert limits["R-3"] == ("ochko", Decimal("1000"), Decimal("50000"))
    assert limits["Escribas"] == ("blackjack", Decimal("100"), Decimal("5000"))
    assert tables["R-3"].boxes == 6
    assert tables["Escribas"].rules == {"preset": "salon"}
    assert tables["Escribas"].chips == ["100", "500", "1000", "5000"]
    # The salon's three tiers (rules/blackjack.md): five boxes each, their own chips.
    for name, low, high, chips in [
        ("Sacerdotes", "1000", "50000", ["1000", "5000", "10000", "50000"]),
        ("Faraón", "10000", "500000", ["10000", "50000", "100000", "500000"]),
    ]:
        assert limits[name] == ("blackjack", Decimal(low), Decimal(high))
        assert (tables[name].boxes, tables[name].chips, tables[name].rules) == (5, chips, {"preset": "salon"})
    assert tables["Online-1"].rules == {"preset": "online"} and tables["Online-1"].boxes == 1
    assert tables["Casa-21"].variant == "veintiuno"

    User = get_user_model()
    both = set(Pit.objects.all())
    for username, role in USERS.items():
        user = User.objects.get(username=username)
        assert user.check_password("demo")
        assert has_role(user, role) and not has_role(user, *(set(ROLES) - {role}))
        assert set(user.staff.pits.all()) == both
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff and admin.check_password("demo")
    assert set(admin.staff.pits.all()) == both


def test_demo_floor_twice_changes_nothing(settings):
    settings.DEBUG = True
    call_command("demo_floor", stdout=open("/dev/null", "w"))
    before = snapshot()
    call_command("demo_floor", stdout=open("/dev/null", "w"))
    assert snapshot() == before


def test_demo_floor_stores_tables_whose_game_the_engine_does_not_read_yet(settings, without_engine_module):
    settings.DEBUG = True
    without_engine_module("blackjack", "veintiuno")
    call_command("demo_floor", stdout=open("/dev/null", "w"))
    assert Table.objects.get(name="Online-1").rules == {"preset": "online"}
    assert Table.objects.count() == 8


def test_demo_floor_refuses_with_debug_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="refuses to run with DEBUG off"):
        call_command("demo_floor")
    assert not get_user_model().objects.exists()
    assert not Pit.objects.exists()


def test_bench_exists_and_succeeds(capsys):
    # The engine part only, and docs/benchmarks.md left alone: the database parts (real workers,
    # a throwaway PostgreSQL database) are for `make bench`, not for the test suite.
    call_command("bench", "--skip-db", "--no-write", "--rounds", "100")
    assert "engine ochko:" in capsys.readouterr().out


def test_demo_floor_adds_the_salon_tiers_and_leaves_existing_tables_as_they_are(settings):
    """A floor loaded before the salon tiers existed: the new tables come, the old ones keep their data."""
    settings.DEBUG = True
    pit = Pit.objects.create(name="Pit B", description="as it was")
    escribas = Table.objects.create(
        name="Escribas",
        pit=pit,
        variant="blackjack",
        min_bet=Decimal("200"),
        max_bet=Decimal("4000"),
        boxes=5,
        chips=["200", "1000"],
        rules={"preset": "salon"},
    )
    call_command("demo_floor", stdout=open("/dev/null", "w"))
    escribas.refresh_from_db()
    assert (escribas.min_bet, escribas.max_bet, escribas.chips) == (Decimal("200"), Decimal("4000"), ["200", "1000"])
    assert Pit.objects.get(name="Pit B").description == "as it was"
    assert set(Table.objects.filter(pit=pit).values_list("name", flat=True)) >= {
        "Escribas",
        "Sacerdotes",
        "Faraón",
        "Online-1",
    }
