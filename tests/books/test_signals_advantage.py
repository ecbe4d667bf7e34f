"""The ADVANTAGE_PLAY signal: on simulated floors (no database) its false-alarm rate on honest players
stays at the scan's level and planted counters are found; on the database, a counter's rounds logged
through dealing's real services are flagged by the scan, and nobody else."""

import datetime as dt
import math
import random

import pytest
from django.utils import timezone

from books.integrity import services
from books.integrity.advantage_floor import blackjack_table, ochko_table, rates
from books.integrity.detection import Thresholds, advantage_play, rank_correlation
from books.models import IntegritySignal
from dealing import services as dealing_services
from dealing.engine.blackjack.simulator.players import Player, simulate_table
from dealing.engine.simulators.players import HONEST
from tests.factories import TableFactory


def test_rank_correlation_of_independent_series_is_uniform_under_the_null_and_finds_a_trend():
    rng = random.Random(4)
    ps = []
    for _ in range(400):
        x = [rng.random() for _ in range(120)]
        y = [rng.random() for _ in range(120)]
        ps.append(rank_correlation(x, y)[2])
    assert abs(sum(p <= 0.05 for p in ps) / 400 - 0.05) < 3 * math.sqrt(0.05 * 0.95 / 400)
    x = [rng.random() for _ in range(200)]
    assert rank_correlation(x, [v + rng.random() for v in x])[2] < 1e-6
    # a trend in both series is autocorrelation, not evidence: the effective pairs shrink to a few
    trend = list(range(200))
    r, effective, _p = rank_correlation(trend, [v + rng.random() * 30 for v in trend])
    assert r > 0.9 and effective < 20
    assert rank_correlation(x, [5.0] * 200) == (0.0, 200.0, 1.0)


def _binomial_ceiling(n: int, p: float) -> float:
    """The rate an honest test may show in n trials: p plus three standard errors."""
    return p + 3 * math.sqrt(p * (1 - p) / n)


@pytest.mark.slow
def test_false_alarms_stay_at_the_level_and_planted_advantage_players_are_found():
    got = rates(tables=24, shoes=30, seed=38)
    honest_tests = sum(got["tests"].get(k, 0) for k in HONEST)
    honest_alarms = sum(got["alarms_05"].get(k, 0) for k in HONEST)
    assert honest_tests >= 40
    assert honest_alarms / honest_tests <= _binomial_ceiling(honest_tests, 0.05)
    for kind in ("counter", "wonger", "ochko_counter"):
        assert got["tests"][kind] >= 2
        assert got["flagged"][kind] == got["tests"][kind], kind  # every planted one, after Holm


def test_a_counter_is_flagged_and_flat_and_random_bettors_are_not():
    rows = blackjack_table(random.Random(9), 1, ["flat", "random", "drifting", "counter"], 30)
    rows += ochko_table(random.Random(10), 2, ["random", "ochko_counter", "flat"], 30)
    found = {c.player: c for c in advantage_play(rows, Thresholds())}
    assert found["T1-3-counter"].p_value < 1e-6 and found["T2-1-ochko_counter"].p_value < 1e-6
    assert (
        found["T1-3-counter"].evidence["mean_wager_high_count"] > found["T1-3-counter"].evidence["mean_wager_low_count"]
    )
    assert all(c.p_value > 0.001 for p, c in found.items() if "counter" not in p)
    assert "T1-0-flat" not in found  # one bet throughout, every round: nothing to test


@pytest.mark.slow
@pytest.mark.django_db
def test_the_scan_flags_the_counter_logged_at_a_blackjack_table_and_nobody_else(crew, settings):
    settings.SIGNALS_MIN_COUNT_ROUNDS = 150
    table = TableFactory(name="BJ-1", pit=crew.table.pit, variant="blackjack", boxes=5, rules={"preset": "salon"})
    seated = [
        Player("ALICE", "random"),
        Player("BORIS", "flat"),
        Player("COUNT", "counter"),
        Player("DASHA", "drifting"),
    ]
    shoes = simulate_table(random.Random(38), players=seated, shoes=14, table_name=table.name, dealer="dealer1")
    for dealt in shoes:
        dealing_services.shoe_start(table=table, shuffled_by=crew.dealer)
        for d in dealt:
            dealing_services.round_log(document=d.doc, logged_by=crew.dealer, table=table)
    today = timezone.localdate()
    services.signals_scan(date_from=today - dt.timedelta(days=1), date_to=today)
    flagged = list(IntegritySignal.objects.filter(kind="advantage_play").values_list("player", flat=True))
    assert flagged == ["COUNT"]
    signal = IntegritySignal.objects.get(kind="advantage_play")
    assert signal.table_id == table.pk and signal.evidence["game"] == "blackjack"
