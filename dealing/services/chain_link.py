"""The statements that put a round at the end of its table's chain, in plain SQL (`Link`), and
an approval at the end of the approvals' chain (`approval_append`)."""

import json
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils import timezone

from casino.db import advisory_xact_lock, model_from_row
from casino.models import Table
from dealing import chain

from ..models import Approval, Round, Shoe, Stake

if TYPE_CHECKING:
    from .rounds import StakeRow

# The advisory lock that puts the writers of approvals in line (casino.db.advisory_xact_lock).
_APPROVALS_LOCK = 0x0DEA1A99


def approval_append(*, decided_by, decision: str, comment: str, incident=None, round=None) -> Approval:  # noqa: A002
    """Write a pit boss's decision as the next link of the approvals' chain (inside the caller's
    transaction). `round` is the correction decided (its link is covered), or `incident`."""
    advisory_xact_lock(_APPROVALS_LOCK)
    last = Approval.objects.order_by("-link").values_list("link", "hmac").first()
    approval = Approval(
        incident=incident,
        round=round,
        decided_by=decided_by,
        decision=decision,
        comment=comment,
        decided_at=timezone.now(),
        link=0 if last is None else last[0] + 1,
        prev_hmac="" if last is None else last[1],
    )
    chain.seal_approval(approval, round_sha256=None if round is None else round.sha256)
    approval.save(force_insert=True)
    return approval


class TableChanged(Exception):
    """The table's row changed between checking a round and locking it (its limits, rules, pit or
    name): the round is checked again against the table as it is now."""


# The PostgreSQL type a stake value read from the JSON parameter is cast to, by its field (`Link.insert`).
_SQL_TYPES = {"CharField": "text", "PositiveSmallIntegerField": "smallint", "DecimalField": "numeric"}


def _decimal_text(value):
    """json.dumps' fallback for the one type a stake row holds that JSON has not: exact amounts."""
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"a stake row holds a {type(value).__name__}")


