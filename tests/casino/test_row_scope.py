"""The URL × role walk, extended to rows: a user of Pit A sees no row of Pit B in any list.

On the demo floor (rounds, shoes, findings, incidents at the tables of both pits; a game night at
Casa-21, Pit B) with a float shift and an integrity signal in each pit, every list page, export and
API list — every URL pattern of the project that takes no argument, or only a table (given Pit A's
R-1), the game math aside (it holds no floor row) — is requested with GET by a pit boss, an
inspector, a dealer and a trainee who work in Pit A only, and by an auditor. Pit B's identifiers
(its tables' names, its rounds' ids and uids, its own dealer's username) must never reach the Pit A
users, and must reach the auditor on the main lists: the walk proves that it looks at rows. The
rows themselves are scoped by `casino.scope.restrict`.
"""

import io
import json

import pytest
from django.test import Client
from pypdf import PdfReader

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, TRAINEE
from casino.scope import CHANGE, FLOOR, VIEW, RowScope, Who, restrict, scope_q, table_named
from tests.casino.test_url_roles import build_url, url_patterns, walk_floor  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

TABLE_ARGS = ("<table:name>", "<str:table>")
# Pages without rows: logging out (it ends the session), the API's schema and its docs.
NOT_LISTS = {"logout", "schema", "swagger-ui"}
# The game math holds no row of the floor (no pit, table, dealer or round: gamemath/access.py), and
# its first answers solve the games for minutes of CPU: the walk leaves it out.
NO_FLOOR_ROWS = ("gamemath:", "api:math-")
MATH_API = "/api/v1/math/"
# The drills read no row of the floor: their set-ups are named after the demo salon's tables
# (dealing/games/*/drills.py), so only a round's uid or a dealer's name would be a leak there.
TABLE_NAMES_ARE_SETUPS = ("drills:", "api:drill")
# Lists where the auditor must see Pit B: the walk would prove nothing if these showed no row.
AUDITOR_SEES_PIT_B = {
    "api:table-list",
    "api:round-list",
    "api:finding-list",
    "api:incident-list",
    "api:shoe-list",
    "casino:floor",
    "audit:finding_list",
    "audit:finding_csv",
    "dealing:table_list",
    "dealing:incident_list",
}


def _list_urls(objects) -> dict[str, str]:
    """Every GET URL of a list, page, export or API list: the patterns without an argument but a table's."""
    urls = {}
    for pattern in url_patterns():
        route = pattern.route
        for arg in TABLE_ARGS:
            route = route.replace(arg, "")
        if "<" in route or pattern.name in NOT_LISTS or pattern.name.startswith(("password_", *NO_FLOOR_ROWS)):
            continue
        urls[pattern.name] = build_url(pattern, objects)
    return urls


def _body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    if response.get("Content-Type", "").startswith("application/pdf"):
        # A PDF report is read as its text: Pit B's names must not be printed in it either.
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    return response.content.decode()


def _json_round_ids(payload, *, rounds: bool) -> set:
    """The round ids a JSON answer names: every `round` / `round_id` value, and every `id` of a round list."""
    found = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in ("round", "round_id") and isinstance(value, int):
                found.add(value)
            elif key == "id" and rounds and isinstance(value, int):
                found.add(value)
            else:
                found |= _json_round_ids(value, rounds=rounds)
    elif isinstance(payload, list):
        for item in payload:
            found |= _json_round_ids(item, rounds=rounds)
    return found


