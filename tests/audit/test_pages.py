"""The audit pages: what they show and what their forms do (permissions: test_permissions.py)."""

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit import rollups, services
from audit.models import AuditRun, Finding, Review
from audit.replay import table_layout
from dealing.models import Round
from tests.factories import audit_pending

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def audited(people, floor, log_rounds, eager):
    return log_rounds(floor.table_a, people.dealer, n=40, seed=51, mistake_rate=0.5)


# --- the round replay -------------------------------------------------------------------------------


def test_the_replay_draws_an_ochko_round_with_its_dark_card(eager, people, golden_round):
    record = golden_round("ochko/08-dark-card-wins")
    page = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk]))
    assert page.status_code == 200
    layout = page.context["layout"]
    box = next(b for b in layout.boxes if b.number == 4)
    assert [c.label for c in box.hands[0].cards] == ["10♠", "6♦", "K♣"]
    dark = box.hands[0].cards[-1]
    assert dark.hidden and dark.badge == "dark" and not dark.red
    assert box.hands[0].cards[1].red
    assert [c.label for c in layout.dealer.cards][0] == "9♥"
    html = page.content.decode()
    assert 'class="au-card hidden' in html and "K" in html and "♣" in html
    assert {(w.stake, w.wager) for w in page.context["r"].rows} == {("4a", "ante"), ("4a", "bet"), ("4a", "dealer_bet")}
    assert not page.context["r"].findings


def test_the_replay_marks_an_exposed_dealer_card_burned(eager, people, golden_round):
    record = golden_round("ochko/30-exposed-card-approved")
    layout = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk])).context["layout"]
    assert [(c.label, c.struck) for c in layout.dealer.cards][:2] == [("K♥", True), ("9♣", False)]
    assert [c.label for c in layout.burns] == ["K♥"]  # the burn event confirms the same card: shown once
    assert any("exposed" in note["text"] for note in layout.notes)


def test_the_replay_draws_blackjack_split_hands_side_by_side(eager, people, golden_round):
    record = golden_round("blackjack/08-split-tens-and-resplit-to-four")
    page = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk]))
    layout = page.context["layout"]
    split = [b for b in layout.boxes if len(b.hands) > 1]
    assert split, [(b.number, [h.name for h in b.hands]) for b in layout.boxes]
    names = [h.name for h in split[0].hands]
    assert len(names) == 4 and all(name.startswith(f"{split[0].number}.") for name in names)
    assert all(len(h.cards) >= 2 for h in split[0].hands)
    assert layout.dealer.cards[1].hidden  # the hole card
    html = page.content.decode()
    for name in names:
        assert f'data-hand="{name}"' in html
    assert {w.hand for w in page.context["r"].rows} >= set(names)


def test_the_replay_shows_a_double_and_veintiuno_seats_bank_and_tapo(eager, people, golden_round):
    record = golden_round("blackjack/09-double-after-split")
    layout = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk])).context["layout"]
    assert any(c.badge == "double" for b in layout.boxes for h in b.hands for c in h.cards)
    record = golden_round("veintiuno/10-tapo-y-quedo")
    page = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk]))
    layout = page.context["layout"]
    assert layout.box_word == "Seat" and layout.dealer_word == "Bank"
    assert layout.bank and layout.bank in layout.dealer.name
    cards = [c for b in layout.boxes for h in b.hands for c in h.cards]
    assert any(c.badge == "tapo" and c.hidden for c in cards)
    assert all(h.cards[0].hidden for b in layout.boxes for h in b.hands if h.cards)  # first pass face down


def test_the_replay_highlights_the_finding_on_its_wager_card_and_event(eager, people, golden_round):
    record = golden_round("ochko/20-error-wrong-amount")
    page = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk]))
    r = page.context["r"]
    [finding] = r.findings
    assert finding.code == "WRONG_AMOUNT" and finding.pk
    flagged = [w for w in r.rows if w.flagged]
    assert [(w.stake, w.wager, w.codes) for w in flagged] == [(finding.stake, finding.wager, ["WRONG_AMOUNT"])]
    assert flagged[0].delta == finding.player_delta
    assert [e.index for e in r.events if e.codes] == [finding.event]
    html = page.content.decode()
    assert f'id="finding-{finding.pk}"' in html and 'class="flag"' in html
    assert f'action="{reverse("audit:finding_review", args=[finding.pk])}"' in html
    # A dealer sees his round but no review form.
    html = login(people.dealer).get(reverse("audit:round_replay", args=[record.pk])).content.decode()
    assert "WRONG_AMOUNT" in html and reverse("audit:finding_review", args=[finding.pk]) not in html


