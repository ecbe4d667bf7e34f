"""Plain-SQL helpers for the few hot paths that read rows without the ORM's query building."""

from django.db import DEFAULT_DB_ALIAS, connections


def model_from_row(model, fields, values):
    """A model instance from raw column values, each converted as the ORM converts it."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: each use of the proxy costs a lookup
    ops = db.ops
    converted = []
    for field, value in zip(fields, values):
        if value is not None:
            col = field.cached_col
            for convert in ops.get_db_converters(col) + field.get_db_converters(db):
                value = convert(value, col, db)
        converted.append(value)
    return model.from_db(db.alias, [f.attname for f in fields], converted)