@pytest.fixture
def two_pits(walk_floor, make_user, django_capture_on_commit_callbacks):  # noqa: F811 - the fixture
    """The walk's floor, with people of Pit A only, a dealer of Pit B only, a shift and a signal in
    each pit, and rounds dealt at R-1 by Pit A's own dealer."""
    import datetime as dt

    from books import services as books
    from books.models import IntegritySignal
    from casino.models import Pit, Table
    from dealing.engine.simulators import simulate
    from dealing.models import Round
    from dealing.services import round_log

    users, objects = walk_floor
    pit_a, pit_b = Pit.objects.get(name="Pit A"), Pit.objects.get(name="Pit B")
    people = {
        PIT_BOSS: make_user(PIT_BOSS, pits=[pit_a], username="boss-a"),
        INSPECTOR: make_user(INSPECTOR, pits=[pit_a], username="inspector-a"),
        DEALER: make_user(DEALER, pits=[pit_a], username="dealer-a"),
        TRAINEE: make_user(TRAINEE, pits=[pit_a], username="trainee-a"),
    }
    dealer_b = make_user(DEALER, pits=[pit_b], username="dealer-pit-b")
    r1 = Table.objects.get(name="R-1")
    for sim in simulate("ochko", 3, seed=5, table_min=r1.min_bet, table_max=r1.max_bet):
        doc = dict(sim.doc)
        doc["table"] = {"name": r1.name, "min": doc["table"]["min"], "max": doc["table"]["max"]}
        doc["dealer"] = people[DEALER].get_username()
        with django_capture_on_commit_callbacks(execute=True):
            round_log(document=doc, logged_by=people[DEALER], table=r1)
    escribas = Table.objects.get(name="Escribas")
    books.shift_open(table=escribas, counted_by=users["dealer1"], counts={str(escribas.chips[0]): 10})
    IntegritySignal.objects.create(
        kind="lean",
        key=f"lean:d{dealer_b.pk}",
        dealer=dealer_b,
        table=escribas,
        period_start=dt.date(2026, 1, 1),
        period_end=dt.date(2026, 1, 31),
        statistic=0.9,
        p_value=0.0001,
        p_adjusted=0.001,
    )
    rounds_b = Round.objects.filter(table__pit=pit_b)
    assert rounds_b.exists() and Round.objects.filter(table__pit=pit_a).exists()
    pit_b_names = list(Table.objects.filter(pit=pit_b).values_list("name", flat=True))
    pit_b_marks = pit_b_names + [str(uid) for uid in rounds_b.values_list("uid", flat=True)] + [dealer_b.username]
    return users, objects, people, set(rounds_b.values_list("pk", flat=True)), (pit_b_names, pit_b_marks)


def _walk(user, urls, pit_b_ids, pit_b_marks) -> tuple[dict, list]:
    """GET every URL as `user`: {name: the Pit B identifiers it showed} for the answers he was admitted to
    (200), and what failed (a 5xx)."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    seen, errors = {}, []
    for name, url in urls.items():
        response = client.get(url)
        if response.status_code >= 500:
            errors.append(f"GET {url} ({name}): {response.status_code}")
        if response.status_code != 200:
            continue
        body = _body(response)
        table_names, every_mark = pit_b_marks
        marks = sorted(
            mark
            for mark in every_mark
            if mark in body and not (name.startswith(TABLE_NAMES_ARE_SETUPS) and mark in table_names)
        )
        if url.startswith("/api/") and response.get("Content-Type", "").startswith("application/json"):
            ids = _json_round_ids(json.loads(body), rounds=url.rstrip("/").endswith("/rounds"))
            marks += sorted(f"round {pk}" for pk in ids & pit_b_ids)
        seen[name] = marks
    return seen, errors


def test_a_user_of_pit_a_sees_no_row_of_pit_b_in_any_list_page_export_or_api_list(two_pits):
    users, objects, people, pit_b_ids, pit_b_marks = two_pits
    urls = _list_urls(objects)
    assert len(urls) > 40 and {"api:round-list", "audit:finding_csv", "dealing:incident_list"} <= set(urls)

    auditor_seen, errors = _walk(users["auditor1"], urls, pit_b_ids, pit_b_marks)
    assert not errors, "\n".join(errors)
    shown = {name for name, marks in auditor_seen.items() if marks}
    assert AUDITOR_SEES_PIT_B <= shown, f"the auditor should see Pit B in {sorted(AUDITOR_SEES_PIT_B - shown)}"

    leaks, admitted = [], {}
    for role, user in people.items():
        seen, errors = _walk(user, urls, pit_b_ids, pit_b_marks)
        assert not errors, "\n".join(errors)
        admitted[role] = len(seen)
        leaks += [
            f"{role} of Pit A: {urls[name]} ({name}) shows {', '.join(marks[:5])}"
            for name, marks in seen.items()
            if marks
        ]
    assert not leaks, "\n".join(leaks)
    # Each of them was let into pages of his role (the walk did not only collect refusals).
    assert all(n >= 3 for n in admitted.values()), admitted


def test_the_row_walk_takes_every_list_of_the_api_schema():
    """Every GET of the OpenAPI schema without a path parameter (the game math's aside) is among the
    walk's URLs."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    lists = {
        path
        for path, operations in schema["paths"].items()
        if "get" in operations and "{" not in path and not path.startswith(MATH_API)
    }
    walked = set(_list_urls({"table": "R-1"}).values())
    assert len(lists) > 10
    assert lists <= walked, f"not walked: {sorted(lists - walked)}"


