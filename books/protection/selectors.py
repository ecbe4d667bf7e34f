"""Reads for a player's evaluation: the shoes he sat at, whole (the other players' cards and the
burns leave the shoe too), with his stakes' results, in few queries that name only the columns the evaluation needs;
and the same shoes in chunks for a scan over the whole floor, with flat memory.

Who sees a player: auditors (and superusers) every round; a pit boss the rounds at his pits' tables
(Stake.row_scope). A player with no round the user may see does not exist for him (404).
"""

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass, field, replace
from decimal import Decimal

import msgspec
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, TextField
from django.db.models.functions import Cast
from django.http import Http404
from django.utils import timezone

from casino import collector
from casino.db import one_of
from casino.roles import AUDITOR, PIT_BOSS
from casino.scope import restrict
from dealing.engine import games
from dealing.engine.evaluation import ShoeLog
from dealing.models import Round, Shoe, ShoeEvent, Stake, in_force_q

READ_ROLES = (AUDITOR, PIT_BOSS)
SCAN_CHUNK_SHOES = 200
STREAM_ROWS = 500  # rows a message from PostgreSQL while streaming

_decode = msgspec.json.Decoder().decode


def _bounds(date_from: dt.date | None, date_to: dt.date | None) -> dict:
    zone = timezone.get_current_timezone()
    out = {}
    if date_from:
        out["round__played_at__gte"] = dt.datetime.combine(date_from, dt.time.min, tzinfo=zone)
    if date_to:
        out["round__played_at__lt"] = dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return out


def player_stakes(user, player: str, *, date_from=None, date_to=None) -> QuerySet:
    """The player's stakes in rounds in force that the user may see, in the period, of the games
    that have an evaluation."""
    stakes = Stake.objects.filter(
        in_force_q("round"), player=player, round__variant__in=games.evaluated(), **_bounds(date_from, date_to)
    )
    return restrict(stakes, user)


def player_rounds(user, player: str, *, date_from=None, date_to=None) -> QuerySet:
    """The rounds the player played that the user may see (for the keyset pages, newest first)."""
    mine = player_stakes(user, player, date_from=date_from, date_to=date_to).filter(round=OuterRef("pk"))
    return Round.objects.filter(Exists(mine)).select_related("table", "shoe").order_by("-played_at", "-id")


def _shoe_logs(shoe_ids, results: dict, wagers: dict | None = None) -> Iterator:
    """The shoes' rounds in force, in the order dealt, decoded with msgspec from the documents' text,
    with the cards burned between them, one shoe at a time in the order of the shoes' ids (a
    generator: its queries run at the first shoe asked for; each shoe's documents are let go of
    once it is yielded). With `wagers` (round id -> ((player, Ante + Bet) …), the stakes as stored):
    each a FloorShoe, what a scan of the floor reads beside the rounds."""
    shoe_ids = sorted(shoe_ids)
    meta = {
        pk: (variant, decks, table, f"{table}/{number}", table_id)
        for pk, variant, decks, table, number, table_id in Shoe.objects.filter(_among("pk", shoe_ids))
        .order_by()
        .values_list("pk", "table__variant", "decks", "table__name", "number", "table_id")
    }
    floor = wagers is not None
    # The rounds' times only for the floor's scan: 50,000 aware datetimes cost a player's page a
    # quarter of its read.
    columns = ("pk", "shoe_id", "position", "text") + (("played_at",) if floor else ())
    # No ORDER BY: sorting the documents' text spilled 65 MB to disk and held back the first row
    # until the last was read (the planner sorts rather than walk the index on (shoe, position) as
    # soon as the shoes are most of the table); the rounds are put in the order dealt here.
    rows = (
        Round.objects.filter(in_force_q(), _among("shoe_id", shoe_ids))
        .order_by()
        .annotate(text=Cast("document", TextField()))
        .values_list(*columns)
    )
    burned: dict = {}
    for shoe_id, position, card in (
        ShoeEvent.objects.filter(_among("shoe_id", shoe_ids), kind="burn")
        .order_by()
        .values_list("shoe_id", "position", "card")
    ):
        burned.setdefault(shoe_id, []).append((position, {"e": "burn", "card": card}))

    def shoe(shoe_id, entries: list):
        entries.sort()  # as dealt: by position (none last), then by id (unique: the documents never compared)
        burns: tuple = ()
        if shoe_id in burned:
            positions = [None if e[0] else e[1] for e in entries]
            burns = _between(positions, sorted(burned[shoe_id], key=lambda b: b[0]))
        log = _log(shoe_id, meta, [e[3] for e in entries], [str(e[2]) for e in entries], results, burns)
        if not floor:
            return log
        return FloorShoe(
            log,
            shoe_id=shoe_id,
            table_id=meta[shoe_id][4],
            played_at=tuple(e[4] for e in entries),
            wagers={rid: tuple(sorted(wagers.get(rid, ()))) for rid in log.ids or ()},
        )

    by_shoe: dict = {}
    # The documents decoded as they come, while PostgreSQL still sends, with the collector paused
    # (casino/collector.py): they make no cycle.
    with transaction.atomic(), collector.paused():
        for row in _streamed(rows):
            position = row[2]
            by_shoe.setdefault(row[1], []).append((position is None, position or 0, row[0], _decode(row[3]), *row[4:]))
    # Each shoe let go of here once yielded: its documents are freed as soon as its consumer is done with it.
    for shoe_id in sorted(by_shoe):
        yield shoe(shoe_id, by_shoe.pop(shoe_id))


