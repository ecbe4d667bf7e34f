"""The player evaluation page, its API and exports (books/protection/): who sees what, and figures
that agree with the stakes as stored."""

import io
import json
import random
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from casino.models import Table
from dealing.engine.blackjack.simulator import simulate_shoe
from dealing.engine.ochko import simulator as ochko_simulator
from dealing.models import Shoe, ShoeEvent, Stake
from dealing.services.bulk import rounds_import
from tests.factories import TableFactory

PLAYER = "P-watched"


def _load(table: Table, dealer, shoes: list[list[dict]], decks: int) -> None:
    """Store `shoes` (each a list of round/1 documents, in the order dealt) at `table` as shoes 1, 2, …"""
    for number, rounds in enumerate(shoes, start=1):
        shoe = Shoe.objects.create(table=table, number=number, decks=decks, shuffled_by=dealer, next_position=2)
        ShoeEvent.objects.create(shoe=shoe, position=1, kind="shuffle", recorded_by=dealer)
        lines = []
        for doc in rounds:
            doc["table"] = {**doc["table"], "name": table.name}
            doc["dealer"] = dealer.username
            doc["shoe"] = f"{table.name}/{number}"
            lines.append(json.dumps(doc, default=str).encode())
        summary = rounds_import(lines, logged_by=dealer)
        assert summary.stored == len(rounds), summary


def _blackjack_shoes(seed: int, rounds: int) -> list[list[dict]]:
    doc = simulate_shoe(
        random.Random(seed), rounds=rounds, preset="salon", table_min=100, table_max=5000, boxes=(2, 4), errors=0.2
    )
    shoes: list[list[dict]] = []
    for item in doc["items"]:
        if item["e"] == "shuffle":
            shoes.append([])
        else:
            shoes[-1].append(item["round"])
    for rounds_ in shoes:
        for doc in rounds_:
            for stake in doc["stakes"]:
                if stake["box"] == 1:
                    stake["player"] = PLAYER
    return shoes


def _ochko_shoe(seed: int) -> list[dict]:
    rng = random.Random(seed)
    shoe = ochko_simulator.new_shoe(rng)
    rounds = []
    while len(shoe) > 60:
        doc = ochko_simulator.simulate_round(
            rng, number=len(rounds), shoe=shoe, play="optimal", incidents=0.0, approver="pitboss-b"
        ).doc
        doc["stakes"][0]["player"] = PLAYER
        rounds.append(doc)
    return rounds


@pytest.fixture
def watched(crew, floor, make_user):
    """PLAYER at a blackjack table of Pit A (two shoes) and at the ochko table of Pit B (one shoe)."""
    bj = TableFactory(
        name="BJ-1", pit=floor.pit_a, variant="blackjack", rules={"preset": "salon"}, boxes=5, chips=["100", "500"]
    )
    dealer_b = make_user("dealer", pits=[floor.pit_b], username="dealer-b")
    _load(bj, crew.dealer, _blackjack_shoes(38, 90), decks=6)
    _load(floor.table_b, dealer_b, [_ochko_shoe(38)], decks=8)
    return bj


def _rounds_of(**where) -> int:
    return Stake.objects.filter(player=PLAYER, **where).values("round").distinct().count()


def _api(client, **params):
    return client.get(reverse("api:books:player-evaluation", args=[PLAYER]), params)


# --- who sees what ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["dealer", "inspector", "trainee"])
def test_floor_staff_and_trainees_are_refused(role, client_for, watched):
    client = client_for(role)
    assert client.get(reverse("books:player_evaluation", args=[PLAYER])).status_code == 403
    assert _api(client).status_code == 403


def test_anonymous_is_sent_to_log_in_and_refused_by_the_api(client_for, watched):
    client = client_for(None)
    page = client.get(reverse("books:player_evaluation", args=[PLAYER]))
    assert page.status_code == 302 and "login" in page["Location"]
    assert _api(client).status_code in (401, 403)