def test_pit_a_people_cannot_open_a_row_of_pit_b(two_pits):
    """The details behind the lists: a Pit B round, shoe, incident, night, shift and signal answer
    403 or 404 to Pit A's pit boss (the auditor opens them)."""
    from audit.models import Finding
    from books.models import IntegritySignal, TableShift
    from dealing.models import Incident, Round, Shoe
    from ledger.models import GameSession

    users, objects, people, pit_b_ids, pit_b_marks = two_pits
    in_b = {"table__pit__name": "Pit B"}
    pit_b = dict(
        objects,
        round=Round.objects.filter(**in_b).first(),
        shoe=Shoe.objects.filter(**in_b).first(),
        incident=Incident.objects.filter(**in_b).first(),
        session=GameSession.objects.filter(**in_b).first(),
        shift=TableShift.objects.filter(**in_b).first(),
        signal=IntegritySignal.objects.filter(**in_b).first(),
        finding=Finding.objects.filter(**in_b).first(),
    )
    assert all(pit_b[k] is not None for k in ("round", "shoe", "incident", "session", "shift", "signal", "finding"))
    names = [
        "dealing:round_detail",
        "audit:round_replay",
        "audit:shoe_detail",
        "api:round-detail",
        "api:incident-detail",
        "api:shoe-detail",
        "api:finding-detail",
        "ledger:session_detail",
        "api:ledger:session-ledger",
        "books:shift_detail",
        "api:books:shift-books",
        "books:report_shift",
        "books:signal_detail",
        "api:books:signal-detail",
    ]
    patterns = {p.name: p for p in url_patterns()}
    missing = [n for n in names if n not in patterns]
    assert not missing, missing
    boss, auditor = Client(), Client()
    boss.force_login(people[PIT_BOSS])
    auditor.force_login(users["auditor1"])
    for name in names:
        url = build_url(patterns[name], pit_b)
        assert boss.get(url).status_code in (403, 404), f"{url} ({name}) opened for Pit A's pit boss"
        assert auditor.get(url).status_code == 200, f"{url} ({name}) refused to the auditor"


# --- the mechanism itself ----------------------------------------------------------------------------


def test_restrict_follows_each_models_declaration(floor, make_user):
    from dealing.models import Round, Shoe

    boss = make_user(PIT_BOSS, pits=[floor.pit_a])
    dealer = make_user(DEALER, pits=[floor.pit_a])
    auditor = make_user(AUDITOR)
    nobody = make_user(None, pits=[floor.pit_a])
    tables = lambda user, action=VIEW: set(restrict(floor.table_a.__class__.objects, user, action))  # noqa: E731
    assert tables(boss) == tables(nobody) == {floor.table_a}  # anyone sees his pits' tables
    assert tables(auditor) == {floor.table_a, floor.table_b}
    assert str(scope_q(Round, dealer)) == str(scope_q(Round, dealer, VIEW))
    assert "dealer" in str(scope_q(Round, dealer)) and "pit" not in str(scope_q(Round, dealer))
    assert "pit" in str(scope_q(Shoe, dealer))  # dealers see their pits' shoes
    assert not restrict(Round.objects, nobody).exists()
    assert scope_q(Round, auditor, CHANGE) == scope_q(Round, nobody, CHANGE)  # auditors decide nothing
    assert scope_q(Round, auditor, FLOOR) == scope_q(Round, auditor)  # every pit
    assert table_named(boss, "R-1") == floor.table_a and table_named(boss, "R-2") is None
    assert table_named(boss, str(floor.table_a.pk), by_pk=True) == floor.table_a
    with pytest.raises(ValueError):
        restrict(Round.objects, boss, "delete")
    with pytest.raises(ValueError):
        Who(pits=("croupier",))
    with pytest.raises(TypeError):
        restrict(floor.pit_a.__class__.objects, boss)
    pits_of_staff = RowScope(pit="staff__pits", owner="pk", view=Who(pits=(PIT_BOSS,), own=()), distinct=True)
    from django.contrib.auth import get_user_model

    assert set(restrict(get_user_model().objects, boss, scope=pits_of_staff)) == {boss, dealer, nobody}