def test_a_round_not_audited_yet_shows_the_engines_findings_live(people, golden_round):
    record = golden_round("ochko/20-error-wrong-amount")  # tasks not eager here: no audit yet
    audit_pending([record.pk])
    Finding.objects.filter(round=record).delete()
    page = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk]))
    assert page.context["r"].live and [f.code for f in page.context["r"].findings] == ["WRONG_AMOUNT"]
    assert "not audited yet" in page.content.decode()


def test_the_layout_survives_logs_it_cannot_follow():
    doc = {
        "variant": "ochko",
        "stakes": [{"id": "1a", "box": "x"}, "junk"],
        "events": [
            {"e": "deal", "to": 9, "card": "ZZ"},
            "junk",
            {"e": "hit", "box": None, "card": None},
            {"e": "incident", "kind": "misdrawn_card", "card": "7S", "resolution": {"to": 2}},
        ],
    }
    layout = table_layout(doc, boxes=6)
    assert [b.number for b in layout.boxes][:6] == [0, 1, 2, 3, 4, 5] or len(layout.boxes) >= 6
    cards = [c for b in layout.boxes for h in b.hands for c in h.cards]
    assert any(c.code is None and c.label == "ZZ" for c in cards)
    assert any(c.badge == "placed" for c in cards)


# --- findings list and bulk review ---------------------------------------------------------------


def test_the_findings_list_filters_and_pages(people, floor, audited, monkeypatch):
    client = login(people.auditor)
    monkeypatch.setattr("audit.views.PAGE_SIZE", 5)
    # No count of every finding (issue 17): walking "older" from the newest page shows each one once,
    # newest first, and "newer" from the oldest page walks back the same way.
    newest_first = list(Finding.objects.order_by("-played_at", "-id").values_list("pk", flat=True))
    seen, params = [], {}
    while True:
        page = client.get(reverse("audit:finding_list"), params).context["page"]
        assert len(page) <= 5
        seen += [f.pk for f in page]
        if not page.older:
            break
        params = {"older": page.older}
    assert seen == newest_first and len(seen) > 10
    back = []
    while True:
        back = [f.pk for f in page] + back
        if not page.newer:
            break
        page = client.get(reverse("audit:finding_list"), {"newer": page.newer}).context["page"]
    assert back == newest_first
    code = Finding.objects.values_list("code", flat=True).first()
    page = client.get(reverse("audit:finding_list"), {"code": code, "severity": ["critical", "major", "minor"]})
    assert {f.code for f in page.context["page"].object_list} == {code}
    page = client.get(reverse("audit:finding_list"), {"impact": "under"})
    assert all(f.player_delta < 0 for f in page.context["page"].object_list)
    page = client.get(reverse("audit:finding_list"), {"date_from": "not a date"})
    assert page.status_code == 200 and page.context["page"] is None and "date_from" in page.context["form"].errors
    assert client.get(reverse("audit:finding_list"), {"page": 99}).status_code == 200
    assert client.get(reverse("audit:finding_list"), {"older": "not a key"}).status_code == 200
    assert client.get(reverse("audit:finding_list"), {"at": "2026-13-45"}).status_code == 200


