"""Lists bounded by what they show (issue #33 item 1): the stakes API pages by key, the newest
round's stakes first, with no count; a `limit`/`offset` page counts at most COUNT_CAP rows; the
number of statements a page runs does not grow with the rows stored, and none counts the table."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.audit import load_rounds
from casino import pagination
from dealing.models import Stake

pytestmark = pytest.mark.django_db

STAKES = "/api/v1/stakes/"


def _load(table, dealer, n, seed):
    for _batch in load_rounds(table=table, dealer=dealer, n=n, seed=seed, with_stakes=True, mistake_rate=0):
        pass


def _walk(client, url, params, link="next"):
    """Every page from `url` following `link`: the rows' ids in order, and the pages' statements."""
    ids, statements = [], []
    response = client.get(url, params)
    while True:
        assert response.status_code == 200, response.content
        body = response.json()
        assert "count" not in body
        ids += [row["id"] for row in body["results"]]
        if not body[link]:
            return ids, statements, body
        with CaptureQueriesContext(connection) as queries:
            response = client.get(body[link])
        statements.append([q["sql"] for q in queries.captured_queries])


def _counts_everything(sql: str) -> bool:
    return "COUNT(" in sql.upper() and "LIMIT" not in sql.upper()


def test_the_stakes_api_pages_every_stake_once_forward_and_back(api, staff, tables):
    _load(tables.ochko, staff.dealer, 12, seed=3)
    client = api(staff.auditor)
    want = list(Stake.objects.order_by("-round_id", "pk").values_list("pk", flat=True))
    assert len(want) > 20
    forward, statements, last = _walk(client, STAKES, {"limit": 7, "older": ""})
    assert forward == want  # every stake once, the newest round's first, each round's in order
    assert not [sql for page in statements for sql in page if _counts_everything(sql)]
    # Back from the last page by `previous`: the same rows, page by page.
    back, _statements, first = _walk(client, last["previous"], {}, link="previous")
    everything = back + [row["id"] for row in last["results"]]
    assert len(everything) == len(want) and set(everything) == set(want)
    assert first["previous"] is None and first["next"]
    # The table's filter and a bad key.
    ochko_b = client.get(STAKES, {"table": tables.ochko_b.pk}).json()
    assert ochko_b["results"] == [] and ochko_b["next"] is None
    response = client.get(STAKES, {"older": "12-x"})
    assert response.status_code == 400 and "older" in response.json()["extra"]["fields"]
    assert client.get(STAKES, {"at": "2026-12-01"}).status_code == 400


def test_a_stakes_page_runs_as_many_statements_at_three_times_the_rows(api, staff, tables):
    client = api(staff.pitboss)
    _load(tables.ochko, staff.dealer, 10, seed=5)
    client.get(STAKES)  # the session's first request (its one-time reads) is not the page's
    with CaptureQueriesContext(connection) as small:
        page = client.get(STAKES, {"limit": 5, "older": ""}).json()
        client.get(page["next"])
    _load(tables.ochko, staff.dealer, 20, seed=6)
    with CaptureQueriesContext(connection) as big:
        page = client.get(STAKES, {"limit": 5, "older": ""}).json()
        client.get(page["next"])
    assert len(big.captured_queries) <= len(small.captured_queries)
    assert not [q["sql"] for q in big.captured_queries if _counts_everything(q["sql"])]


@pytest.mark.parametrize("url", [STAKES, "/api/v1/rounds/"])
def test_an_offset_page_counts_up_to_the_cap(api, staff, tables, monkeypatch, url):
    _load(tables.ochko, staff.dealer, 8, seed=7)
    monkeypatch.setattr(pagination, "COUNT_CAP", 4)
    client = api(staff.auditor)
    with CaptureQueriesContext(connection) as queries:
        body = client.get(url, {"offset": 0, "limit": 2}).json()
    assert body["count"] == 4 and body["count_capped"] is True and body["next"]
    assert not [q["sql"] for q in queries.captured_queries if _counts_everything(q["sql"])]
    # Deeper than the cap: counted to the end of the page asked for, the next page still linked.
    deep = client.get(url, {"offset": 4, "limit": 2}).json()
    assert deep["count"] == 7 and deep["count_capped"] is True and deep["next"]
    # The last page: counted exactly, nothing next.
    rows = (Stake if url == STAKES else __import__("dealing.models").models.Round).objects.count()
    end = client.get(url, {"offset": rows - 1, "limit": 2}).json()
    assert end["count"] == rows and "count_capped" not in end and end["next"] is None
    assert len(end["results"]) == 1
