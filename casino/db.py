"""Plain-SQL helpers: rows read without the ORM's query building on the few hot paths, the
advisory locks that put writers in line, and `one_of(ids)` for an `__in` over many ids."""

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models.expressions import RawSQL


def model_from_row(model, fields, values):
    """A model instance from raw column values, each converted as the ORM converts it. `fields` in
    the model's order (`_meta.concrete_fields`): some of them make an instance with the rest deferred."""
    return model.from_db(DEFAULT_DB_ALIAS, [f.attname for f in fields], values_from_row(fields, values))


def values_from_row(fields, values) -> list:
    """Raw column values converted as the ORM converts them (SQLite's datetimes, PostgreSQL's JSON…)."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: each use of the proxy costs a lookup
    ops = db.ops
    converted = []
    for field, value in zip(fields, values):
        if value is not None:
            col = field.cached_col
            for convert in ops.get_db_converters(col) + field.get_db_converters(db):
                value = convert(value, col, db)
        converted.append(value)
    return converted


def advisory_xact_lock(key: int) -> None:
    """Wait for the transaction-level advisory lock `key` on PostgreSQL, held until the caller's
    transaction ends, so writers that would each read "nothing there yet" go one after the other.
    SQLite serialises every writer already. `key`: a constant the project uses for nothing else."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor == "postgresql":
        with db.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def one_of(ids):
    """The right-hand side of an `__in` over many ids. On PostgreSQL one array parameter,
    `IN (SELECT unnest(%s::bigint[]))`: a chunk's 500 ids make one short statement, prepared once
    on the server whatever their number (with `IN (%s, …)` each count is another statement to
    parse and plan, and psycopg rewrites 500 placeholders on every call)."""
    ids = [int(i) for i in ids]
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", [ids])
    return ids
