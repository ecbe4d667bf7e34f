"""Fuzzing POST /api/v1/rounds/: random JSON, mutated valid rounds, broken bytes. Never a 500, always
the one error shape, and nothing stored unless the answer is 201."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing.models import Round, Shoe, ShoeEvent, Stake
from tests.dealing.conftest import deal_round, to_json

pytestmark = pytest.mark.django_db

ROUNDS = "/api/v1/rounds/"
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

WORDS = [
    "format",
    "round/1",
    "variant",
    "ochko",
    "blackjack",
    "table",
    "name",
    "R-1",
    "min",
    "max",
    "rules",
    "stakes",
    "events",
    "id",
    "box",
    "player",
    "ante",
    "bet",
    "dealer_bet",
    "dealer",
    "dealer1",
    "e",
    "deal",
    "to",
    "card",
    "AS",
    "TH",
    "stake",
    "1a",
    "wager",
    "amount",
    "pay",
    "take",
    "leave",
    "hit",
    "stand",
    "open",
    "dark",
    "draw",
    "fold",
    "reveal",
    "burn",
    "incident",
    "shoe",
    "R-1/1",
    "7.50",
    "1e3",
    "\x00",
    "\ud800",
    "x" * 200,
]
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(WORDS),
)
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def _dumps(value) -> bytes:
    return json.dumps(value, ensure_ascii=True).encode()


def _counts():
    return (
        Round.objects.count(),
        Stake.objects.count(),
        ShoeEvent.objects.count(),
        list(Shoe.objects.values_list("next_position", flat=True)),
    )


def _check(client, body: bytes):
    before = _counts()
    response = client.post(ROUNDS, data=body, content_type="application/json")
    assert response.status_code in (200, 201, 400, 403, 409, 413, 422), (response.status_code, body[:300])
    data = response.json()
    if response.status_code == 422:  # a round that cannot have happened (issue #20 item 3), and only that
        assert data["extra"]["code"] == "impossible_round", body[:300]
    if response.status_code >= 400:
        assert set(data) == {"message", "extra"} and isinstance(data["message"], str) and data["message"]
    if response.status_code != 201:
        assert _counts() == before, body[:300]
    return response


@pytest.fixture
def client(api, staff, tables):
    from dealing import services

    services.shoe_start(table=tables.ochko, shuffled_by=staff.dealer)
    return api(staff.dealer)


@FUZZ
@given(value=values)
def test_random_json_never_breaks_the_server(client, value):
    _check(client, _dumps(value))


@FUZZ
@given(value=st.dictionaries(st.sampled_from(WORDS), values, max_size=8))
def test_random_objects_with_round_words_never_break_the_server(client, value):
    _check(client, _dumps({"format": "round/1", "variant": "ochko", "table": {"name": "R-1"}, **value}))


def _containers(doc, path=()):
    """Every (container, key) inside a document, for mutations."""
    if isinstance(doc, dict):
        for key, item in doc.items():
            yield doc, key
            yield from _containers(item)
    elif isinstance(doc, list):
        for i, item in enumerate(doc):
            yield doc, i
            yield from _containers(item)


@FUZZ
@given(
    seed=st.integers(0, 10_000),
    ops=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(["set", "delete", "append", "swap"]), values),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_valid_rounds_never_break_the_server(client, tables, seed, ops):
    doc = json.loads(to_json(deal_round(tables.ochko, seed=seed, rng=random.Random(seed))))
    for where, op, value in ops:
        spots = list(_containers(doc))
        container, key = spots[where % len(spots)]
        if op == "set":
            container[key] = value
        elif op == "delete":
            del container[key]
        elif op == "append" and isinstance(container[key], list):
            container[key].append(value)
        elif op == "swap" and isinstance(container, list) and len(container) > 1:
            other = where // 7 % len(container)
            container[key], container[other] = container[other], container[key]
    _check(client, _dumps(doc))


@FUZZ
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 10**6), junk=st.binary(max_size=12))
def test_broken_bytes_never_break_the_server(client, tables, seed, cut, junk):
    text = to_json(deal_round(tables.ochko, seed=seed, rng=random.Random(seed))).encode()
    at = cut % (len(text) + 1)
    _check(client, text[:at] + junk + text[at + (cut % 3) :])


@pytest.mark.parametrize(
    "body",
    [
        b"\xc3\x28",
        b"\xed\xa0\x80",
        b'{"format": "round/1", "player": "\xff"}',
        b"\x00" * 10,
        b'"\\ud800"',
        b"[" * 100_000,
        b'{"a":' * 5000 + b"1" + b"}" * 5000,
        b"1" * 5000,
        b"1e999999",
    ],
)
def test_invalid_utf8_and_pathological_json_are_refused(client, body):
    assert _check(client, body).status_code == 400


def test_every_valid_round_is_stored_exactly_once(client, tables):
    for seed in range(20):
        doc = deal_round(tables.ochko, seed=seed, rng=random.Random(seed))
        assert _check(client, to_json(doc).encode()).status_code == 201
        assert _check(client, to_json(doc).encode()).status_code == 200
    assert Round.objects.count() == 20


def test_an_oversized_body_is_refused_with_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    response = _check(client, b'{"format": "round/1", "pad": "' + b"x" * 20_000 + b'"}')
    assert response.status_code == 413 and response.json()["extra"]["code"] == "too_large"