def _streamed(rows: QuerySet) -> Iterator[tuple]:
    """The rows of a values_list query as PostgreSQL sends them. On PostgreSQL, streamed (libpq's
    chunked rows, psycopg's `stream`): the server keeps producing while this process decodes what
    came, where a server-side cursor's FETCH waits for each batch in turn — a year's 50,000
    documents: 1.0 s → 0.6 s of wall clock, the server's time hidden behind the decoding
    (docs/benchmarks.md, "Player evaluation"). Inside a transaction, with PostgreSQL's JIT off
    (compiling takes longer than this read)."""
    if connection.vendor != "postgresql":
        yield from rows.iterator(chunk_size=2000)
        return
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = off")
        yield from cursor.cursor.stream(sql, params, size=STREAM_ROWS)


def _among(column: str, ids) -> Q:
    """column IN ids, the ids one array parameter on PostgreSQL (casino.db.one_of)."""
    return Q(**{f"{column}__in": one_of(ids)})


def _between(positions: list, burns: list) -> tuple:
    """Each burn (position, item) with the index of the round it came before: the first round of a
    greater position; after the last round with a position when none is greater (rounds without a
    position, loaded behind the services' back, come after every burn)."""
    out = []
    k = 0
    for position, item in burns:
        while k < len(positions) and positions[k] is not None and positions[k] < position:
            k += 1
        out.append((k, item))
    return tuple(out)


def _log(shoe_id, meta, docs, ids, results, burns=()) -> ShoeLog:
    variant, decks, table, key, _table_id = meta[shoe_id]
    return ShoeLog(
        key=key, variant=variant, decks=decks, rounds=docs, ids=ids, results=results, table=table, burns=burns
    )


def player_shoes(user, player: str, *, date_from=None, date_to=None) -> Iterator[ShoeLog]:
    """Every shoe where the player has a round the user may see, whole, with its burns and his
    stakes' owed results (four queries: his stakes, the shoes, their burns, their rounds), one shoe
    at a time (see `_shoe_logs`: each shoe's documents freed once its evaluation is done with it).
    Http404 at once when there is none."""
    rows = (
        player_stakes(user, player, date_from=date_from, date_to=date_to)
        .filter(round__shoe__isnull=False)
        .order_by()
        .values_list("round_id", "stake_id", "owed_net", "round__shoe_id")
    )
    results: dict[tuple, Decimal] = {}
    shoes: set[int] = set()
    for round_id, stake_id, owed, shoe_id in rows.iterator(chunk_size=5000):
        results[(str(round_id), stake_id)] = owed if owed is not None else Decimal(0)
        shoes.add(shoe_id)
    if not shoes:
        raise Http404("no such player")
    logs = _shoe_logs(shoes, results)
    if not (date_from or date_to):
        return logs
    outside = player_stakes(user, player).filter(_among("round__shoe_id", shoes)).exclude(**_bounds(date_from, date_to))
    if not outside.exists():  # as for a year of a player who sat no shoe across its ends: a look per round saved
        return logs
    return _in_period(logs, {rid for rid, _sid in results}, player)


