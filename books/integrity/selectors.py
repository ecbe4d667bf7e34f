"""Reads of the integrity signals: the plain records a scan tests (`scan_data`), and the signals a
user may see (`visible_signals`, `signal_list`, `signal_for`).

Who sees signals: auditors (and superusers) all of them; a pit boss those about a table of his
pits or a dealer who works in one of his pits. Dealers, inspectors and trainees none: a signal
names a dealer or a player under suspicion, which is the auditors' and the pit's business.
"""

import datetime as dt
from collections import Counter, defaultdict
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
from dealing.models import Incident, Round, Shoe, ShoeEvent, Stake, in_force_q

from ..models import IntegritySignal, SignalKind, SignalStatus
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
        stakes, incidents, procedure, dict(rounds_by_dealer), dict(rounds_by_table), counted_rounds(start, end)
    )


def counted_rounds(start: dt.datetime, end: dt.datetime) -> list[CountedRound]:
    """The rounds played in [start, end) from a shoe of a game with a count, each with the true count
    of its shoe before it (engine/protection.py over the whole shoe in order: its rounds in force and
    its burns, those before the period too) and the players' wagers (Ante + Bet: what a player put
    down before seeing a card)."""
    counted_games = [name for name in engine_games.names() if engine_games.get(name).count is not None]
    shoe_ids = sorted(
        set(
            Round.objects.filter(
                in_force_q(), played_at__gte=start, played_at__lt=end, variant__in=counted_games, shoe__isnull=False
            )
            .order_by()
            .values_list("shoe_id", flat=True)
        )
    )
    out: list[CountedRound] = []
    for k in range(0, len(shoe_ids), SHOES_PER_CHUNK):
        chunk = shoe_ids[k : k + SHOES_PER_CHUNK]
        decks = dict(Shoe.objects.filter(pk__in=chunk).values_list("pk", "decks"))
        items: dict[int, list[tuple[int, dict, tuple | None]]] = defaultdict(list)
        for shoe, position, card in (
            ShoeEvent.objects.filter(shoe_id__in=chunk, kind="burn")
            .order_by()
            .values_list("shoe_id", "position", "card")
        ):
            items[shoe].append((position, {"e": "burn", "card": card}, None))
        rounds = (
            Round.objects.filter(in_force_q(), shoe_id__in=chunk)
            .order_by()
            .values_list("pk", "shoe_id", "table_id", "variant", "position", "document", "played_at")
        )
        wagers: dict[int, list[tuple[str, Decimal]]] = defaultdict(list)
        for round_id, player, ante, bet in (
            Stake.objects.filter(in_force_q("round"), round__shoe_id__in=chunk)
            .order_by()
            .values_list("round_id", "player", "ante", "bet")
        ):
            if player:
                wagers[round_id].append((player, (ante or Decimal("0")) + (bet or Decimal("0"))))
        for pk, shoe, table, variant, position, document, played_at in rounds.iterator(chunk_size=2000):
            items[shoe].append((position or 0, document, (pk, table, variant, start <= played_at < end)))
        for shoe, entries in sorted(items.items()):
            entries.sort(key=lambda e: (e[0], e[2] is not None))
            meta = [m for _p, _d, m in entries if m is not None]
            if not meta:
                continue
            variant = meta[0][2]
            states = protection.shoe_states(variant, [d for _p, d, _m in entries], decks=decks.get(shoe) or 1)
            for state, (pk, table, _variant, inside) in zip(states, meta, strict=True):
                if inside:
                    out.append(
                        CountedRound(pk, table, shoe, variant, state.true_count, tuple(sorted(wagers.get(pk, ()))))
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
