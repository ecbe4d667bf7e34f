"""Reads of the integrity signals: the plain records a scan tests (`scan_data`), and the signals a
user may see (`visible_signals`, `signal_list`, `signal_for`).

Who sees signals: auditors (and superusers) all of them; a pit boss those about a table of his
pits or a dealer who works in one of his pits. Dealers, inspectors and trainees none: a signal
names a dealer or a player under suspicion, which is the auditors' and the pit's business.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from audit.models import Finding
from casino.roles import AUDITOR, PIT_BOSS
from casino.scope import restrict
from dealing.engine import games as engine_games
from dealing.engine import protection
from dealing.models import Incident, Round, Stake, in_force_q

from ..models import IntegritySignal, SignalKind, SignalStatus
from ..protection.selectors import floor_rounds
from .detection import PROCEDURE_CODES, CountedRound, EventRow, StakeRow, Thresholds

SHOES_PER_CHUNK = 200  # shoes read at once for the count: their rounds' documents, not the period's

READ_ROLES = (AUDITOR, PIT_BOSS)
REVIEW_ROLES = (AUDITOR,)


def thresholds() -> Thresholds:
    """The scan's thresholds from the settings (SIGNALS_*, casino/settings.py, docs/signals.md)."""
    return Thresholds(
        alpha=settings.SIGNALS_ALPHA,
        min_count=settings.SIGNALS_MIN_COUNT,
        min_stakes=settings.SIGNALS_MIN_STAKES,
        min_rounds=settings.SIGNALS_MIN_ROUNDS,
        min_player_stakes=settings.SIGNALS_MIN_PLAYER_STAKES,
        lean_p0=settings.SIGNALS_LEAN_P0,
        min_count_rounds=settings.SIGNALS_MIN_COUNT_ROUNDS,
    )


def _bounds(date_from: dt.date, date_to: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The period's dates (both included) as [start, end) in the casino's time zone."""
    zone = timezone.get_current_timezone()
    start = dt.datetime.combine(date_from, dt.time.min, tzinfo=zone)
    end = dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return start, end


@dataclass
class ScanData:
    stakes: list[StakeRow]
    incidents: list[EventRow]
    procedure: list[EventRow]
    rounds_by_dealer: dict
    rounds_by_table: dict
    counted: list[CountedRound] = field(default_factory=list)


def scan_data(*, date_from: dt.date, date_to: dt.date) -> ScanData:
    """The records of the rounds in force logged in the period, its incidents and its procedure findings."""
    start, end = _bounds(date_from, date_to)
    rounds = (
        Round.objects.filter(in_force_q(), played_at__gte=start, played_at__lt=end)
        .order_by()
        .values_list("pk", "dealer_id", "table_id")
    )
    rounds_by_dealer, rounds_by_table = Counter(), Counter()
    for _pk, dealer, table in rounds:
        rounds_by_dealer[dealer] += 1
        rounds_by_table[table] += 1
    stakes = []
    rows = (
        Stake.objects.filter(in_force_q("round"), round__played_at__gte=start, round__played_at__lt=end)
        .order_by()
        .values_list(
            "round_id",
            "round__dealer_id",
            "round__table_id",
            "box",
            "player",
            "round__variant",
            "ante",
            "bet",
            "owed_net",
            "paid_net",
        )
    )
    for round_id, dealer, table, box, player, variant, ante, bet, owed, paid in rows.iterator(chunk_size=5000):
        stakes.append(
            StakeRow(
                round_id,
                dealer,
                table,
                box,
                player or "",
                variant,
                (ante or Decimal("0")) + (bet or Decimal("0")),
                owed,
                paid,
            )
        )
    incidents = [
        EventRow(d, t, r)
        for d, t, r in Incident.objects.filter(reported_at__gte=start, reported_at__lt=end)
        .order_by()
        .values_list("dealer_id", "table_id", "round_id")
    ]
    procedure = [
        EventRow(d, t, r)
        for d, t, r in Finding.objects.filter(code__in=PROCEDURE_CODES, played_at__gte=start, played_at__lt=end)
        .order_by()
        .values_list("dealer_id", "table_id", "round_id")
    ]
    return ScanData(
        stakes,
        incidents,
        procedure,
        dict(rounds_by_dealer),
        dict(rounds_by_table),
        counted_rounds(date_from, date_to),
    )


def counted_rounds(date_from: dt.date, date_to: dt.date, *, chunk: int = SHOES_PER_CHUNK) -> list[CountedRound]:
    """The rounds played in the period from a shoe of a game with a count, each with the true count
    of its shoe before it (engine/protection.py over the whole shoe in order: its rounds in force and
    its burns, those before the period too) and the players' wagers (Ante + Bet: what a player put
    down before seeing a card).

    The shoes are read through `floor_rounds` (`floor_shoes` with the rounds' times and wagers), `chunk` at a time: each chunk's documents are dropped
    once its rounds are reduced to these small records, so the memory the documents take does not
    grow with the floor (tests/books/test_signals_chunked.py)."""
    counted_games = [name for name in engine_games.names() if engine_games.get(name).count is not None]
    out: list[CountedRound] = []
    start, end = _bounds(date_from, date_to)
    for floor in floor_rounds(date_from=date_from, date_to=date_to, chunk=chunk, games_=counted_games):
        log = floor.log
        states = protection.shoe_states(log.variant, log.items(), decks=log.decks or 1)
        for state, rid, played_at in zip(states, log.ids or (), floor.played_at, strict=True):
            if start <= played_at < end:
                out.append(
                    CountedRound(
                        int(rid), floor.table_id, floor.shoe_id, log.variant, state.true_count, floor.wagers[rid]
                    )
                )
    return out


def visible_signals(user) -> QuerySet:
    """The signals a user may see: READ_ROLES, by IntegritySignal.row_scope (an auditor every one)."""
    return restrict(IntegritySignal.objects.select_related("dealer", "table__pit", "reviewed_by"), user)


def signal_list(*, user, kind: str = "", status: str = "", dealer: str = "", player: str = "") -> QuerySet:
    """The signals the user may see, newest first, narrowed by kind, status, dealer's username, player."""
    signals = visible_signals(user)
    if kind in SignalKind.values:
        signals = signals.filter(kind=kind)
    if status in SignalStatus.values:
        signals = signals.filter(status=status)
    if dealer:
        signals = signals.filter(dealer__username=dealer)
    if player:
        signals = signals.filter(player=player)
    return signals


def signal_for(user, pk) -> IntegritySignal:
    """The signal `pk` if the user may see it; 404 otherwise."""
    return get_object_or_404(visible_signals(user), pk=pk)


def signal_rounds(signal: IntegritySignal) -> list:
    """The rounds the signal's evidence names that still exist, by id, with their table."""
    return list(Round.objects.filter(pk__in=signal.round_ids or []).select_related("table").order_by("pk"))