def _in_period(logs: Iterator[ShoeLog], inside: set, player: str) -> Iterator[ShoeLog]:
    """Rounds outside the period stay in the shoe (they set its composition) but are not his to
    judge. Closing this closes the stream."""
    with closing(logs):
        for log in logs:
            yield _only(log, inside, player)


def _only(log: ShoeLog, inside: set, player: str) -> ShoeLog:
    """The shoe with the player's stakes in rounds outside the period (not `inside` it) made
    anonymous: those rounds still take cards out. Only his rounds are copied: the evaluation reads
    no other player's stakes."""
    outside = [
        k
        for k, (doc, rid) in enumerate(zip(log.rounds, log.ids))
        if rid not in inside and any(s.get("player") == player for s in doc.get("stakes", ()))
    ]
    if not outside:
        return log
    rounds = list(log.rounds)
    for k in outside:
        rounds[k] = _anonymous(rounds[k])
    return replace(log, rounds=rounds)


def _anonymous(doc: dict) -> dict:
    return {**doc, "stakes": [{**s, "player": None} for s in doc.get("stakes", ())]}


def floor_shoes(
    *, date_from: dt.date, date_to: dt.date, chunk: int = SCAN_CHUNK_SHOES, games_: Iterable[str] | None = None
) -> Iterator[ShoeLog]:
    """Every shoe (of an evaluated game, or of `games_`) with a round in force played in the period,
    whole (its rounds before and after the period too: they set its composition), with its burns and
    every stake's owed result, `chunk` shoes at a time by keyset on the shoe's id: what a floor-wide
    scan reads, whatever the floor's size, in flat memory (each chunk is dropped before the next is
    read). `floor_rounds` gives the same shoes with what the integrity scan needs beside them."""
    for floor in floor_rounds(date_from=date_from, date_to=date_to, chunk=chunk, games_=games_):
        yield floor.log


@dataclass(frozen=True)
class FloorShoe:
    """A shoe as the floor's scan reads it: its ShoeLog and, per round in the order of `log.rounds`,
    when it was played and its players' wagers (Ante + Bet as stored: what a player put down before
    seeing a card). (Beside the ShoeLog, not a subclass of it: the engine's is compiled.)"""

    log: ShoeLog
    shoe_id: int
    table_id: int | None
    played_at: tuple
    wagers: Mapping[str, tuple] = field(default_factory=dict)  # round id -> ((player, wager) …), sorted


def floor_rounds(
    *, date_from: dt.date, date_to: dt.date, chunk: int = SCAN_CHUNK_SHOES, games_: Iterable[str] | None = None
) -> Iterator[FloorShoe]:
    """`floor_shoes` with each shoe's ids, rounds' times and wagers (five queries a chunk: its
    shoes' ids, their stakes, the shoes, their burns, their rounds)."""
    zone = timezone.get_current_timezone()
    start = dt.datetime.combine(date_from, dt.time.min, tzinfo=zone)
    end = dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    variants = tuple(games.evaluated() if games_ is None else games_)
    played = Round.objects.filter(
        in_force_q(), shoe=OuterRef("pk"), played_at__gte=start, played_at__lt=end, variant__in=variants
    )
    shoes = Shoe.objects.filter(Exists(played))
    last = 0
    while True:
        ids = list(shoes.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:chunk])
        if not ids:
            return
        last = ids[-1]
        results: dict[tuple, Decimal] = {}
        wagers: dict[str, list] = {}
        for r, s, owed, player, ante, bet in (
            Stake.objects.filter(in_force_q("round"), round__shoe_id__in=ids)
            .order_by()
            .values_list("round_id", "stake_id", "owed_net", "player", "ante", "bet")
        ):
            results[(str(r), s)] = owed if owed is not None else Decimal(0)
            if player:
                wagers.setdefault(str(r), []).append((player, (ante or Decimal(0)) + (bet or Decimal(0))))
        # Each chunk whole before the next chunk's queries (the rounds stream on the same connection).
        yield from list(_shoe_logs(ids, results, wagers))