def test_each_reader_sees_the_rounds_of_his_pits(crew, watched, floor):
    bj_rounds = _rounds_of(round__table=watched)
    ochko_rounds = _rounds_of(round__table=floor.table_b)
    assert bj_rounds > 30 and ochko_rounds > 5
    seen = {}
    for name, user in (("auditor", crew.auditor), ("pit A", crew.pit_boss), ("pit B", crew.outsider)):
        client = Client()
        client.force_login(user)
        got = _api(client)
        assert got.status_code == 200, got.content
        seen[name] = got.json()["rounds"]
    assert seen == {"auditor": bj_rounds + ochko_rounds, "pit A": bj_rounds, "pit B": ochko_rounds}


def test_a_pit_boss_of_another_pit_finds_no_such_player(client_for, crew, watched, floor):
    # Only Pit A's rounds carry this name: for Pit B's pit boss it does not exist.
    Stake.objects.filter(round__table=floor.table_b, player=PLAYER).update(player="P-other")
    client = Client()
    client.force_login(crew.outsider)
    assert client.get(reverse("books:player_evaluation", args=[PLAYER])).status_code == 404
    assert _api(client).status_code == 404


# --- the figures -----------------------------------------------------------------------------------------


def test_the_edge_is_the_stored_results_over_the_stored_wagers(client_for, watched):
    data = _api(client_for("auditor")).json()
    stakes = Stake.objects.filter(player=PLAYER).select_related("round")
    net = sum((s.owed_net for s in stakes), Decimal(0))
    # What he put down before the cards decided: blackjack's initial bet (as the round's stake names
    # it; the stored column adds the split hands' bets), Ochko's Ante and Bet.
    wagered = Decimal(0)
    for s in stakes:
        if s.round.variant == "blackjack":
            [logged] = [x for x in s.round.document["stakes"] if x["id"] == s.stake_id]
            wagered += Decimal(str(logged["bet"]))
        else:
            wagered += s.ante + (s.bet or 0)
    assert Decimal(data["net"]) == net and Decimal(data["wagered"]) == wagered
    assert data["edge"] == pytest.approx(100 * float(net / wagered), abs=1e-9)
    assert data["edge_low"] < data["edge"] < data["edge_high"]
    # The simulated player departs from basic strategy now and then: the deviations are there and cost him.
    assert data["deviations"] > 0 and Decimal(data["ev_given_up"]) > 0
    assert data["decisions"] > data["deviations"]
    assert (
        len(data["deviation_list"]) == min(data["deviations"] + data["insurance_offered"], 500)
        or data["deviation_list"]
    )
    assert all(d["chosen"] != d["optimal"] for d in data["deviation_list"])


def test_a_malformed_period_is_refused_naming_it(client_for, watched):
    got = _api(client_for("auditor"), **{"from": "2026-13-45"})
    assert got.status_code == 400
    assert "from" in got.content.decode()


# --- the page and the exports ----------------------------------------------------------------------------


