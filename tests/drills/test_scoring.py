"""Bands at their boundaries, streaks, pace."""

from decimal import Decimal

import pytest

from drills import scoring


@pytest.mark.parametrize(
    "accuracy, band",
    [
        ("100", "excellent"),
        ("95", "excellent"),
        ("94.99", "great"),
        ("94", "great"),
        ("85", "great"),
        ("84.99", "good"),
        ("75", "good"),
        ("74.9", "fair"),
        ("60", "fair"),
        ("59.99", "needs_practice"),
        ("0", "needs_practice"),
    ],
)
def test_bands_at_the_boundaries(accuracy, band):
    assert scoring.band(Decimal(accuracy)).key == band


def test_band_from_counts_is_exact():
    # 19 of 20 is exactly 95 %: Excellent; 94 of 99 is 94.949… %: Great, not rounded up.
    assert scoring.band(scoring.accuracy(19, 20)).key == "excellent"
    assert scoring.band(scoring.accuracy(94, 99)).key == "great"
    assert scoring.accuracy(2, 3) == Decimal(200) / Decimal(3)
    assert scoring.rounded(scoring.accuracy(2, 3)) == Decimal("66.7")
    assert scoring.band(None) is None
    assert scoring.accuracy(0, 0) is None


@pytest.mark.parametrize(
    "flags, current, best",
    [
        ([], 0, 0),
        ([True, True, False, True], 1, 2),
        ([True, True, True], 3, 3),
        ([False, False], 0, 0),
        ([True, False, True, True, True, False], 0, 3),
    ],
)
def test_streaks(flags, current, best):
    assert scoring.streaks(flags) == (current, best)


def test_pace_in_rounds_per_hour():
    assert scoring.pace(60, 3_600_000) == Decimal("60.0")
    assert scoring.pace(10, 300_000) == Decimal("120.0")  # 30 s a round
    assert scoring.pace(0, 1000) is None
    assert scoring.per_decision_ms(10_000, 4) == 2500
