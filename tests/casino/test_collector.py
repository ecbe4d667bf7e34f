"""casino/collector.py: the collector paused over a block or a function, given back after it —
after an error too — and an outer pause left as it was."""

import gc

import pytest

from casino import collector


def test_a_pause_gives_the_collector_back_even_after_an_error():
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector.paused():
        raise ValueError("the block failed")
    assert gc.isenabled()


def test_a_paused_function_pauses_each_call_and_an_outer_pause_is_left_as_it_was():
    @collector.paused()
    def inside():
        return gc.isenabled()

    assert inside() is False and gc.isenabled()
    assert inside() is False and gc.isenabled()  # each call its own pause
    gc.disable()
    try:
        assert inside() is False
        assert not gc.isenabled()  # the caller's own pause is not ended by the inner one
    finally:
        gc.enable()