def test_the_page_shows_the_chart_the_decisions_and_pages_the_rounds(client_for, watched):
    client = client_for("auditor")
    page = client.get(reverse("books:player_evaluation", args=[PLAYER]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<svg" in html and "<circle" in html and 'data-testid="edge"' in html
    assert html.count('href="/rounds/') >= 50  # the first page of rounds (and the deviations' rounds)
    older = page.context["page"].older
    assert older
    second = client.get(reverse("books:player_evaluation", args=[PLAYER]), {"older": older})
    first_ids = {r.pk for r, _p in page.context["rounds"]}
    second_ids = {r.pk for r, _p in second.context["rounds"]}
    assert second_ids and not first_ids & second_ids
    assert "style=" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]  # CSP: no inline style in the chart


def test_the_exports_hold_every_round_and_every_decision(client_for, watched):
    client = client_for("auditor")
    url = reverse("books:player_evaluation", args=[PLAYER])
    rounds = client.get(url, {"export": "rounds"})
    assert rounds["Content-Type"].startswith("text/csv")
    lines = b"".join(rounds.streaming_content).decode("utf-8-sig").strip().splitlines()
    assert len(lines) == 1 + _rounds_of()

    from openpyxl import load_workbook

    book = client.get(url, {"export": "decisions", "format": "xlsx"})
    sheet = load_workbook(io.BytesIO(b"".join(book.streaming_content)), read_only=True).active
    rows = list(sheet.iter_rows(values_only=True))
    data = _api(client).json()
    assert len(rows) == 1 + data["decisions"] + data["insurance_offered"]


def test_the_pdf_files_the_figures(client_for, watched):
    pytest.importorskip("weasyprint")
    got = client_for("auditor").get(reverse("books:player_evaluation", args=[PLAYER]), {"export": "pdf"})
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    assert got.content.startswith(b"%PDF") and len(got.content) > 5000


def test_a_rounds_stakes_link_the_players_evaluation_for_auditors_only(client_for, watched):
    stake = Stake.objects.filter(player=PLAYER, round__table=watched).first()
    link = reverse("books:player_evaluation", args=[PLAYER])
    url = reverse("dealing:round_detail", args=[stake.round_id])
    assert link in client_for("auditor").get(url).content.decode()
    assert link not in client_for("dealer").get(url).content.decode()


def test_the_page_and_the_api_evaluate_with_the_collector_paused_and_give_it_back(client_for, watched, monkeypatch):
    """A year's documents make no cycle: the collector is paused over the whole request, so that it
    never walks them, and running again once the request has dropped them (casino/collector.py)."""
    import gc

    from books.protection import views

    seen = []
    real = views.selectors.player_shoes

    def watching(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(views.selectors, "player_shoes", watching)
    client = client_for("auditor")
    assert gc.isenabled()
    assert client.get(reverse("books:player_evaluation", args=[PLAYER])).status_code == 200
    assert _api(client).status_code == 200
    assert client.get(reverse("books:player_evaluation", args=[PLAYER]), {"export": "rounds"}).status_code == 200
    assert seen == [False, False, False]
    assert gc.isenabled()
    # A failed request gives it back too.
    assert client.get(reverse("books:player_evaluation", args=["nobody-at-all"])).status_code == 404
    assert gc.isenabled()


def test_the_shoes_stream_in_the_order_of_their_ids_and_evaluate_as_the_whole_list_does(crew, floor, watched):
    """The player's shoes come one at a time in the order of their ids, each whole and in the order
    dealt, and the evaluation of the stream is the evaluation of the same shoes listed."""
    import datetime as dt
    from collections.abc import Iterator

    from django.utils import timezone

    from books.protection import selectors
    from dealing.engine import evaluation

    today = timezone.localdate()
    period = dict(date_from=today - dt.timedelta(days=365), date_to=today)
    stream = selectors.player_shoes(crew.auditor, PLAYER, **period)
    assert isinstance(stream, Iterator)
    listed = list(selectors.player_shoes(crew.auditor, PLAYER, **period))
    played = Shoe.objects.filter(rounds__stakes__player=PLAYER).distinct().order_by("pk")
    assert [log.key for log in listed] == [f"{s.table.name}/{s.number}" for s in played]
    assert listed[0].key == "BJ-1/1" and listed[-1].key == f"{floor.table_b.name}/1"
    for log in listed:
        shoe = Shoe.objects.get(table__name=log.table, number=int(log.key.rsplit("/", 1)[1]))
        dealt = shoe.rounds.order_by("position", "id").values_list("pk", flat=True)
        assert list(log.ids) == [str(pk) for pk in dealt]
    streamed = evaluation.evaluate(stream, player=PLAYER).summary()
    assert streamed == evaluation.evaluate(listed, player=PLAYER).summary()


@pytest.mark.timeout(90)  # an unclosed generator could leave its transaction open: fail fast, not hang
def test_an_evaluation_that_fails_midway_leaves_the_connection_ready_for_the_next_query(
    client_for, watched, monkeypatch
):
    """An evaluation that breaks off after its first shoe closes the generator of shoes (and the
    transaction it read them in), so that the error page, the next request and the next query all run."""
    from books.protection import views

    def first_shoe_only(shoes, *, player):
        next(iter(shoes))
        raise RuntimeError("the evaluation broke off")

    monkeypatch.setattr(views.evaluation, "evaluate", first_shoe_only)
    client = client_for("auditor")
    client.raise_request_exception = False
    assert client.get(reverse("books:player_evaluation", args=[PLAYER])).status_code == 500
    assert Stake.objects.filter(player=PLAYER).exists()  # the connection answers again
    monkeypatch.undo()
    assert client.get(reverse("books:player_evaluation", args=[PLAYER])).status_code == 200


def test_a_period_judges_only_its_rounds_while_the_earlier_ones_still_set_the_count(crew, watched):
    """A shoe that straddles the period's first day: the player's rounds before it are not judged,
    yet the cards they took out still count, so each round inside has the count it has over all time."""
    import datetime as dt

    from django.utils import timezone

    from books.protection import selectors
    from dealing.engine import evaluation
    from dealing.models import Round

    today = timezone.localdate()
    shoe = Shoe.objects.get(table=watched, number=2)
    dealt = list(shoe.rounds.order_by("position", "id").values_list("pk", flat=True))
    early = dealt[: len(dealt) // 2]
    Round.objects.filter(pk__in=early).update(played_at=timezone.now() - dt.timedelta(days=40))
    Round.objects.filter(shoe__table=watched, shoe__number=1).update(played_at=timezone.now() - dt.timedelta(days=40))

    def points(**period):
        shoes = selectors.player_shoes(crew.auditor, PLAYER, **period)
        return {p.round_id: p for p in evaluation.evaluate(shoes, player=PLAYER).rounds}

    always = points()
    recent = points(date_from=today - dt.timedelta(days=29), date_to=today)
    gone = {str(pk) for pk in early} | {
        str(pk) for pk in Round.objects.filter(shoe__table=watched, shoe__number=1).values_list("pk", flat=True)
    }
    assert set(recent) == set(always) - gone and set(always) & gone
    for rid, point in recent.items():
        assert point.true_count == always[rid].true_count and point.edge == always[rid].edge


def test_the_page_shows_the_latest_sessions_and_says_the_export_holds_them_all(client_for, watched, monkeypatch):
    from books.protection import views

    monkeypatch.setattr(views, "SESSIONS_SHOWN", 2)
    client = client_for("auditor")
    page = client.get(reverse("books:player_evaluation", args=[PLAYER])).content.decode()
    export = client.get(reverse("books:player_evaluation", args=[PLAYER]), {"export": "sessions"})
    every = b"".join(export.streaming_content).decode("utf-8-sig")
    total = len(every.strip().splitlines()) - 1
    assert total > 2
    assert f"The 2 latest of {total} sessions shown: the export holds every session." in page
    sessions = page.split('id="sessions-h"')[1].split("</table>")[0]
    assert sessions.count("<tr>") == 1 + 2  # the header and two sessions
    last = every.strip().splitlines()[-1].split(",")[0]
    assert last in sessions


def test_a_period_holding_every_round_of_his_shoes_reads_them_as_they_are(crew, watched):
    """No round of his in these shoes lies outside the period: the shoes are read as without a period
    (nothing to make anonymous), and judged the same."""
    import datetime as dt

    from django.utils import timezone

    from books.protection import selectors
    from dealing.engine import evaluation

    today = timezone.localdate()
    year = list(selectors.player_shoes(crew.auditor, PLAYER, date_from=today - dt.timedelta(days=365), date_to=today))
    always = list(selectors.player_shoes(crew.auditor, PLAYER))
    assert [(log.key, list(log.ids), list(log.rounds)) for log in year] == [
        (log.key, list(log.ids), list(log.rounds)) for log in always
    ]
    assert evaluation.evaluate(year, player=PLAYER).summary() == evaluation.evaluate(always, player=PLAYER).summary()
