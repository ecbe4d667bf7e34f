"""Table and pit names: what a new name may contain, and every page renders whatever an old one holds.

A table's name is part of its pages' addresses; a `/` in one used to make /tables/ and /rounds/new
answer 500 (NoReverseMatch) for everyone in its pit.
"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from casino.models import Pit, Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS
from casino.validators import NAME_MAX, FloorNameValidator
from dealing import services
from tests.casino.test_roles import PAGES
from tests.dealing.conftest import deal_round
from tests.factories import PitFactory, StaffFactory, TableFactory, UserFactory

pytestmark = pytest.mark.django_db

# Every kind of character a name may hold: Latin with accents, Cyrillic, Greek, Arabic and Hebrew
# (right-to-left letters are letters), Devanagari and Thai with combining marks, CJK, digits of
# another script, and each punctuation mark allowed — including `#`, `&`, `+`, `'`, which mean
# something in an address.
NASTIEST = "Ñandú №7 Стол Ω طاولة שולחן टेबल ก์ 漢字 ٣ -–_.,:'’()&+#"
assert len(NASTIEST) <= NAME_MAX
# Older names, stored before names were checked: a `/` (and worse) straight into the database.
LEGACY = ["R/1", "../up", "a/rounds/new", "50% ?x=1#top", "tab\there \u202eevil", " <b>bold</b> "]


@pytest.mark.parametrize(
    "name", [NASTIEST, "R-1", "Pit A", "Faraón", "Casa-21", "Online-1", "Стол №3", "7", "x" * NAME_MAX]
)
def test_plain_names_are_accepted(name):
    FloorNameValidator()(name)


@pytest.mark.parametrize(
    "name, says",
    [
        ("R/1", "“/” cannot be part of a name"),
        ("R\\1", "“\\” cannot be part of a name"),
        ("50%", "“%” cannot be part of a name"),
        ("a?b", "“?” cannot be part of a name"),
        ("<b>", "“<” cannot be part of a name"),
        ("Table\u202e1", "U+202E (RIGHT-TO-LEFT OVERRIDE) cannot be part of a name"),
        ("Table\u2067x\u2069", "U+2067 (RIGHT-TO-LEFT ISOLATE)"),
        ("zero\u200bwidth", "U+200B (ZERO WIDTH SPACE)"),
        ("tab\tbed", "U+0009"),
        ("new\nline", "U+000A"),
        ("nul\x00", "U+0000"),
        ("no\u00a0break", "U+00A0 (NO-BREAK SPACE)"),
        (" R-1", "does not begin or end with a space"),
        ("R-1 ", "does not begin or end with a space"),
        ("R  1", "single spaces"),
        ("...", "at least one letter or digit"),
        ("-", "at least one letter or digit"),
        ("x" * (NAME_MAX + 1), f"at most {NAME_MAX} characters"),
    ],
)
def test_names_that_would_break_or_disguise_a_page_are_refused(name, says):
    with pytest.raises(ValidationError) as refused:
        FloorNameValidator()(name)
    assert says in refused.value.messages[0]
    assert refused.value.error_list[0].code == "bad_name"


def test_the_admin_refuses_a_bad_table_or_pit_name_next_to_the_field(client_for, floor):
    admin = client_for("superuser")
    response = admin.post(
        reverse("admin:casino_table_add"),
        {
            "name": "R/7",
            "pit": floor.pit_a.pk,
            "variant": "ochko",
            "min_bet": "100",
            "max_bet": "5000",
            "boxes": "6",
            "chips": "[]",
            "rules": "{}",
            "is_active": "on",
        },
    )
    assert response.status_code == 200  # the form again, with its errors
    assert response.context["adminform"].form.errors["name"] == [
        "“/” cannot be part of a name: use letters, digits, spaces and - – _ . , : ' ’ ( ) & + # №"
    ]
    assert not Table.objects.filter(name="R/7").exists()

    response = admin.post(
        reverse("admin:casino_pit_add"),
        {"name": "Pit\u202eC", "description": "", "tables-TOTAL_FORMS": "0", "tables-INITIAL_FORMS": "0"},
    )
    assert response.status_code == 200
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in response.context["adminform"].form.errors["name"][0]
    assert not Pit.objects.filter(name="Pit\u202eC").exists()

    response = admin.post(
        reverse("admin:casino_table_add"),
        {
            "name": NASTIEST,
            "pit": floor.pit_a.pk,
            "variant": "ochko",
            "min_bet": "100",
            "max_bet": "5000",
            "boxes": "6",
            "chips": "[]",
            "rules": "{}",
            "is_active": "on",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Table.objects.filter(name=NASTIEST).exists()


def _world():
    """A pit whose tables carry the nastiest allowed name and the legacy names, each with a shoe, a
    round with a wrong payout (and so a finding), a pending correction and an incident; one
    person per role working there."""
    pit = PitFactory(name=NASTIEST)
    people = {role: UserFactory(username=role, role=role) for role in (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)}
    people["boss2"] = UserFactory(username="boss2", role=PIT_BOSS)
    for user in people.values():
        StaffFactory(user=user, pits=[pit])
    dealer = people[DEALER]
    tables = []
    for i, name in enumerate([NASTIEST, *LEGACY]):
        table = TableFactory(name=name, pit=pit, min_bet=Decimal(100), max_bet=Decimal(5000))  # no validation
        shoe = services.shoe_start(table=table, shuffled_by=dealer)
        for card in ["6S", "7H", "8D", "9C", "TS", "JH"]:
            services.shoe_burn(shoe=shoe, card=card, reason="load", recorded_by=dealer)
        record = _log_with_a_mistake(table, dealer, seed=i)
        fixed = deal_round(table, dealer=dealer.username, seed=i + 100)
        fixed["id"] = record.document["id"]
        services.round_amend(round=record, document=fixed, amended_by=dealer, reason="The payout was wrong.")
        services.incident_report(
            table=table,
            kind="dealer_card_exposed",
            card="AS",
            exposed=True,
            resolution="burned",
            dealer=dealer,
            reported_by=people[INSPECTOR],
            shoe=shoe,
        )
        tables.append((table, shoe, record))
    return people, tables


def _log_with_a_mistake(table, dealer, *, seed):
    for attempt in range(50):
        doc = deal_round(table, dealer=dealer.username, seed=seed * 100 + attempt, mistake="wrong_amount")
        record, created = services.round_log(document=doc, logged_by=dealer)
        if record.stakes.exists():
            return record
    raise AssertionError("no round was logged")


def _pages(tables) -> list[str]:
    """Every page and endpoint of the floor (tests/casino/test_roles.py's list) and every page of these tables."""
    urls = [reverse(name) for name, _roles in PAGES]
    urls += [
        reverse(name)
        for name in (
            "audit:dashboard",
            "audit:finding_list",
            "audit:finding_csv",
            "audit:dealer_rates_csv",
            "audit:run_list",
            "api:round-list",
            "api:shoe-list",
            "api:stake-list",
            "api:incident-list",
            "api:finding-list",
        )
    ]
    for table, shoe, record in tables:
        name = {"name": table.name}
        urls += [
            reverse("dealing:round_new", kwargs=name),
            reverse("dealing:shoe", kwargs=name),
            reverse("dealing:shoe_number", kwargs={**name, "number": shoe.number}),
            reverse("dealing:table_incidents", kwargs=name),
            reverse("dealing:incident_new") + "?table=" + table.name,
            reverse("dealing:round_detail", args=[record.pk]),
            reverse("dealing:round_correct", args=[record.pk]),
            reverse("audit:round_replay", args=[record.pk]),
            reverse("audit:shoe_detail", args=[shoe.pk]),
            reverse("audit:finding_list") + f"?table={table.pk}",
            reverse("api:round-detail", args=[record.pk]),
            reverse("api:shoe-detail", args=[shoe.pk]),
            reverse("admin:casino_table_change", args=[table.pk]),
            reverse("admin:casino_pit_change", args=[table.pit_id]),
        ]
    return urls


@pytest.mark.parametrize("role", [DEALER, INSPECTOR, PIT_BOSS, AUDITOR, "superuser"])
def test_every_page_renders_whatever_a_table_is_called(role, django_capture_on_commit_callbacks, eager):
    with django_capture_on_commit_callbacks(execute=True):  # the rounds' audits: findings to list
        people, tables = _world()
    if role == "superuser":
        from tests.factories import SuperuserFactory

        people[role] = SuperuserFactory()
    client = Client()
    client.force_login(people[role])
    failures = []
    for url in _pages(tables):
        response = client.get(url)
        if response.status_code >= 500:
            failures.append((url, response.status_code))
    assert failures == []
    # And the tables' own pages are found and linked, not just "not a 500".
    for table, _shoe, _record in tables:
        if role in (DEALER, PIT_BOSS, "superuser"):
            assert client.get(reverse("dealing:shoe", kwargs={"name": table.name})).status_code == 200, table.name
    if role in (DEALER, PIT_BOSS):
        html = client.get(reverse("dealing:table_list")).content.decode()
        for table, _shoe, _record in tables:
            assert escape(reverse("dealing:round_new", kwargs={"name": table.name})) in html
        assert client.get(reverse("dealing:round_pick_table")).status_code == 200
    if role == PIT_BOSS:
        queue = client.get(reverse("dealing:pit_queue"))
        assert queue.status_code == 200
        assert len(queue.context["amendments"]) == len(tables)


def test_the_address_of_a_legacy_name_leads_back_to_its_table(client_for):
    pit = PitFactory(name="Pit L")
    table = TableFactory(name="R/1", pit=pit)
    other = TableFactory(name="R", pit=pit)
    client = client_for(DEALER, pits=[pit])
    assert reverse("dealing:shoe", kwargs={"name": "R/1"}) == "/tables/R/1/shoe/"
    assert client.get("/tables/R/1/shoe/").context["table"] == table
    assert client.get("/tables/R/shoe/").context["table"] == other
    assert client.get("/tables/R/1/incidents/").context["table"] == table
    assert client.get("/tables/nowhere/shoe/").status_code == 404
    assert client.get("/tables/R%00/shoe/").status_code == 404


def test_log_a_round_goes_straight_to_the_only_table_whatever_its_name(client_for):
    pit = PitFactory(name="Pit L")
    TableFactory(name="R/1", pit=pit)
    client = client_for(DEALER, pits=[pit])
    response = client.get(reverse("dealing:round_pick_table"))
    assert response.status_code == 302 and response["Location"] == "/tables/R/1/rounds/new"
    assert client.get(response["Location"]).status_code == 200
