"""Integrity signals on the database: rounds logged through dealing's real service with a planted
sweetheart dealer, the scan (service, command, daily task), the review, the pages and the API by role."""

import datetime as dt
import io
import json
import random
import uuid
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from books.integrity import services
from books.models import IntegritySignal, SignalStatus
from casino.errors import ServiceError
from dealing import services as dealing_services
from tests.dealing.conftest import deal_round

pytestmark = pytest.mark.django_db

FRIEND = "FRIEND"
# The simulator's mistakes that change what a player is paid (most of them in his favour).
PAYMENT_MISTAKES = ("wrong_amount", "wrong_result", "missing_settlement", "unexpected_settlement")


@pytest.fixture
def limits(settings):
    """Minimums for a floor of a few hundred rounds (the defaults are for a month of a real floor)."""
    settings.SIGNALS_ALPHA = 0.01
    settings.SIGNALS_MIN_COUNT = 8
    settings.SIGNALS_MIN_STAKES = 10
    settings.SIGNALS_MIN_ROUNDS = 20
    return settings


def befriend(doc: dict) -> bool:
    """Seat FRIEND on box 2 and overpay him: a pay raised by 100, or a take halved. False when box 2 is empty."""
    stake = next((st for st in doc["stakes"] if st.get("box") == 2), None)
    if stake is None:
        return False
    stake["player"] = FRIEND
    mine = [ev for ev in doc["events"] if ev.get("stake") == stake["id"] and ev["e"] in ("pay", "take")]
    pays = [ev for ev in mine if ev["e"] == "pay"]
    if pays:
        pays[0]["amount"] = Decimal(str(pays[0]["amount"])) + 100
    elif mine and Decimal(str(mine[0]["amount"])) >= 2:
        mine[0]["amount"] = (Decimal(str(mine[0]["amount"])) / 2).quantize(Decimal("1"))
    return True


