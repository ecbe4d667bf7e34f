"""The floor: table validation against the rules engine, the floor page, the admin pages."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from casino import services
from casino.forms import TableForm
from casino.models import Table
from casino.roles import AUDITOR, DEALER
from casino.templatetags.casino_tags import money
from dealing import engine
from tests.factories import PitFactory, TableFactory

pytestmark = pytest.mark.django_db


def _engine_message(variant: str, rules) -> str:
    try:
        engine.house_rules(variant, rules)
    except engine.RoundError as exc:
        return exc.message
    raise AssertionError("the engine accepted the rules")


def _table(**fields) -> dict:
    return {
        "name": "R-9",
        "variant": "ochko",
        "min_bet": Decimal("100"),
        "max_bet": Decimal("5000"),
        "boxes": 6,
        "chips": [100, 500, 1000, 5000],
        "rules": {},
    } | fields


# --- house rules and limits ----------------------------------------------------------------


def test_known_rule_override_is_stored_as_given():
    table = services.table_create(pit=PitFactory(), **_table(rules={"dark_win_bet": "take"}))
    table.refresh_from_db()
    assert table.rules == {"dark_win_bet": "take"}


def test_unknown_rule_is_rejected_with_a_clear_message_and_nothing_is_stored():
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(rules={"colour": "red"}))
    # The engine's own sentence: it names the rule, the game and the rules that exist.
    assert caught.value.message_dict["rules"] == [_engine_message("ochko", {"colour": "red"})]
    message = caught.value.message_dict["rules"][0]
    assert '"colour"' in message and "ochko" in message and "dark_win_bet" in message
    assert not Table.objects.exists()


def test_bad_rule_value_and_wrong_type_are_rejected():
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(rules={"dark_win_bet": "double"}))
    assert caught.value.message_dict["rules"] == [_engine_message("ochko", {"dark_win_bet": "double"})]
    assert "dark_win_bet" in caught.value.message_dict["rules"][0]
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(rules=["dark_win_bet"]))
    assert caught.value.message_dict["rules"] == [_engine_message("ochko", ["dark_win_bet"])]
    assert not Table.objects.exists()


def test_ochko_has_at_most_six_boxes():
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(boxes=7))
    assert caught.value.message_dict["boxes"] == ["A 21 Ochko table has at most 6 boxes."]


def test_blackjack_presets_and_their_boxes():
    pit = PitFactory()
    table = services.table_create(
        pit=pit, **_table(name="Escribas", variant="blackjack", boxes=5, rules={"preset": "salon"})
    )
    assert table.rules == {"preset": "salon"}
    with pytest.raises(ValidationError) as caught:
        services.table_create(
            pit=pit, **_table(name="Online-2", variant="blackjack", boxes=3, rules={"preset": "online"})
        )
    assert caught.value.message_dict["boxes"] == ["The house rules of this table allow 1 box."]
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=pit, **_table(name="B-9", variant="blackjack", rules={"preset": "casino"}))
    assert caught.value.message_dict["rules"] == [_engine_message("blackjack", {"preset": "casino"})]


def test_a_game_the_engine_does_not_read_cannot_be_validated(without_engine_module):
    without_engine_module("veintiuno")
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(name="Casa-22", variant="veintiuno"))
    assert [e.code for e in caught.value.error_dict["rules"]] == ["variant_unavailable"]
    assert "no veintiuno module" in caught.value.message_dict["rules"][0]


def test_limits_must_be_ordered_and_positive():
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(min_bet=Decimal("500"), max_bet=Decimal("100")))
    assert caught.value.message_dict["max_bet"] == ["The maximum Ante must not be below the minimum Ante."]
    with pytest.raises(ValidationError) as caught:
        services.table_create(pit=PitFactory(), **_table(min_bet=Decimal("0")))
    assert "min_bet" in caught.value.message_dict


def test_database_refuses_inverted_limits_even_past_validation():
    with pytest.raises(IntegrityError), transaction.atomic():
        TableFactory(min_bet=Decimal("500"), max_bet=Decimal("100"))


def test_chips_are_stored_as_exact_decimal_strings():
    table = services.table_create(pit=PitFactory(), **_table(chips=[1, "2.50", 5]))
    table.refresh_from_db()
    assert table.chips == ["1", "2.50", "5"]
    assert table.chip_amounts == [Decimal("1"), Decimal("2.50"), Decimal("5")]
    for bad in ([500, 100], [100, -5], ["ten"], "100"):
        with pytest.raises(ValidationError) as caught:
            services.table_create(pit=PitFactory(), **_table(name="X", chips=bad))
        assert "chips" in caught.value.message_dict


def test_table_form_shows_the_engine_message_next_to_the_rules_field():
    pit = PitFactory()
    form = TableForm(
        data={
            "name": "R-7",
            "pit": pit.pk,
            "variant": "ochko",
            "min_bet": "100",
            "max_bet": "5000",
            "boxes": "6",
            "chips": "[100, 500]",
            "rules": '{"colour": "red"}',
            "is_active": "on",
        }
    )
    assert not form.is_valid()
    assert form.errors["rules"] == [_engine_message("ochko", {"colour": "red"})]
    assert "dark_win_bet" in form.fields["rules"].help_text


# --- the floor page -------------------------------------------------------------------------


def test_floor_lists_the_pits_and_tables_of_the_user(client_for, floor):
    TableFactory(
        name="R-3", pit=floor.pit_a, min_bet=Decimal("1000"), max_bet=Decimal("50000"), rules={"dark_win_bet": "take"}
    )
    response = client_for(DEALER, pits=[floor.pit_a]).get(reverse("casino:floor"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Pit A" in html and "R-1" in html and "R-3" in html
    assert "Pit B" not in html and "R-2" not in html  # not this dealer's pit
    assert "1,000" in html and "50,000" in html  # limits, grouped
    assert "21 Ochko" in html
    assert "dark win bet" in html and "take" in html  # a rule in force, the override shown


def test_auditor_sees_every_pit(client_for, floor):
    html = client_for(AUDITOR, pits=[]).get(reverse("casino:floor")).content.decode()
    assert "Pit A" in html and "Pit B" in html


def test_a_user_without_pits_is_told_so(client_for, floor):
    html = client_for(DEALER, pits=[]).get(reverse("casino:floor")).content.decode()
    assert "not assigned to any pit" in html


def test_floor_shows_tables_whose_game_the_engine_does_not_read(client_for, floor, without_engine_module):
    TableFactory(name="Escribas", pit=floor.pit_a, variant="blackjack", boxes=5, rules={"preset": "salon"})
    without_engine_module("blackjack")
    html = client_for(DEALER).get(reverse("casino:floor")).content.decode()
    assert "Escribas" in html and "salon" in html
    assert "does not read this game yet" in html


def test_floor_page_has_the_navigation_and_a_logout_form(client_for, floor):
    html = client_for(DEALER).get(reverse("casino:floor")).content.decode()
    assert f'href="{reverse("casino:floor")}"' in html
    assert f'action="{reverse("logout")}"' in html and 'method="post"' in html
    assert "/admin/" not in html  # only superusers get the Admin entry
    assert "vendor/htmx.min.js" in html


def test_floor_speaks_russian_when_asked(client_for, floor):
    client = client_for(DEALER)
    client.cookies["django_language"] = "ru"
    response = client.get(reverse("casino:floor"))
    assert response.status_code == 200
    assert response.headers["Content-Language"] == "ru"


def test_money_filter_groups_digits_and_keeps_cents():
    with translation.override("en"):
        assert money(Decimal("5000")) == "5,000"
        assert money(Decimal("7.50")) == "7.50"
        assert money("1000000.00") == "1,000,000"
        assert money(None) == ""


# --- admin ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url_name",
    [
        "admin:casino_pit_changelist",
        "admin:casino_table_changelist",
        "admin:casino_staff_changelist",
        "admin:casino_table_add",
        "admin:auth_user_changelist",
    ],
)
def test_admin_pages_open(client_for, floor, url_name):
    assert client_for("superuser").get(reverse(url_name)).status_code == 200


def test_admin_filters(client_for, floor, make_user):
    make_user(DEALER, pits=[floor.pit_a], username="dealer-a")
    make_user(AUDITOR, pits=[floor.pit_b], username="auditor-b")
    admin = client_for("superuser")
    html = admin.get(reverse("admin:casino_staff_changelist"), {"role": "dealer"}).content.decode()
    assert "dealer-a" in html and "auditor-b" not in html
    html = admin.get(reverse("admin:casino_staff_changelist"), {"pits__id__exact": floor.pit_b.pk}).content.decode()
    assert "auditor-b" in html and "dealer-a" not in html
    html = admin.get(
        reverse("admin:casino_table_changelist"), {"variant": "ochko", "pit__id__exact": floor.pit_a.pk}
    ).content.decode()
    assert "R-1" in html and "R-2" not in html


def test_admin_refuses_a_table_with_an_unknown_rule(client_for, floor):
    response = client_for("superuser").post(
        reverse("admin:casino_table_add"),
        {
            "name": "R-8",
            "pit": floor.pit_a.pk,
            "variant": "ochko",
            "min_bet": "100",
            "max_bet": "5000",
            "boxes": "6",
            "chips": "[100, 500]",
            "rules": '{"colour": "red"}',
            "is_active": "on",
        },
    )
    assert response.status_code == 200
    assert escape(_engine_message("ochko", {"colour": "red"})) in response.content.decode()
    assert not Table.objects.filter(name="R-8").exists()
