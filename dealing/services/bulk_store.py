"""Storing the checked lines of an import (dealing/services/bulk.py), a batch at a time: each
table's chain extended in line order with one COPY, a line whose id is already stored answered as
a repeat or a conflict, the shoe slots of a batch taken under the shoe's lock, and a batch that
fails retried line by line so one bad line refuses only itself.

`BatchStore` is the importer's storing half; the importer (bulk.py) checks the lines and calls
`_flush` with each batch."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.models import Table
from dealing import chain, hooks, selectors
from dealing.errors import refuse

from ..models import Round, Shoe
from .bulk_writes import Record, insert_records
from .chain_link import Link
from .documents import read_document
from .shoes import shoe_ended_error, unknown_shoe_error

User = get_user_model()

if TYPE_CHECKING:
    from .bulk import Pending


class BatchStore:
    def _flush(self, pending: list[Pending], errors: list[tuple[int, ServiceError]]) -> None:
        if pending:
            known = len(errors)
            try:
                with transaction.atomic(), hooks.rounds_batched():
                    stored, repeats = self._write(pending, errors)
            except IntegrityError:
                # A concurrent writer took an id or a link meanwhile: this batch goes round by round
                # through round_log, which settles each case as the API does.
                del errors[known:]
                stored, repeats = self._one_by_one(pending, errors)
            self.summary.stored += stored
            self.summary.repeats += repeats
        errors.sort(key=lambda item: item[0])
        for number, exc in errors:
            self.summary.refused += 1
            self.report(number, exc)
        self.summary.lines = self.summary.stored + self.summary.repeats + self.summary.refused
        self.progress(self.summary)

    def _one_by_one(self, pending: list[Pending], errors) -> tuple[int, int]:
        from .rounds import round_log

        stored = repeats = 0
        for item in pending:
            try:
                _record, created = round_log(document=item.raw, logged_by=item.user, table=self.table)
            except ServiceError as exc:
                errors.append((item.line, exc))
                continue
            stored += created
            repeats += not created
        return stored, repeats

    def _write(self, pending: list[Pending], errors) -> tuple[int, int]:
        """Write one batch inside the caller's transaction; returns (stored, repeats)."""
        repeats = 0
        fresh: list[Pending] = []
        seen: dict[str, Pending] = {}
        for item in pending:  # the same id twice in the batch
            uid = item.uid
            first = seen.get(uid)
            if first is None:
                seen[uid] = item
                fresh.append(item)
            elif first.document_json == item.document_json:
                repeats += 1
            else:
                errors.append((item.line, _id_conflict(uid)))
        stored_docs = _stored_documents(list(seen))
        if stored_docs:
            kept = []
            for item in fresh:
                document = stored_docs.get(uuid.UUID(item.uid))
                if document is None:
                    kept.append(item)
                elif chain.canonical_json(document) == item.document_json:
                    repeats += 1
                else:
                    errors.append((item.line, _id_conflict(item.uid)))
            fresh = kept
        by_table: dict[int, list[Pending]] = {}
        for item in fresh:
            by_table.setdefault(item.table.pk, []).append(item)
        records: list[Record] = []
        for table_id in sorted(by_table):  # tables locked in one order: two imports never deadlock
            records.extend(self._chain_table(by_table[table_id], errors))
        if records:
            records.sort(key=lambda record: record._line)  # ids in the file's order
            insert_records(records)
            hooks.rounds_written([record.id for record in records])  # their pending audit rows, in this transaction
            for record in records:
                hooks.round_recorded(record.id)
        return len(records), repeats

    def _chain_table(self, items: list[Pending], errors) -> list[Record]:
        """Lock one table, check its row is the one its rounds were checked against (else check them
        again), take their places in its shoes and seal them as the next links of its chain."""
        db = connections[DEFAULT_DB_ALIAS]
        table = items[0].table
        with db.cursor() as cursor:
            cursor.execute(Link.LOCK if db.features.has_select_for_update else Link.TABLE_BY_ID, [table.pk])
            row = cursor.fetchone()
            expected = next((item.table_row for item in items if item.table_row is not None), None)
            if expected is not None and row != expected:
                Link.forget(expected)
                if row is not None:
                    Link.remember(row)
                items = self._again(items, errors)
                if not items:
                    return []
                table = items[0].table
            cursor.execute(Link.LAST, [table.pk])
            last = cursor.fetchone()
        index = 0 if last is None else last[0] + 1
        prev = "" if last is None else last[1]
        # Each new round takes the table's next number (1, 2, …), as round_log gives it.
        table_round = Link.next_table_round(table, None if last is None else Link(*last))
        slots = self._shoe_slots(table, items, errors)
        records = []
        now = timezone.now
        for item in items:
            slot = slots.get(item.line)
            if slot is False:
                continue
            shoe_id, position, number = slot if slot is not None else (None, None, None)
            logged_at = now()
            record = Record(
                uid=uuid.UUID(item.uid),
                table_id=table.pk,
                dealer_id=item.dealer.pk,
                variant=table.variant,
                house_rules=item.house_rules,
                table_min=item.table_min,
                table_max=item.table_max,
                document=None,
                revision=1,  # hashed and written as its canonical JSON (`_encoded`)
                supersedes_id=None,
                amendment_reason="",
                logged_by_id=item.user.pk,
                float_owed=item.float_owed,
                float_logged=item.float_logged,
                chain_index=index,
                prev_sha256=prev,
                shoe_id=shoe_id,
                position=position,
                number=number,
                logged_at=logged_at,
                # The round's own time, kept: a history imported is counted when it was dealt.
                played_at=logged_at if item.played_at is None else item.played_at,
                table_round=table_round,
            )
            record._stakes, record._line = item.stakes, item.line
            record._encoded = {"document": item.document_json, "house_rules": item.house_rules_json}
            chain.seal_round(
                record,
                item.stakes,
                encoded=record._encoded,
                stakes_hmac=item.stakes_hmac if item.key_id == chain.chain_keys()[0] else None,
            )
            prev, index, table_round = record.sha256, index + 1, table_round + 1
            records.append(record)
        return records

    def _again(self, items: list[Pending], errors) -> list[Pending]:
        """The table changed since its rounds were checked: check them again against it as it is."""
        kept = []
        for item in items:
            try:
                doc = read_document(item.raw)
                kept.append(self._prepare(item.line, item.raw, doc, item.user, self._table_for(doc)))
            except ServiceError as exc:
                errors.append((item.line, exc))
        if kept and len({item.table.pk for item in kept}) > 1:  # renamed away: back through round_log
            raise IntegrityError("table renamed during the import")
        return kept

    def _shoe_slots(self, table: Table, items: list[Pending], errors) -> dict:
        """Each round's (shoe id, position, number) by its line: the shoe it names or the table's
        open one, positions taken from the shoe's counter in one UPDATE per shoe; False for a
        line refused (its shoe unknown or ended)."""
        wanted: dict[int | None, list[Pending]] = {}
        for item in items:
            wanted.setdefault(item.shoe_number, []).append(item)
        slots: dict[int, object] = {}
        shoe_table, columns = Shoe._meta.db_table, Link.SHOE_COLUMNS
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            for number, group in wanted.items():
                k = len(group)
                if number is None:
                    cursor.execute(
                        f"UPDATE {shoe_table} SET next_position = next_position + %s WHERE ended_at IS NULL AND id = "
                        f"(SELECT id FROM {shoe_table} WHERE table_id = %s AND ended_at IS NULL "
                        f"ORDER BY number DESC LIMIT 1) RETURNING {columns}",
                        [k, table.pk],
                    )
                else:
                    cursor.execute(
                        f"UPDATE {shoe_table} SET next_position = next_position + %s "
                        f"WHERE table_id = %s AND number = %s AND ended_at IS NULL RETURNING {columns}",
                        [k, table.pk, number],
                    )
                row = cursor.fetchone()
                if row is None:
                    if number is None:  # no open shoe: rounds without one, as round_log logs them
                        continue
                    named = Shoe.objects.filter(table=table, number=number).first()
                    exc = (
                        unknown_shoe_error(table, group[0].shoe_reference) if named is None else shoe_ended_error(named)
                    )
                    for item in group:
                        slots[item.line] = False
                        errors.append((item.line, exc))
                    continue
                shoe = Link.shoe_from_row(table, row)
                first = shoe.next_position - k
                cursor.execute(_DEALT, [shoe.pk])
                dealt = cursor.fetchone()
                dealt = (dealt[0] if dealt is not None else None) or 0
                for j, item in enumerate(group):
                    slots[item.line] = (shoe.pk, first + j, dealt + j + 1)
                limit = selectors.shoe_round_limit(shoe)
                if limit is not None and dealt <= limit < dealt + k:  # this batch overfills it
                    hooks.shoe_overfull(shoe.pk)
        return slots


# The number of the shoe's last round in force (`Round.objects` would add its derived columns'
# subqueries to a query asked once per shoe and batch).


_DEALT = (
    f"SELECT number FROM {Round._meta.db_table} WHERE shoe_id = %s AND supersedes_id IS NULL "
    f"ORDER BY position DESC LIMIT 1"
)


def _stored_documents(uids: list[str]) -> dict:
    """The documents already stored (revision 1) under these ids, by id. Most imports find none:
    the ids are looked for first as one array parameter on PostgreSQL (not 2,000 of them)."""
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor == "postgresql":
        with db.cursor() as cursor:
            cursor.execute(
                f"SELECT uid FROM {Round._meta.db_table} WHERE revision = 1 AND uid = ANY(%s)",
                [[uuid.UUID(uid) for uid in uids]],
            )
            uids = [row[0] for row in cursor.fetchall()]
        if not uids:
            return {}
    return dict(Round.objects.filter(uid__in=uids, revision=1).values_list("uid", "document"))


def _id_conflict(uid: str) -> ServiceError:
    return refuse(_("A different round with the id %(id)s is already stored.") % {"id": uid}, "id_conflict", status=409)
