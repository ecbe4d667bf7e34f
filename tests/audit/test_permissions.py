"""Who may use which audit page and endpoint, and what each role sees there — checked on the server.

Roles: only auditors (and superusers) start runs and review findings; a dealer sees the findings of
the rounds he dealt; a pit boss and an inspector those of their pits; trainees nothing.
"""

import pytest
from django.test import Client
from django.urls import reverse

from audit import services as audit_services
from audit.models import AuditRun, Finding, Review
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, ROLES
from dealing import services as dealing_services

pytestmark = pytest.mark.django_db

EVERYONE_BUT_TRAINEES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)


@pytest.fixture
def world(people, floor, log_rounds, eager, django_capture_on_commit_callbacks):
    """Findings by `dealer` at table A (pit A), by `other_dealer` at tables A and B; a shoe; a run."""
    log_rounds(floor.table_a, people.dealer, n=4, seed=41, mistake_rate=1.0, kinds=["wrong_amount"])
    log_rounds(floor.table_a, people.other_dealer, n=3, seed=42, mistake_rate=1.0, kinds=["wrong_result"])
    log_rounds(floor.table_b, people.other_dealer, n=3, seed=43, mistake_rate=1.0, kinds=["wrong_amount"])
    shoe = dealing_services.shoe_start(table=floor.table_a, shuffled_by=people.dealer)
    with django_capture_on_commit_callbacks(execute=True):
        run = audit_services.audit_run_start(started_by=people.auditor, only_unaudited=False)

    class World:
        pass

    w = World()
    w.shoe, w.run = shoe, run
    w.own = Finding.objects.filter(dealer=people.dealer).first()
    w.pit_a_other = Finding.objects.filter(dealer=people.other_dealer, table=floor.table_a).first()
    w.pit_b = Finding.objects.filter(table=floor.table_b).first()
    assert w.own and w.pit_a_other and w.pit_b
    return w


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def user_for(people, role):
    return {
        DEALER: people.dealer,
        INSPECTOR: people.inspector,
        PIT_BOSS: people.pit_boss,
        AUDITOR: people.auditor,
        "trainee": people.trainee,
        "superuser": people.admin,
    }[role]


# (url name, args from the world, roles allowed, is API)
def pages(w):
    return [
        ("audit:dashboard", [], (AUDITOR, PIT_BOSS), False),
        ("audit:finding_list", [], EVERYONE_BUT_TRAINEES, False),
        ("audit:finding_csv", [], EVERYONE_BUT_TRAINEES, False),
        ("audit:dealer_rates_csv", [], (AUDITOR, PIT_BOSS), False),
        ("audit:round_replay", [w.pit_a_other.round_id], (INSPECTOR, PIT_BOSS, AUDITOR), False),
        ("audit:shoe_detail", [w.shoe.pk], (INSPECTOR, PIT_BOSS, AUDITOR), False),
        ("audit:run_list", [], (AUDITOR,), False),
        ("audit:run_detail", [w.run.pk], (AUDITOR,), False),
        ("audit:run_progress", [w.run.pk], (AUDITOR,), False),
        ("api:finding-list", [], EVERYONE_BUT_TRAINEES, True),
        ("api:finding-detail", [w.pit_a_other.pk], (INSPECTOR, PIT_BOSS, AUDITOR), True),
        ("api:audit-run-list", [], (AUDITOR,), True),
        ("api:audit-run-detail", [w.run.pk], (AUDITOR,), True),
    ]


def test_anonymous_users_are_sent_to_login_or_refused(world, client):
    for name, args, _allowed, api in pages(world):
        url = reverse(name, args=args)
        response = client.get(url)
        if api:
            assert response.status_code == 401, name
            assert set(response.json()) == {"message", "extra"}
        else:
            assert response.status_code == 302 and response["Location"].startswith(reverse("login")), name


@pytest.mark.parametrize("role", [*ROLES, "superuser"])
def test_each_role_reads_only_its_pages(world, people, role):
    client = login(user_for(people, role))
    for name, args, allowed, _api in pages(world):
        response = client.get(reverse(name, args=args))
        if name.endswith("_csv"):  # the XLSX beside each CSV keeps the CSV's door (issue #35)
            xlsx = client.get(reverse(name, args=args), {"format": "xlsx"})
            assert xlsx.status_code == response.status_code, (role, name, xlsx.status_code)
            if xlsx.status_code == 200:
                assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats"), (role, name)
        # A page the role may use answers 200; a dealer asking for another dealer's round gets 404
        # (outside his scope, as if it did not exist); any other role outside the list, 403.
        if role == "superuser" or role in allowed:
            expected = 200
        elif role == DEALER and name in ("audit:round_replay", "api:finding-detail"):
            expected = 404
        else:
            expected = 403
        assert response.status_code == expected, (role, name, response.status_code)


