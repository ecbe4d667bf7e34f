"""The writes of a bulk import (dealing.services.bulk): a batch of sealed round records and their
stake rows, sent by COPY on PostgreSQL (a `bulk_create` elsewhere).

The round columns come from `Round._meta.concrete_fields`, so a column added to or moved off
`Round` needs no change here: a value the importer does not compute is the field's default. A stake
row's columns are its round's id and the ones its link covers (`chain.STAKE_FIELDS`).
"""

import json

from django.db import DEFAULT_DB_ALIAS, connections

from dealing import chain

from ..models import Round, Stake


class Record:
    """A round row to be written: its columns' values by attribute name (what `chain.round_hash`
    reads, and what the COPY sends). Lighter than a `Round` instance."""

    __slots__ = tuple(f.attname for f in Round._meta.concrete_fields) + ("_stakes", "_line", "_encoded")

    def __init__(self, **values):
        for name, value in values.items():
            if name in _SLOTS:  # a column moved off Round is left out, not an error
                setattr(self, name, value)


_SLOTS = frozenset(Record.__slots__)


_ROUND_FIELDS = [f for f in Round._meta.concrete_fields]
# A stake row's columns are its round's id and the ones its link covers: a column added to Stake
# joins chain.STAKE_FIELDS (and the link) before it can be written here.
_STAKE_COLUMNS = [Stake._meta.get_field("round").column] + [Stake._meta.get_field(n).column for n in chain.STAKE_FIELDS]


def stake_values(stake) -> tuple:
    """A stake row's values in `chain.STAKE_FIELDS` order (a `rounds.StakeRow`, or the tuple a
    checking process sent)."""
    return stake if type(stake) is tuple else tuple(getattr(stake, name) for name in chain.STAKE_FIELDS)


def _value(record, field_):
    """The value of a column, as the record holds it (a JSON column given only as its canonical
    text, read back from it) or the field's default."""
    text = record._encoded.get(field_.attname)
    if text is not None:
        return json.loads(text)
    try:
        return getattr(record, field_.attname)
    except AttributeError:
        return field_.get_default()


def insert_records(records: list[Record]) -> None:
    """Give the records their ids and write them with their stake rows: COPY on PostgreSQL,
    bulk_create elsewhere."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql":
        rounds = [Round(**{f.attname: _value(r, f) for f in _ROUND_FIELDS if f.attname != "id"}) for r in records]
        Round.objects.bulk_create(rounds, batch_size=500)
        for record, saved in zip(records, rounds):
            record.id = saved.pk
        Stake.objects.bulk_create(
            [
                Stake(round_id=r.id, **dict(zip(chain.STAKE_FIELDS, stake_values(s))))
                for r in records
                for s in r._stakes
            ],
            batch_size=500,
        )
        return
    quote = db.ops.quote_name
    pk = Round._meta.pk
    with db.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [Round._meta.db_table, pk.column, len(records)],
        )
        for record, (new_id,) in zip(records, cursor.fetchall()):
            record.id = new_id
        raw = cursor.cursor
        columns = ", ".join(quote(f.column) for f in _ROUND_FIELDS)
        writers = [_writer(f) for f in _ROUND_FIELDS]
        with raw.copy(f"COPY {quote(Round._meta.db_table)} ({columns}) FROM STDIN") as copy:
            write = copy.write_row
            for record in records:
                write([w(record) for w in writers])
        columns = ", ".join(quote(column) for column in _STAKE_COLUMNS)
        with raw.copy(f"COPY {quote(Stake._meta.db_table)} ({columns}) FROM STDIN") as copy:
            write = copy.write_row
            for record in records:
                round_id = record.id
                for stake in record._stakes:
                    write((round_id, *stake_values(stake)))


def _writer(field_):
    """How one column's value is read off a record for the COPY."""
    name = field_.attname
    if field_.get_internal_type() == "JSONField":
        encoder = field_.encoder

        def json_value(record):
            text = record._encoded.get(name)
            if text is not None:  # its canonical JSON, as hashed: the same jsonb value
                return text
            value = getattr(record, name)
            return None if value is None else json.dumps(value, cls=encoder, ensure_ascii=False)

        return json_value

    def plain(record):
        try:
            return getattr(record, name)
        except AttributeError:
            return field_.get_default()

    return plain
