"""The importer hashes a round's document encoded once (`chain.canonical_json_with`): the link must be
the one `canonical_json` of the whole payload gives, byte for byte, or `verify_chain` would refuse
every imported round."""

import json
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from dealing import chain

_scalars = st.none() | st.booleans() | st.integers() | st.text() | st.floats(allow_nan=False)
_json = st.recursive(
    _scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20
)


@given(payload=st.dictionaries(st.text(), _json, max_size=8), data=st.data())
def test_a_payload_with_values_encoded_beforehand_encodes_as_the_whole(payload, data):
    names = data.draw(st.sets(st.sampled_from(sorted(payload))) if payload else st.just(set()))
    encoded = {name: chain.canonical_json(payload[name]) for name in names}
    assert chain.canonical_json_with(payload, encoded) == chain.canonical_json(payload)


@given(document=st.dictionaries(st.text(), _json, max_size=6), rules=st.dictionaries(st.text(), _json, max_size=3))
def test_a_round_link_with_its_document_encoded_beforehand_is_the_same(document, rules):
    payload = chain.record_payload(
        key_id="k1",
        table_id=3,
        chain_index=7,
        uid="00000000-0000-4000-8000-000000000001",
        revision=1,
        supersedes_sha256=None,
        amendment_reason="",
        shoe_id=None,
        position=None,
        number=None,
        dealer_id=2,
        logged_by_id=2,
        logged_at=datetime(2026, 1, 2, tzinfo=UTC),
        variant="ochko",
        house_rules=rules,
        table_min=Decimal(100),
        table_max=Decimal(5000),
        float_owed=Decimal("7.5"),
        float_logged=None,
        document=document,
        stakes_hmac="ab" * 32,
        prev_sha256="",
    )
    encoded = {"document": chain.canonical_json(document), "house_rules": chain.canonical_json(rules)}
    assert chain.link_digest(payload, b"key", encoded) == chain.link_digest(payload, b"key")


# What documents, stake rows and links are made of: json_safe leaves no float or Decimal.
_stored = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(10**60), max_value=10**60) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


def _standard(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@given(value=_stored)
def test_the_canonical_json_is_the_standard_librarys_byte_for_byte(value):
    """msgspec writes it; every link stored before it did was json.dumps' text, and must verify."""
    assert chain.canonical_json(value) == _standard(value)


def test_the_canonical_json_of_awkward_text_and_keys_is_the_standard_librarys():
    value = {"é": '\x00\x1f\x7f\n\t"\\ \u2028 😀', "A": [10**70, -1, True, None], "a": {}, "": []}
    assert chain.canonical_json(value) == _standard(value)
    numbered = {10: "ten", 9: "nine"}  # json.dumps sorts number keys as numbers: the standard library writes it
    assert chain.canonical_json(numbered) == _standard(numbered) == '{"9":"nine","10":"ten"}'


_MONEY = 10**12


@given(
    value=st.decimals(min_value=-_MONEY, max_value=_MONEY, allow_nan=False, allow_infinity=False)
    | st.integers(min_value=-_MONEY, max_value=_MONEY)
    | st.floats(min_value=-_MONEY, max_value=_MONEY)
)
def test_a_money_column_of_a_decimal_is_the_one_of_its_text(value):
    """money_column takes a Decimal as it is (no str() round trip): the same column value, digit for digit."""
    expected = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert str(chain.money_column(value)) == str(expected)