@pytest.mark.parametrize("role", [*ROLES, "superuser"])
def test_only_auditors_review_and_start_runs(world, people, role):
    client = login(user_for(people, role))
    may = role in (AUDITOR, "superuser")
    finding = world.pit_a_other
    review = {"status": "confirmed", "classification": "dealer_error", "comment": "seen"}
    writes = [
        (reverse("audit:finding_review", args=[finding.pk]), review, False),
        (reverse("audit:finding_list"), {**review, "ids": [finding.pk]}, False),
        (reverse("audit:run_list"), {"scope": "all"}, False),
        (reverse("audit:run_rerun", args=[world.run.pk]), {}, False),
        (reverse("audit:run_resume", args=[world.run.pk]), {}, False),
        (reverse("audit:shoe_audit", args=[world.shoe.pk]), {}, False),
        (reverse("api:finding-review", args=[finding.pk]), review, True),
        (reverse("api:finding-bulk-review"), {**review, "ids": [finding.pk]}, True),
        (reverse("api:audit-run-list"), {"only_unaudited": False}, True),
    ]
    reviews, runs = Review.objects.count(), AuditRun.objects.count()
    for url, data, api in writes:
        response = client.post(url, data, content_type="application/json") if api else client.post(url, data)
        if may:
            assert response.status_code in (200, 202, 302), (url, response.status_code)
        else:
            assert response.status_code in (403, 404), (role, url, response.status_code)
    if may:
        assert Review.objects.count() == reviews + 4 and AuditRun.objects.count() == runs + 3
    else:
        assert Review.objects.count() == reviews and AuditRun.objects.count() == runs


def listed_ids(client, api: bool) -> set[int]:
    if api:
        return {row["id"] for row in client.get(reverse("api:finding-list"), {"limit": 1000}).json()["results"]}
    response = client.get(reverse("audit:finding_csv"))
    rows = b"".join(response.streaming_content).decode().splitlines()[1:]
    return {int(row.split(",")[0]) for row in rows}


@pytest.mark.parametrize("api", [True, False], ids=["api", "csv"])
def test_each_role_sees_its_own_share_of_the_findings(world, people, floor, api):
    everything = set(Finding.objects.values_list("pk", flat=True))
    pit_a = set(Finding.objects.filter(table__pit=floor.pit_a).values_list("pk", flat=True))
    own = set(Finding.objects.filter(dealer=people.dealer).values_list("pk", flat=True))
    assert own < pit_a < everything
    assert listed_ids(login(people.auditor), api) == everything
    assert listed_ids(login(people.admin), api) == everything
    assert listed_ids(login(people.pit_boss), api) == pit_a
    assert listed_ids(login(people.inspector), api) == pit_a
    assert listed_ids(login(people.dealer), api) == own
    # other_dealer works in both pits but sees only what he dealt himself
    assert listed_ids(login(people.other_dealer), api) == everything - own


def test_rounds_outside_ones_scope_are_not_found(world, people):
    dealer, boss = login(people.dealer), login(people.pit_boss)
    assert dealer.get(reverse("audit:round_replay", args=[world.own.round_id])).status_code == 200
    assert dealer.get(reverse("audit:round_replay", args=[world.pit_a_other.round_id])).status_code == 404
    assert boss.get(reverse("audit:round_replay", args=[world.pit_a_other.round_id])).status_code == 200
    assert boss.get(reverse("audit:round_replay", args=[world.pit_b.round_id])).status_code == 404
    assert boss.get(reverse("api:finding-detail", args=[world.pit_b.pk])).status_code == 404
    assert dealer.get(reverse("api:finding-detail", args=[world.own.pk])).status_code == 200


def test_the_dashboard_of_a_pit_boss_counts_only_his_pits(world, people, floor):
    boss = login(people.pit_boss).get(reverse("audit:dashboard"))
    auditor = login(people.auditor).get(reverse("audit:dashboard"))
    assert boss.context["d"]["findings"] == Finding.objects.filter(table__pit=floor.pit_a).count()
    assert auditor.context["d"]["findings"] == Finding.objects.count()
    rates = login(people.pit_boss).get(reverse("audit:dealer_rates_csv"))
    text = b"".join(rates.streaming_content).decode()
    assert "dealer-a" in text and text.count("\n") == 3  # header, dealer-a, dealer-b (pit A rounds only)


def test_the_navigation_offers_each_role_only_the_audit_pages_it_may_open(world, people):
    for role in (*ROLES, "superuser"):
        response = login(user_for(people, role)).get(reverse("audit:finding_list"))
        if response.status_code != 200:
            assert role == "trainee"
            continue
        names = {item["url_name"] for item in response.context["nav_items"]}
        assert ("audit:dashboard" in names) == (role in (AUDITOR, PIT_BOSS, "superuser")), role
        assert "audit:run_list" not in names  # a tab of the audit pages
        html = response.content.decode()
        assert (f'href="{reverse("audit:run_list")}"' in html) == (role in (AUDITOR, "superuser")), role
        assert (f'href="{reverse("audit:dashboard")}"' in html) == (role in (AUDITOR, PIT_BOSS, "superuser")), role
        assert "audit:finding_list" in names


def test_a_dealer_is_not_offered_shoe_pages_he_may_not_open(world, people, floor):
    shoe_finding = Finding.objects.create(
        shoe=world.shoe,
        table=floor.table_a,
        dealer=people.dealer,
        played_at=world.shoe.loaded_at,
        code="BURN_COUNT",
        severity="major",
        message="5 burns after loading; 6 are due.",
        engine_version="1",
        fingerprint="x" * 40,
    )
    shoe_url = reverse("audit:shoe_detail", args=[world.shoe.pk])
    dealer_page = login(people.dealer).get(reverse("audit:finding_list"), {"kind": "shoe"})
    assert shoe_finding in dealer_page.context["page"].object_list
    assert shoe_url not in dealer_page.content.decode()
    assert shoe_url in login(people.pit_boss).get(reverse("audit:finding_list"), {"kind": "shoe"}).content.decode()
    replay = login(people.dealer).get(reverse("audit:round_replay", args=[world.own.round_id])).content.decode()
    assert "/audit/shoes/" not in replay