def log(table, dealer, n, *, seed, sweetheart=False, mistakes=0.1):
    rng = random.Random(seed)
    for _ in range(n):
        kind = rng.choice(PAYMENT_MISTAKES) if rng.random() < mistakes else None
        doc = deal_round(table, dealer=dealer.username, rng=rng, mistake=kind)
        doc["id"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        if sweetheart:
            befriend(doc)
        record, created = dealing_services.round_log(document=doc, logged_by=dealer)
        assert created


@pytest.fixture
def sweetheart_floor(crew, limits):
    """dealer1 honest (the simulator's payment mistakes at 10 % of rounds), dealer2 the same and
    overpaying FRIEND on box 2."""
    log(crew.table, crew.dealer, 70, seed=1)
    log(crew.table, crew.dealer2, 70, seed=2, sweetheart=True)
    return crew


def test_the_scan_names_the_sweetheart_dealer_and_his_player_and_a_rescan_adds_nothing(sweetheart_floor):
    crew = sweetheart_floor
    today = timezone.localdate()
    result = services.signals_scan(date_from=today, date_to=today)
    favoured = IntegritySignal.objects.get(kind="favoured_player")
    assert (favoured.dealer, favoured.player) == (crew.dealer2, FRIEND)
    assert favoured.p_adjusted <= 0.01 and favoured.status == SignalStatus.OPEN
    assert favoured.round_ids and Decimal(favoured.evidence["money_to_subject"]) > 0
    box = IntegritySignal.objects.get(kind="favoured_box")
    assert (box.dealer, box.table, box.box) == (crew.dealer2, crew.table, 2)
    assert not IntegritySignal.objects.filter(dealer=crew.dealer).exists()
    assert len(result.created) == IntegritySignal.objects.count() >= 2

    again = services.signals_scan(date_from=today, date_to=today)
    assert again.created == [] and len(again.updated) == len(result.created)
    assert IntegritySignal.objects.count() == len(result.created)

    # The daily scan's window ends yesterday: tomorrow's covers today, and carries the signal forward.
    daily = services.signals_scan_daily(today=today + dt.timedelta(days=1), window_days=3)
    assert daily.created == [] and IntegritySignal.objects.count() == len(result.created)


def test_the_command_scans_a_period_and_prints_its_summary(sweetheart_floor):
    today = timezone.localdate().isoformat()
    out = io.StringIO()
    call_command("signals_scan", "--from", today, "--to", today, "--json", stdout=out)
    summary = json.loads(out.getvalue())
    assert summary["created"] == IntegritySignal.objects.count() >= 2 and summary["tests"] > 2
    call_command("signals_scan", "--from", today, "--to", today, "--json", stdout=(out := io.StringIO()))
    assert json.loads(out.getvalue())["created"] == 0


def test_the_daily_task_scans_the_window_up_to_yesterday(crew, limits):
    from books.tasks import signals_scan_daily

    summary = signals_scan_daily.apply().get()
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    assert summary["to"] == yesterday.isoformat() and summary["created"] == 0


def signal_of(crew, **fields) -> IntegritySignal:
    values = dict(
        kind="lean",
        key=f"lean:d{crew.dealer.pk}",
        dealer=crew.dealer,
        table=crew.table,
        period_start=dt.date(2026, 11, 1),
        period_end=dt.date(2026, 11, 30),
        statistic=0.9,
        p_value=1e-6,
        p_adjusted=1e-5,
        evidence={"errors": 20, "overpayments": 18},
    )
    values.update(fields)
    return IntegritySignal.objects.create(**values)


def test_an_auditor_confirms_or_dismisses_with_a_note(crew):
    signal = services.signal_review(
        signal=signal_of(crew), reviewer=crew.auditor, status="confirmed", note="Seen on camera."
    )
    signal.refresh_from_db()
    assert (signal.status, signal.reviewed_by, signal.note) == ("confirmed", crew.auditor, "Seen on camera.")
    with pytest.raises(ServiceError) as exc:
        services.signal_review(signal=signal, reviewer=crew.auditor, status="dismissed", note="No.")
    assert exc.value.extra["code"] == "already_reviewed"
    signal.refresh_from_db()
    assert signal.status == "confirmed"


@pytest.mark.parametrize(
    "status, note, field",
    [
        ("maybe", "why", "status"),
        ("dismissed", "   ", "note"),
        ("confirmed", "", "note"),
        ("dismissed", "x" * 4001, "note"),
        ("open", "reopen", "status"),
    ],
)
def test_bad_review_input_is_refused_with_its_field_and_nothing_is_stored(crew, status, note, field):
    signal = signal_of(crew)
    with pytest.raises(ServiceError) as exc:
        services.signal_review(signal=signal, reviewer=crew.auditor, status=status, note=note)
    assert field in exc.value.extra["fields"]
    signal.refresh_from_db()
    assert (signal.status, signal.reviewed_by, signal.note) == ("open", None, "")


def test_only_auditors_review_and_never_a_signal_about_themselves(crew):
    signal = signal_of(crew)
    for who in (crew.pit_boss, crew.dealer, crew.inspector, crew.trainee):
        with pytest.raises(ServiceError) as exc:
            services.signal_review(signal=signal, reviewer=who, status="confirmed", note="yes")
        assert exc.value.status == 403
    own = signal_of(crew, dealer=crew.auditor, key="lean:self")
    with pytest.raises(ServiceError) as exc:
        services.signal_review(signal=own, reviewer=crew.auditor, status="dismissed", note="not me")
    assert exc.value.extra["code"] == "own_signal"
    assert IntegritySignal.objects.filter(status="open").count() == 2


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_pages_by_role(crew):
    signal = signal_of(crew)
    elsewhere = signal_of(crew, dealer=None, table=None, player="P-9", kind="player_results", key="player:P-9")
    list_url, detail_url = reverse("books:signal_list"), reverse("books:signal_detail", args=[signal.pk])
    auditor = _client(crew.auditor)
    page = auditor.get(list_url)
    assert page.status_code == 200 and detail_url.encode() in page.content
    assert reverse("books:signal_detail", args=[elsewhere.pk]).encode() in page.content
    detail = auditor.get(detail_url)
    assert detail.status_code == 200 and b"overpayments" in detail.content and b'name="note"' in detail.content
    # The pit boss of the dealer's pit reads it, without the review form; one of another pit does not see it.
    boss = _client(crew.pit_boss)
    assert boss.get(detail_url).status_code == 200 and b'name="note"' not in boss.get(detail_url).content
    assert reverse("books:signal_detail", args=[elsewhere.pk]).encode() not in boss.get(list_url).content
    outsider = _client(crew.outsider)
    assert outsider.get(detail_url).status_code == 404
    assert detail_url.encode() not in outsider.get(list_url).content
    for who in (crew.dealer, crew.inspector, crew.trainee):
        assert _client(who).get(list_url).status_code == 403
        assert _client(who).get(detail_url).status_code == 403
    assert (
        boss.post(reverse("books:signal_review", args=[signal.pk]), {"status": "confirmed", "note": "x"}).status_code
        == 403
    )
    # Filters.
    assert detail_url.encode() not in auditor.get(list_url, {"kind": "player_results"}).content
    assert detail_url.encode() in auditor.get(list_url, {"dealer": crew.dealer.username}).content


def test_the_review_form_shows_its_error_and_stores_nothing_then_records(crew):
    signal = signal_of(crew)
    url = reverse("books:signal_review", args=[signal.pk])
    auditor = _client(crew.auditor)
    refused = auditor.post(url, {"status": "dismissed", "note": ""})
    assert refused.status_code == 400 and b"errorlist" in refused.content
    signal.refresh_from_db()
    assert signal.status == "open"
    done = auditor.post(url, {"status": "dismissed", "note": "A new dealer: training, not intent."})
    assert done.status_code == 302
    signal.refresh_from_db()
    assert (signal.status, signal.reviewed_by) == ("dismissed", crew.auditor)


def test_the_api_lists_shows_and_reviews(crew):
    signal = signal_of(crew)
    auditor = _client(crew.auditor)
    rows = auditor.get("/api/v1/books/signals/", {"status": "open"}).json()
    assert [r["id"] for r in rows] == [signal.pk] and rows[0]["dealer"] == crew.dealer.username
    assert auditor.get("/api/v1/books/signals/", {"status": "nope"}).status_code == 400
    one = auditor.get(f"/api/v1/books/signals/{signal.pk}/").json()
    assert one["evidence"]["overpayments"] == 18
    bad = auditor.post(
        f"/api/v1/books/signals/{signal.pk}/review/",
        {"status": "confirmed", "note": " "},
        content_type="application/json",
    )
    assert bad.status_code == 400
    not_text = auditor.post(
        f"/api/v1/books/signals/{signal.pk}/review/",
        {"status": "confirmed", "note": 0},
        content_type="application/json",
    )
    assert not_text.status_code == 400 and "note" in not_text.json()["extra"]["fields"]
    signal.refresh_from_db()
    assert signal.status == "open"
    ok = auditor.post(
        f"/api/v1/books/signals/{signal.pk}/review/",
        {"status": "confirmed", "note": "Confirmed."},
        content_type="application/json",
    )
    assert ok.status_code == 200 and ok.json()["status"] == "confirmed"
    again = auditor.post(
        f"/api/v1/books/signals/{signal.pk}/review/",
        {"status": "dismissed", "note": "No."},
        content_type="application/json",
    )
    assert again.status_code == 409 and again.json()["extra"]["code"] == "already_reviewed"
    assert (
        _client(crew.pit_boss)
        .post(
            f"/api/v1/books/signals/{signal.pk}/review/",
            {"status": "confirmed", "note": "x"},
            content_type="application/json",
        )
        .status_code
        == 403
    )
    assert _client(crew.dealer).get("/api/v1/books/signals/").status_code == 403
    assert _client(crew.outsider).get(f"/api/v1/books/signals/{signal.pk}/").status_code == 404


def test_the_signals_endpoints_are_in_the_schema(crew):
    paths = _client(crew.auditor).get(reverse("schema"), {"format": "json"}).json()["paths"]
    assert {"/api/v1/books/signals/", "/api/v1/books/signals/{id}/", "/api/v1/books/signals/{id}/review/"} <= set(paths)
    review = paths["/api/v1/books/signals/{id}/review/"]["post"]
    assert "requestBody" in review


def test_incidents_and_burn_findings_piling_up_on_one_dealer_are_signalled(crew, limits):
    """dealer1 and dealer2 deal as many rounds; every exposed card and every burn finding is dealer2's."""
    from audit.models import Finding
    from tests.factories import IncidentFactory, ShoeFactory

    log(crew.table, crew.dealer, 30, seed=3, mistakes=0)
    log(crew.table, crew.dealer2, 30, seed=4, mistakes=0)
    for _ in range(16):
        IncidentFactory(table=crew.table, dealer=crew.dealer2, reported_by=crew.inspector)
    shoe = ShoeFactory(table=crew.table, shuffled_by=crew.dealer2)
    for k in range(16):
        Finding.objects.create(
            shoe=shoe,
            table=crew.table,
            dealer=crew.dealer2,
            played_at=timezone.now(),
            code="BURN_COUNT",
            severity="major",
            message="5 burns after loading; 6 are due.",
            engine_version="1",
            fingerprint=f"{k:040d}",
        )
    today = timezone.localdate()
    services.signals_scan(date_from=today, date_to=today)
    named = {(s.kind, s.dealer_id) for s in IntegritySignal.objects.all()}
    assert ("incidents_dealer", crew.dealer2.pk) in named and ("procedure", crew.dealer2.pk) in named
    assert not any(dealer == crew.dealer.pk for _kind, dealer in named)
    incidents = IntegritySignal.objects.get(kind="incidents_dealer")
    assert incidents.evidence["of_subject"] == 16 and incidents.evidence["expected"] == pytest.approx(8)


def test_the_admin_shows_signals_read_only(crew, make_user):
    signal = signal_of(crew, p_adjusted=0.000123456789)
    admin = _client(make_user("superuser", username="root"))
    listed = admin.get("/admin/books/integritysignal/?status=open")
    assert listed.status_code == 200 and crew.dealer.username in listed.content.decode()
    assert ">0.00012<" in listed.content.decode() and "0.000123456789" not in listed.content.decode()
    page = admin.get(f"/admin/books/integritysignal/{signal.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin.get("/admin/books/integritysignal/add/").status_code == 403
    assert admin.post(f"/admin/books/integritysignal/{signal.pk}/delete/", {"post": "yes"}).status_code == 403
    assert IntegritySignal.objects.filter(pk=signal.pk).exists()
    assert _client(crew.auditor).get("/admin/books/integritysignal/").status_code == 302  # not staff: the login