class Link:
    """The statements of logging a round, in plain SQL (PostgreSQL and SQLite). Most run while the
    table is locked, so they are kept short; all of them run on every round logged, so none is
    built by the ORM anew each time (that costs more CPU than the statement itself)."""

    _TABLE, _ROUND, _SHOE = Table._meta.db_table, Round._meta.db_table, Shoe._meta.db_table
    TABLE_FIELDS = list(Table._meta.concrete_fields)
    _TABLE_COLUMNS = ", ".join(f.column for f in TABLE_FIELDS)
    # By name, as Table.objects.get(name=…) reads it (names are unique), without the model's ordering.
    TABLE_NAMED = f"SELECT {_TABLE_COLUMNS} FROM {_TABLE} WHERE name = %s"
    # The table's row as stored now; LOCK also locks it, where the database locks rows (SQLite
    # serialises its writers instead and reads it with TABLE_BY_ID). NO KEY UPDATE: writers of one
    # table still wait for each other, but a row merely pointing at the table (an audit's finding,
    # whose foreign key PostgreSQL checks at commit) does not wait for the round being logged — with
    # FOR UPDATE that wait closed a deadlock with the rollup counters the logging round raises.
    TABLE_BY_ID = f"SELECT {_TABLE_COLUMNS} FROM {_TABLE} WHERE id = %s"
    LOCK = TABLE_BY_ID + " FOR NO KEY UPDATE"
    LAST = (
        f"SELECT chain_index, sha256, shoe_id, number, supersedes_id, table_round FROM {_ROUND} "
        "WHERE table_id = %s ORDER BY chain_index DESC LIMIT 1"
    )
    # The table's highest round number, when its last link (a correction) does not tell it.
    LAST_TABLE_ROUND = f"SELECT MAX(table_round) FROM {_ROUND} WHERE table_id = %s"
    # Take the next place in the table's open shoe (or the named one); the shoe's row comes back.
    _SHOE_FIELDS = list(Shoe._meta.concrete_fields)
    SHOE_COLUMNS = ", ".join(f.column for f in _SHOE_FIELDS)
    TAKE_OPEN = (
        f"UPDATE {_SHOE} SET next_position = next_position + 1 WHERE ended_at IS NULL AND id = "
        f"(SELECT id FROM {_SHOE} WHERE table_id = %s AND ended_at IS NULL ORDER BY number DESC LIMIT 1) "
        f"RETURNING {SHOE_COLUMNS}"
    )
    TAKE_NAMED = (
        f"UPDATE {_SHOE} SET next_position = next_position + 1 "
        f"WHERE table_id = %s AND number = %s AND ended_at IS NULL RETURNING {SHOE_COLUMNS}"
    )

    def __init__(self, chain_index, sha256, shoe_id, number, supersedes_id, table_round):
        self.chain_index, self.sha256, self.shoe_id = chain_index, sha256, shoe_id
        self.number, self.supersedes_id, self.table_round = number, supersedes_id, table_round

    @classmethod
    def next_table_round(cls, table: Table, last: "Link | None") -> int:
        """The number of the table's next new round (inside the table's lock): one more than the
        last link's, or, when that link is a correction (which keeps an older number), than the
        highest number stored."""
        if last is None:
            return 1
        if last.supersedes_id is None and last.table_round:
            return last.table_round + 1
        with connection.cursor() as cursor:
            cursor.execute(cls.LAST_TABLE_ROUND, [table.pk])
            row = cursor.fetchone()
        return (row[0] or 0) + 1

    # The tables' rows by name, as last read in this process. A round is checked against the row
    # found here, and written only if locking the table reads the very same row (`lock_table`);
    # a row that changed meanwhile (limits, rules, pit, name) replaces the one here and the round
    # is checked again. So the cache saves each round a query, and can never let one through
    # against a table as it no longer is: the check is the lock's own read.
    table_rows: dict[str, tuple] = {}
    _ROWS_MAX = 10_000

    @classmethod
    def table_named(cls, name: str) -> "tuple[Table, tuple] | None":
        row = cls.table_rows.get(name)
        if row is None:
            with connection.cursor() as cursor:
                cursor.execute(cls.TABLE_NAMED, [name])
                row = cursor.fetchone()
            if row is None:
                return None
            cls.remember(row)
        return model_from_row(Table, cls.TABLE_FIELDS, row), row

    _NAME_AT = [f.attname for f in TABLE_FIELDS].index("name")

    @classmethod
    def forget_if_changed(cls, row: tuple) -> bool:
        """Whether the table stored now differs from `row`, as read from the cache; if so, the
        cache forgets it (the next lookup reads the table again)."""
        with connection.cursor() as cursor:
            cursor.execute(cls.TABLE_BY_ID, [row[0]])
            stored = cursor.fetchone()
        if stored == row:
            return False
        cls.forget(row)
        return True

    @classmethod
    def forget(cls, row: tuple) -> None:
        cls.table_rows.pop(row[cls._NAME_AT], None)

    @classmethod
    def remember(cls, row: tuple) -> None:
        if len(cls.table_rows) >= cls._ROWS_MAX:
            cls.table_rows.clear()
        cls.table_rows[row[cls._NAME_AT]] = row

    # PostgreSQL: once the table's row is locked, its last link and the next place in the shoe in
    # one statement. Its snapshot is taken after the lock is held, so the last link it reads is the
    # one the table's previous writer committed (rounds are only ever written under that lock), as
    # when the two were statements of their own; the shoe's row is updated (and locked) as before.
    _LAST_N = 6  # LAST's columns, then the shoe's
    _BOTH = "SELECT link.*, slot.* FROM (SELECT 1) AS one LEFT JOIN link ON TRUE LEFT JOIN slot ON TRUE"
    LAST_AND_TAKE_OPEN = f"WITH link AS ({LAST}), slot AS ({TAKE_OPEN}) {_BOTH}"
    LAST_AND_TAKE_NAMED = f"WITH link AS ({LAST}), slot AS ({TAKE_NAMED}) {_BOTH}"

    @classmethod
    def lock_table(
        cls, table: Table, *, take_slot: bool, shoe_number: int | None = None, expected_row: tuple | None = None
    ) -> "tuple[Link | None, Shoe | None]":
        """Lock the table's row (serialising its writers) and read its last link; with `take_slot`,
        also take the next place in the shoe numbered `shoe_number` (None: the table's open shoe).
        Returns (last link or None, the shoe after taking its place, or None). With `expected_row`
        (the row the round was checked against), raises TableChanged unless the locked row is it."""
        db = connections[DEFAULT_DB_ALIAS]
        with db.cursor() as cursor:
            cursor.execute(cls.LOCK if db.features.has_select_for_update else cls.TABLE_BY_ID, [table.pk])
            row = cursor.fetchone()
            if expected_row is not None and row != expected_row:
                cls.forget(expected_row)
                if row is not None:
                    cls.remember(row)
                raise TableChanged
            if take_slot and db.vendor == "postgresql":
                if shoe_number is None:
                    cursor.execute(cls.LAST_AND_TAKE_OPEN, [table.pk, table.pk])
                else:
                    cursor.execute(cls.LAST_AND_TAKE_NAMED, [table.pk, table.pk, shoe_number])
                row = cursor.fetchone()
                last_row, shoe_row = row[: cls._LAST_N], row[cls._LAST_N :]
                last = None if last_row[0] is None else cls(*last_row)  # chain_index is never NULL
                return last, None if shoe_row[0] is None else cls.shoe_from_row(table, shoe_row)  # nor a shoe's id
            cursor.execute(cls.LAST, [table.pk])
            row = cursor.fetchone()
        last = None if row is None else cls(*row)
        return last, cls.take_slot(table, shoe_number) if take_slot else None

    _ROUND_FIELDS = [f for f in Round._meta.concrete_fields if not f.primary_key]
    _ROUND_INSERT = (
        f"INSERT INTO {_ROUND} ({', '.join(f.column for f in _ROUND_FIELDS)}) "
        f"VALUES ({', '.join(['%s'] * len(_ROUND_FIELDS))})"
    )
    _STAKE_FIELDS = [f for f in Stake._meta.concrete_fields if not f.primary_key]
    _STAKE_INSERT = f"INSERT INTO {Stake._meta.db_table} ({', '.join(f.column for f in _STAKE_FIELDS)}) VALUES "
    _STAKE_ROW = f"({', '.join(['%s'] * len(_STAKE_FIELDS))})"
    # PostgreSQL: the record and its stake rows in one statement whose text never changes, however
    # many stakes the round has (so psycopg converts it once and the server prepares it once per
    # connection): the stake rows go as one JSON array of arrays (amounts as their exact decimal
    # text), which `json_array_elements` turns into rows, each value cast to its column's type.
    # One JSON text costs this process about 40% less CPU than a typed array per column.
    _STAKE_VALUES = [f for f in _STAKE_FIELDS if f.name != "round"]
    _ROUND_AND_STAKES = (
        f"WITH r AS ({_ROUND_INSERT} RETURNING {Round._meta.pk.column}), "
        f"s AS (INSERT INTO {Stake._meta.db_table} "
        f"({', '.join([Stake._meta.get_field('round').column] + [f.column for f in _STAKE_VALUES])}) "
        f"SELECT r.{Round._meta.pk.column}, "
        f"{', '.join(f'(e->>{i})::' + _SQL_TYPES[f.get_internal_type()] for i, f in enumerate(_STAKE_VALUES))} "
        f"FROM r, json_array_elements(%s::json) AS e) "
        f"SELECT {Round._meta.pk.column} FROM r"
    )

    @classmethod
    def insert(cls, record: Round, stakes: list["StakeRow"]) -> None:
        """INSERT the record as `record.save(force_insert=True)` would (each value prepared by its
        field; no signal handlers listen to rounds), then its stake rows; give the record its id.

        On PostgreSQL both go in one statement (`_ROUND_AND_STAKES`). A stake's values are passed
        as they are: `stake_rows` builds them as the types their fields store (str, int or None,
        Decimal or None), which those fields' own preparation would hand on unchanged."""
        db = connections[DEFAULT_DB_ALIAS]
        params = [f.get_db_prep_save(f.pre_save(record, True), db) for f in cls._ROUND_FIELDS]
        with db.cursor() as cursor:
            if db.vendor == "postgresql":
                rows = [[getattr(stake, f.attname) for f in cls._STAKE_VALUES] for stake in stakes]
                params.append(json.dumps(rows, default=_decimal_text, ensure_ascii=False))
                cursor.execute(cls._ROUND_AND_STAKES, params)
                record.pk = cursor.fetchone()[0]
            else:
                sql = cls._ROUND_INSERT
                if db.features.can_return_columns_from_insert:
                    cursor.execute(sql + f" RETURNING {Round._meta.pk.column}", params)
                    record.pk = cursor.fetchone()[0]
                else:
                    cursor.execute(sql, params)
                    record.pk = db.ops.last_insert_id(cursor, cls._ROUND, Round._meta.pk.column)
                if stakes:
                    # One multi-row INSERT, each value adapted as Django adapts it (bulk_create
                    # costs about twice as much for a handful of rows).
                    for stake in stakes:
                        stake.round_id = record.pk
                    cursor.execute(
                        cls._STAKE_INSERT + ", ".join([cls._STAKE_ROW] * len(stakes)),
                        [
                            f.get_db_prep_save(getattr(stake, f.attname), db)
                            for stake in stakes
                            for f in cls._STAKE_FIELDS
                        ],
                    )
        record._state.adding = False
        record._state.db = db.alias

    @classmethod
    def take_slot(cls, table: Table, number: int | None) -> Shoe | None:
        """The shoe after taking its next position (its row locked until the commit), or None."""
        with connection.cursor() as cursor:
            if number is None:
                cursor.execute(cls.TAKE_OPEN, [table.pk])
            else:
                cursor.execute(cls.TAKE_NAMED, [table.pk, number])
            row = cursor.fetchone()
        return None if row is None else cls.shoe_from_row(table, row)

    @classmethod
    def shoe_from_row(cls, table: Table, row) -> Shoe:
        shoe = model_from_row(Shoe, cls._SHOE_FIELDS, row)
        shoe.table = table
        return shoe
