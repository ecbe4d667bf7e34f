"""Grading arithmetic: accuracy, bands, streaks and pace. Pure functions over numbers and flags."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import gettext_lazy as _

HUNDRED = Decimal(100)

# (lowest accuracy of the band, key, label), best first. Excellent ≥ 95 %, Great 85–94,
# Good 75–84, Fair 60–74, below: Needs practice. An accuracy between two whole numbers belongs to
# the lower band (94.9 % is Great), so the limits are exact comparisons on the unrounded value.
BANDS = (
    (Decimal(95), "excellent", _("Excellent")),
    (Decimal(85), "great", _("Great")),
    (Decimal(75), "good", _("Good")),
    (Decimal(60), "fair", _("Fair")),
    (Decimal(0), "needs_practice", _("Needs practice")),
)
BAND_KEYS = tuple(key for _low, key, _label in BANDS)


def accuracy(correct: int, decisions: int) -> Decimal | None:
    """Correct decisions as a percentage (exact), or None before the first decision."""
    if not decisions:
        return None
    return Decimal(correct) * HUNDRED / Decimal(decisions)


def rounded(value: Decimal | None, places: int = 1) -> Decimal | None:
    if value is None:
        return None
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Band:
    key: str
    label: str


def band(value: Decimal | None) -> Band | None:
    """The band of an accuracy percentage."""
    if value is None:
        return None
    for low, key, label in BANDS:
        if value >= low:
            return Band(key, label)
    return Band(BANDS[-1][1], BANDS[-1][2])


def streaks(flags) -> tuple[int, int]:
    """(current, best): the run of correct decisions at the end, and the longest run."""
    current = best = 0
    for ok in flags:
        current = current + 1 if ok else 0
        best = max(best, current)
    return current, best


def pace(rounds: int, time_ms: int) -> Decimal | None:
    """Rounds per hour of time spent on them, as a pit measures a dealer."""
    if not rounds or not time_ms:
        return None
    return (Decimal(rounds) * Decimal(3_600_000) / Decimal(time_ms)).quantize(Decimal("0.1"), ROUND_HALF_UP)


def per_decision_ms(time_ms: int, decisions: int) -> int | None:
    if not decisions:
        return None
    return round(time_ms / decisions)
