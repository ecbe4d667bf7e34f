"""Bad input never raises anything but the engine's own error type."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealing import engine
from dealing.engine import RoundError
from dealing.engine.simulators import simulate

from .test_properties import VARIANTS

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**18) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def must_not_crash(call, *args):
    try:
        call(*args)
    except RoundError as error:
        assert error.code and error.message


@FUZZ
@given(value=json_values)
def test_arbitrary_json_values(value):
    for call in (engine.settle, engine.next_events):
        must_not_crash(call, value)


@FUZZ
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_arbitrary_text_and_bytes(text):
    must_not_crash(engine.settle, text)


def _paths(value, prefix=()):
    """Every place in a document where a value can be swapped."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _paths(item, prefix + (k,))


def _replace(doc, path, new):
    if not path:
        return new
    out = copy.deepcopy(doc)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_a_valid_log_with_one_value_swapped(variant, data, seed):
    doc = json.loads(json.dumps(next(simulate(variant, 1, seed=seed)).doc, default=str))
    paths = list(_paths(doc))
    path = data.draw(st.sampled_from(paths))
    new = data.draw(json_values | st.sampled_from(["AS", "1a", "dealer", "pay", "bet", 0, -1, 7, "1e3", "0.001"]))
    mutated = _replace(doc, path, new)
    must_not_crash(engine.settle, mutated)
    must_not_crash(engine.next_events, mutated)


@pytest.mark.parametrize("variant", VARIANTS)
@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_a_valid_log_with_events_dropped_duplicated_or_shuffled(variant, data, seed):
    doc = json.loads(json.dumps(next(simulate(variant, 1, seed=seed)).doc, default=str))
    events = doc["events"]
    order = data.draw(st.lists(st.integers(0, len(events) - 1), max_size=len(events) + 3))
    doc["events"] = [copy.deepcopy(events[k]) for k in order]
    must_not_crash(engine.settle, doc)
    must_not_crash(engine.next_events, doc)


@FUZZ
@given(value=json_values)
def test_arbitrary_shoe_documents_and_house_rules(value):
    """The engine's other doors: shoe checks and a table's house rules."""
    must_not_crash(engine.check_shoe, value)
    for variant in VARIANTS:
        must_not_crash(engine.house_rules, variant, value)


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_a_valid_shoe_with_one_value_swapped(data, seed):
    import random

    from dealing.engine.ochko.simulator import simulate_shoe

    doc = json.loads(json.dumps(simulate_shoe(random.Random(seed), rounds=3), default=str))
    path = data.draw(st.sampled_from([p for p in _paths(doc) if "events" not in p]))
    new = data.draw(json_values | st.sampled_from(["AS", "paid", "load", "dealer_change", "burn", 0, -1, "1e3"]))
    must_not_crash(engine.check_shoe, _replace(doc, path, new))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("blank", ["", "  "])
def test_a_blank_card_is_refused_with_its_event(variant, blank):
    """Found by a long fuzzing run: a blank card reached code that reads a card's first letter."""
    doc = json.loads(json.dumps(next(simulate(variant, 1, seed=3)).doc, default=str))
    k = next(k for k, ev in enumerate(doc["events"]) if "card" in ev and ev["e"] == "deal")
    doc["events"][k]["card"] = blank
    with pytest.raises(RoundError) as refused:
        engine.settle(doc)
    assert (refused.value.code, refused.value.event, refused.value.path) == ("bad_value", k, f"$.events[{k}].card")
    assert "must not be empty" in refused.value.message