def test_bulk_review_from_the_list(people, audited):
    client = login(people.auditor)
    ids = list(Finding.objects.values_list("pk", flat=True)[:3])
    response = client.post(
        reverse("audit:finding_list"),
        {
            "ids": ids,
            "status": "confirmed",
            "classification": "dealer_error",
            "comment": "",
            "next": reverse("audit:finding_list") + "?status=open",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("audit:finding_list") + "?status=open"
    assert "3 finding(s) marked confirmed" in response.content.decode()
    assert set(Finding.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"confirmed"}
    # Dismissing needs a comment: refused, nothing changes, the reason is shown.
    response = client.post(
        reverse("audit:finding_list"),
        {"ids": ids, "status": "dismissed", "classification": "no_error", "comment": ""},
        follow=True,
    )
    assert "Say why the finding is dismissed." in response.content.decode()
    assert Review.objects.count() == 3
    response = client.post(
        reverse("audit:finding_list"), {"status": "confirmed", "classification": "dealer_error"}, follow=True
    )
    assert "Select at least one finding." in response.content.decode()
    # An open redirect is not followed.
    response = client.post(
        reverse("audit:finding_list"), {"ids": ids[:1], "status": "open", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("audit:finding_list")


def test_review_from_the_replay_page(people, audited):
    finding = Finding.objects.first()
    client = login(people.auditor)
    response = client.post(
        reverse("audit:finding_review", args=[finding.pk]),
        {"status": "dismissed", "classification": "player_dispute", "comment": "camera 4"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"#finding-{finding.pk}")
    finding.refresh_from_db()
    assert (finding.status, finding.classification) == ("dismissed", "player_dispute")
    page = client.get(reverse("audit:round_replay", args=[finding.round_id]))
    assert "camera 4" in page.content.decode()


# --- exports -------------------------------------------------------------------------------------


def csv_rows(response) -> list[list[str]]:
    import csv
    import io

    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xef\xbb\xbf")  # the byte-order mark: Excel reads the UTF-8 (issue #35)
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_the_findings_csv_carries_every_column_and_honours_the_filters(people, audited):
    client = login(people.auditor)
    response = client.get(reverse("audit:finding_csv"), {"impact": "under"})
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = csv_rows(response)
    header, body = rows[0], rows[1:]
    assert header[:3] == ["id", "played at", "pit"] and "player delta" in header and "message" in header
    under = Finding.objects.filter(player_delta__lt=0).order_by("-played_at", "-id")
    assert [int(row[0]) for row in body] == list(under.values_list("pk", flat=True))
    first = under.first()
    row = dict(zip(header, body[0]))
    assert row["code"] == first.code and row["table"] == "R-1" and row["dealer"] == "dealer-a"
    assert row["player delta"] == str(first.player_delta.normalize()) or row["player delta"] == __import__(
        "dealing.engine.money", fromlist=["fmt"]
    ).fmt(first.player_delta)
    assert row["round id"] == str(first.round.uid) and row["status"] == "open" and row["message"] == first.message
    assert client.get(reverse("audit:finding_csv"), {"date_to": "x"}).status_code == 400
    # A Russian reader's export says each finding in Russian (from its code and params), as the page does.
    from django.utils import translation

    from casino.finding_words import finding_text

    ru = csv_rows(client.get(reverse("audit:finding_csv"), {"impact": "under"}, HTTP_ACCEPT_LANGUAGE="ru"))
    ru_row = dict(zip(ru[0], ru[1]))
    with translation.override("ru"):
        said = finding_text(first)
    assert said != first.message and ru_row["сообщение"] == said


def test_the_dealer_error_rates_csv(people, floor, audited, log_rounds):
    log_rounds(floor.table_a, people.other_dealer, n=10, seed=52)  # clean rounds
    first = Finding.objects.filter(dealer=people.dealer).first()
    services.finding_review(
        finding_ids=[first.pk], auditor=people.auditor, status="confirmed", classification="dealer_error"
    )
    rows = csv_rows(login(people.auditor).get(reverse("audit:dealer_rates_csv"), {"days": 7}))
    header, body = rows[0], {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert header[5] == "errors per 100 rounds"
    a, b = body["dealer-a"], body["dealer-b"]
    findings = Finding.objects.filter(dealer=people.dealer).count()
    assert a["rounds audited"] == "40" and a["findings"] == str(findings)
    assert a["errors per 100 rounds"] == f"{findings * 100 / 40:.2f}"
    assert a["confirmed dealer errors"] == "1" and a["confirmed dealer errors per 100 rounds"] == "2.50"
    assert b["rounds audited"] == "10" and b["errors per 100 rounds"] == "0.00"
    assert list(body) == ["dealer-a", "dealer-b"]  # worst first


# --- the dashboard ---------------------------------------------------------------------------------


def test_the_dashboard_adds_up_rounds_findings_and_money(people, audited):
    page = login(people.auditor).get(reverse("audit:dashboard"))
    d = page.context["d"]
    assert d["rounds"] == d["audited"] == 40 and d["pending"] == 0
    assert d["clean"] + d["with_findings"] + d["errors"] == 40
    findings = Finding.objects.all()
    assert d["findings"] == findings.count() == sum(row["n"] for row in d["by_code"])
    under = sum(f.player_delta for f in findings if f.player_delta and f.player_delta < 0)
    over = sum(f.player_delta for f in findings if f.player_delta and f.player_delta > 0)
    assert (d["under"], d["over"]) == (under, over)
    assert sum(day["under"] for day in d["by_day"]) == under and len(d["by_day"]) == 30
    assert [t["label"] for t in d["by_table"]] == ["R-1"] and d["by_dealer"][0]["label"] == "dealer-a"
    charts = json.loads(
        page.content.decode().split('id="audit-charts" type="application/json">')[1].split("</script>")[0]
    )
    assert sum(charts["byCode"]["values"]) == d["findings"]
    assert [Decimal(v) for v in charts["byTable"]["under"]] == [under]


def test_the_dashboard_period(people, audited):
    Round.objects.update(played_at=timezone.now() - timedelta(days=20))
    Finding.objects.update(played_at=timezone.now() - timedelta(days=20))
    rollups.rebuild()  # the rows were moved behind the services' back: the rollups follow by a rebuild
    client = login(people.auditor)
    assert client.get(reverse("audit:dashboard"), {"days": 7}).context["d"]["rounds"] == 0
    assert client.get(reverse("audit:dashboard"), {"days": 30}).context["d"]["rounds"] == 40
    day = (timezone.localdate() - timedelta(days=20)).isoformat()
    page = client.get(reverse("audit:dashboard"), {"from": day, "to": day})
    assert page.context["d"]["rounds"] == 40 and len(page.context["d"]["by_day"]) == 1
    assert client.get(reverse("audit:dashboard"), {"days": "lots", "from": "garbage"}).status_code == 200
    # Dismissed findings move no money.
    Finding.objects.update(status="dismissed")
    rollups.rebuild()
    d = client.get(reverse("audit:dashboard"), {"days": 30}).context["d"]
    assert d["under"] == d["over"] == 0 and d["dismissed"] == d["findings"]


# --- runs and shoes ----------------------------------------------------------------------------------


def test_starting_a_run_from_the_page_and_following_it(people, floor, audited, django_capture_on_commit_callbacks):
    client = login(people.auditor)
    assert "Start a run" in client.get(reverse("audit:run_list")).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("audit:run_list"), {"scope": "all", "tables": [floor.table_a.pk]})
    run = AuditRun.objects.get()
    assert response["Location"] == reverse("audit:run_detail", args=[run.pk])
    assert run.status == "done" and run.rounds_done == 40 and list(run.tables.all()) == [floor.table_a]
    detail = client.get(reverse("audit:run_detail", args=[run.pk])).content.decode()
    assert "100%" in detail and "hx-get" not in detail  # finished: no more polling
    # A run still going re-reads its progress on each of its live events (and every 5 s without them).
    AuditRun.objects.filter(pk=run.pk).update(status="running", rounds_done=10)
    partial = client.get(reverse("audit:run_progress", args=[run.pk]))
    html = partial.content.decode()
    assert (
        f'hx-get="{reverse("audit:run_progress", args=[run.pk])}"' in html
        and 'hx-trigger="live:audit_run from:body, every 5s"' in html
    )
    assert 'aria-valuenow="25"' in html and partial["Cache-Control"] == "no-store"
    assert "<html" not in html  # a fragment, swapped in place
    # Bad dates: the form says so; nothing starts.
    response = client.post(
        reverse("audit:run_list"), {"scope": "all", "date_from": "2026-05-02", "date_to": "2026-05-01"}
    )
    assert response.status_code == 200 and response.context["form"].errors and AuditRun.objects.count() == 1
    response = client.post(reverse("audit:run_rerun", args=[run.pk]))
    assert AuditRun.objects.count() == 2


def test_the_shoe_page(people, floor, log_rounds, eager, django_capture_on_commit_callbacks):
    from dealing import services as dealing_services

    shoe = dealing_services.shoe_start(table=floor.table_a, shuffled_by=people.dealer)
    dealing_services.shoe_burn(shoe=shoe, card="9H", reason="load", recorded_by=people.dealer)
    log_rounds(floor.table_a, people.dealer, n=2, seed=61)
    client = login(people.auditor)
    page = client.get(reverse("audit:shoe_detail", args=[shoe.pk]))
    assert "not checked yet" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("audit:shoe_audit", args=[shoe.pk]))
    assert response.status_code == 302
    page = client.get(reverse("audit:shoe_detail", args=[shoe.pk]))
    assert [f.code for f in page.context["findings"]] == ["BURN_COUNT"]
    kinds = [item.kind for item in page.context["items"]]
    assert kinds.count("round") == 2 and "burn" in kinds
    assert page.context["items"][0].index == 0


def test_the_admin_shows_audit_records_read_only(people, audited, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = services.audit_run_start(only_unaudited=False, chunk_size=10)
    client = login(people.admin)
    finding = Finding.objects.first()
    services.finding_review(
        finding_ids=[finding.pk], auditor=people.auditor, status="confirmed", classification="dealer_error"
    )
    for url in (
        reverse("admin:audit_finding_changelist"),
        reverse("admin:audit_finding_change", args=[finding.pk]),
        reverse("admin:audit_review_changelist"),
        reverse("admin:audit_auditrun_changelist"),
        reverse("admin:audit_auditrun_change", args=[run.pk]),
        reverse("admin:audit_shoeaudit_changelist"),
    ):
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("admin:audit_finding_add")).status_code == 403


def test_the_replay_links_the_revisions_of_a_corrected_round(people, floor, log_rounds, eager):
    [(record, _sim)] = log_rounds(floor.table_a, people.dealer, n=1, seed=8, mistake_rate=1.0, kinds=["wrong_amount"])
    amendment = Round.objects.create(
        uid=record.uid,
        table=record.table,
        dealer=record.dealer,
        variant=record.variant,
        house_rules=record.house_rules,
        table_min=record.table_min,
        table_max=record.table_max,
        document=record.document,
        chain_index=record.chain_index + 1,
        sha256="f" * 64,
        prev_sha256=record.sha256,
        revision=2,
        supersedes=record,
        logged_by=people.pit_boss,
        status="pending",
    )
    html = login(people.auditor).get(reverse("audit:round_replay", args=[record.pk])).content.decode()
    assert reverse("audit:round_replay", args=[amendment.pk]) in html and "revision 2" in html


def test_paging_skips_no_finding_and_repeats_none_while_findings_are_added(people, audited, monkeypatch):
    """Issue 17: between two page loads the audit adds findings — newer ones (a round just logged),
    ones at the very time of the page's last row, and an old one (a late re-audit). Walking "older"
    shows every finding that was there once, in order, and the old one in its place."""
    client = login(people.auditor)
    monkeypatch.setattr("audit.views.PAGE_SIZE", 4)
    before = list(Finding.objects.order_by("-played_at", "-id").values_list("pk", flat=True))
    template = Finding.objects.exclude(round=None).first()
    added = 0

    def add(played_at):
        nonlocal added
        added += 1
        Finding.objects.create(
            round=template.round,
            table=template.table,
            dealer=template.dealer,
            played_at=played_at,
            code=template.code,
            severity=template.severity,
            message="added between page loads",
            engine_version="t",
            fingerprint=f"added-{added}",
        )

    seen, params, late = [], {}, None
    while True:
        page = client.get(reverse("audit:finding_list"), params).context["page"]
        seen += [f.pk for f in page]
        if not page.older:
            break
        last = page.object_list[-1]
        add(timezone.now())  # newer than every page
        add(last.played_at)  # a tie with the page's last row (a larger id: "newer" than it)
        if late is None:
            late = Finding.objects.get(pk=before[-1]).played_at - timedelta(seconds=1)
            add(late)  # older than every page still to come
        params = {"older": page.older}
    assert len(seen) == len(set(seen))
    late_pk = Finding.objects.get(played_at=late, message="added between page loads").pk
    assert seen == before + [late_pk]
