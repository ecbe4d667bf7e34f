"""Bulk import of round logs (`manage.py import_rounds`): the checks of `round_log`, the writes in
batches.

Every line is read, completed, checked and replayed by the engine exactly as `round_log` does it
(`documents.read_document`, `documents.complete_document`, `access`, `engine.replay`,
`rounds.stake_rows`); a line that is refused is reported by its number and the others go on.
What differs is the writing: the rounds of a batch (`BATCH` lines) are written in one transaction,
each table locked once, its chain's head read once, every round sealed with the same
`chain.seal_round` (HMAC v2 links, `stakes_hmac`, `chain_index`), then all of them and their stake
rows sent in one COPY each on PostgreSQL (a `bulk_create` elsewhere). The rounds stored are
announced once the batch commits (`hooks.rounds_batched`): audit queues their audits.

With `jobs` > 1 the lines are checked in forked processes, which send each back as a `_Shipped`
(plain text and numbers); the writing stays in one process, so each chain is sealed in order. The
COPY itself is in `bulk_writes`.

Memory stays flat: the file is read line by line and only one batch is held.
"""

from __future__ import annotations

import json
import multiprocessing
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.db import model_from_row
from casino.errors import ServiceError
from casino.models import Table
from dealing import chain, engine, hooks, selectors
from dealing.access import check_may_log_at, check_may_log_for, dealer_of
from dealing.engine.base import rules_jsonable
from dealing.errors import engine_error, refuse

from ..models import Round, Shoe
from .bulk_writes import Record, insert_records, stake_values
from .chain_link import Link
from .documents import complete_document, played_at_of, read_document
from .rounds import logged_float, refuse_impossible, stake_rows, table_of_document
from .shoes import shoe_ended_error, shoe_number_of, unknown_shoe_error

User = get_user_model()

BATCH = 2000  # lines per transaction: a few MB held at once, and a COPY long enough to pay


@dataclass
class ImportSummary:
    stored: int = 0
    repeats: int = 0
    refused: int = 0
    lines: int = 0  # read so far (blank lines not counted)

    def to_dict(self) -> dict:
        return {"stored": self.stored, "repeats": self.repeats, "refused": self.refused}

    def __str__(self) -> str:
        return f"{self.stored} stored, {self.repeats} already stored, {self.refused} refused"


@dataclass
class _Pending:
    """A line checked, with what writing it needs (the document itself only as its canonical JSON)."""

    line: int
    raw: bytes
    user: object
    table: Table
    table_row: tuple | None
    uid: str
    table_min: Decimal
    table_max: Decimal
    shoe_reference: object
    stakes: list
    dealer: object
    float_owed: Decimal | None
    float_logged: Decimal | None
    shoe_number: int | None
    house_rules: dict = field(default_factory=dict)
    played_at: object = None  # the document's `played_at`, read; None: dealt when imported
    # Computed where the line is checked (in a checking process with --jobs): the canonical JSON
    # of the document and of the house rules (hashed in the link and sent as the columns' text),
    # and the stake rows' HMAC under the key `key_id`.
    document_json: str = ""
    house_rules_json: str = ""
    key_id: str = ""
    stakes_hmac: str = ""


class _Shipped(NamedTuple):
    """A checked line as a checking process sends it back: plain text and numbers only (pickling
    the `_Pending` itself, Decimals and row objects, cost more than checking the line). The stake
    rows are tuples in `chain.STAKE_FIELDS` order with the amounts as text, as the COPY sends them
    and `chain.stake_payload` reads them; the line itself stays with the writer."""

    line: int
    user: int
    dealer: int
    table_row: tuple | None
    uid: str
    table_min: str
    table_max: str
    shoe_reference: object
    stakes: list
    float_owed: str | None
    float_logged: str | None
    shoe_number: int | None
    document_json: str
    key_id: str
    stakes_hmac: str
    played_at: str | None  # ISO 8601

    @classmethod
    def of(cls, item: _Pending) -> _Shipped:
        return cls(
            line=item.line,
            user=item.user.pk,
            dealer=item.dealer.pk,
            table_row=item.table_row,
            uid=item.uid,
            table_min=str(item.table_min),
            table_max=str(item.table_max),
            shoe_reference=item.shoe_reference,
            stakes=[tuple(_text(value) for value in stake_values(s)) for s in item.stakes],
            float_owed=_text(item.float_owed),
            float_logged=_text(item.float_logged),
            shoe_number=item.shoe_number,
            document_json=item.document_json,
            key_id=item.key_id,
            stakes_hmac=item.stakes_hmac,
            played_at=None if item.played_at is None else item.played_at.isoformat(),
        )


def _text(value):
    return str(value) if type(value) is Decimal else value


def _decimal(text) -> Decimal | None:
    return None if text is None else Decimal(text)


def rounds_import(
    lines: Iterable[bytes],
    *,
    logged_by=None,
    table: Table | None = None,
    refused: Callable[[int, ServiceError], None] | None = None,
    batch: int = BATCH,
    jobs: int = 1,
    progress: Callable[[ImportSummary], None] | None = None,
) -> ImportSummary:
    """Log the `round/1` documents of `lines` (bytes, one document each; blank lines are skipped).

    `logged_by`: the user every round is logged by (default: the dealer each one names).
    `table`: the table every round is logged at (default: the one each names). `refused(line
    number, error)` is called for every line refused, in line order within a batch. Returns the
    counts. The same round id already stored with the same body is a repeat, not an error.

    `jobs` > 1: the lines are checked in that many forked processes (PostgreSQL; the caller must
    not be inside a transaction), a batch ahead of the writing, which stays in this process.
    `progress(summary)` is called after each batch is written."""
    importer = _Importer(logged_by=logged_by, table=table, refused=refused, batch=batch, jobs=jobs)
    importer.progress = progress or (lambda summary: None)
    return importer.run(lines)


_WORKER: _Importer | None = None  # the importer a forked checking process works for


def _worker_prepare(part):
    """In a checking process: check lines; each goes back as `_Shipped`, or as its refusal."""
    out = []
    _WORKER.allowed.clear()
    for number, line in part:
        try:
            item = _WORKER._prepare_line(number, line)
        except ServiceError as exc:
            out.append((number, None, (exc.message, exc.extra, exc.status)))
            continue
        out.append((number, _Shipped.of(item), None))
    return out


def _windows(numbered, size: int):
    window = []
    for item in numbered:
        window.append(item)
        if len(window) >= size:
            yield window
            window = []
    if window:
        yield window


def _split(window: list, parts: int) -> list[list]:
    step = -(-len(window) // parts)
    return [window[k : k + step] for k in range(0, len(window), step)]


class _Importer:
    def __init__(self, *, logged_by, table, refused, batch, jobs=1):
        self.logged_by, self.table, self.batch_size, self.jobs = logged_by, table, batch, jobs
        self.users_by_pk: dict[int, object] = {}
        self.progress: Callable[[ImportSummary], None] = lambda summary: None
        self.report = refused or (lambda number, error: None)
        self.summary = ImportSummary()
        self.users: dict[str, object] = {}
        if logged_by is not None:
            self.users[logged_by.get_username()] = logged_by
        self.rules: dict[tuple, tuple[dict, str]] = {}  # the house rules a table's rounds store (and
        # their canonical JSON), by (variant, rules); `self.rules_of` finds them by the rules' object
        self.rules_of: dict[int, tuple[object, str, tuple[dict, str]]] = {}
        self.tables: dict[tuple, Table] = {}  # one instance per table row read
        # Who may log at which table and for which dealer, as found in this batch (the checks ask
        # the database and translate their refusals first): (user, table, pit, dealer or None).
        self.allowed: set[tuple] = set()

    # --- reading and checking -------------------------------------------------------------------

    def run(self, lines: Iterable[bytes]) -> ImportSummary:
        numbered = ((number, line) for number, line in enumerate(lines, 1) if line.strip())
        windows = _windows(numbered, self.batch_size)
        if self.jobs <= 1:
            for window in windows:
                self._flush(*self._collect(self._prepare_all(window)))
            return self.summary
        # Checking runs in `jobs` forked processes, one batch ahead of the writing (which stays
        # here: the links of a table are sealed in order). At most two batches are held.
        global _WORKER
        connections.close_all()  # each process opens its own
        _WORKER = self
        with multiprocessing.get_context("fork").Pool(self.jobs) as pool:
            window = next(windows, None)
            ahead = None if window is None else pool.map_async(_worker_prepare, _split(window, self.jobs))
            while ahead is not None:
                results = [result for part in ahead.get() for result in part]
                raw = dict(window)  # the lines stay here: they are sent back only to be checked again
                window = next(windows, None)
                ahead = None if window is None else pool.map_async(_worker_prepare, _split(window, self.jobs))
                self._flush(*self._collect(results, raw=raw))
        _WORKER = None
        return self.summary

    def _prepare_all(self, window):
        self.allowed.clear()
        out = []
        for number, line in window:
            try:
                out.append((number, self._prepare_line(number, line), None))
            except ServiceError as exc:
                out.append((number, None, exc))
        return out

    def _collect(self, results, *, raw: dict[int, bytes] | None = None):
        """The lines checked and the lines refused; `raw` (the lines by number): the results come
        from checking processes, as `_ship` and `_worker_prepare` send them."""
        pending: list[_Pending] = []
        errors: list[tuple[int, ServiceError]] = []
        for number, item, error in results:
            if item is None:
                errors.append((number, ServiceError(*error) if raw is not None else error))
                continue
            pending.append(item if raw is None else self._unship(item, raw[number]))
        return pending, errors

    def _unship(self, shipped: _Shipped, line: bytes) -> _Pending:
        table = self.table if shipped.table_row is None else self._table_of_row(shipped.table_row)
        house_rules, house_rules_json = self._house_rules(table)
        return _Pending(
            line=shipped.line,
            raw=line,
            user=self._user_by_pk(shipped.user),
            table=table,
            table_row=shipped.table_row,
            uid=shipped.uid,
            table_min=Decimal(shipped.table_min),
            table_max=Decimal(shipped.table_max),
            shoe_reference=shipped.shoe_reference,
            stakes=shipped.stakes,
            dealer=self._user_by_pk(shipped.dealer),
            float_owed=_decimal(shipped.float_owed),
            float_logged=_decimal(shipped.float_logged),
            shoe_number=shipped.shoe_number,
            house_rules=house_rules,
            document_json=shipped.document_json,
            house_rules_json=house_rules_json,
            key_id=shipped.key_id,
            stakes_hmac=shipped.stakes_hmac,
            played_at=None if shipped.played_at is None else datetime.fromisoformat(shipped.played_at),
        )

    def _user_by_pk(self, pk):
        user = self.users_by_pk.get(pk)
        if user is None:
            user = next((u for u in self.users.values() if u is not None and u.pk == pk), None)
            if user is None:
                user = User.objects.get(pk=pk)
            self.users_by_pk[pk] = user
        return user

    def _table_of_row(self, row):
        table = self.tables.get(row)
        if table is None:
            table = self.tables[row] = model_from_row(Table, Link.TABLE_FIELDS, row)
        return table

    def _user(self, username):
        if not isinstance(username, str) or not username:
            return None
        if username not in self.users:
            self.users[username] = User.objects.filter(username=username, is_active=True).first()
        return self.users[username]

    def _prepare_line(self, number: int, line: bytes) -> _Pending:
        doc = read_document(line)
        user = self.logged_by
        if user is None:
            user = self._user(doc.get("dealer"))
            if user is None:
                raise refuse(
                    _("The round names no dealer known here; give --as USERNAME."), "unknown_dealer", path="$.dealer"
                )
        found = self._table_for(doc)
        try:
            return self._prepare(number, line, doc, user, found)
        except (ServiceError, ObjectDoesNotExist):  # judged against a table as it no longer is?
            if found[1] is None or not Link.forget_if_changed(found[1]):
                raise
        return self._prepare(number, line, doc, user, self._table_for(doc))

    def _table_for(self, doc: dict):
        """`rounds.table_of_document`, with one Table instance per stored row (not one per line)."""
        raw = doc.get("table")
        name = raw.get("name") if isinstance(raw, dict) else None
        if self.table is None and isinstance(name, str):
            row = Link.table_rows.get(name)
            if row is not None:
                return self._table_of_row(row), row
        return table_of_document(doc, self.table)

    def _prepare(self, number: int, line: bytes, doc: dict, user, found) -> _Pending:
        """As `rounds.round_prepare`, with the users read once per import."""
        table, row = found
        allowed = self.allowed
        if (user.pk, table.pk, table.pit_id, None) not in allowed:
            check_may_log_at(user, table)
            allowed.add((user.pk, table.pk, table.pit_id, None))
        doc = complete_document(doc, table=table, logged_by=user)
        played_at = played_at_of(doc, table)
        username = doc["dealer"]
        dealer = user if username == user.get_username() else self._user(username)
        if dealer is None or (user.pk, table.pk, table.pit_id, dealer.pk) not in allowed:
            if not dealer_of(table, dealer):
                raise refuse(
                    _('"%(dealer)s" is not a dealer of pit %(pit)s, where table %(table)s stands.')
                    % {"dealer": username, "pit": table.pit.name, "table": table.name},
                    "unknown_dealer",
                    path="$.dealer",
                )
            check_may_log_for(user, table, dealer, None)
            allowed.add((user.pk, table.pk, table.pit_id, dealer.pk))
        try:
            outcome = engine.replay(doc)
        except engine.RoundError as exc:
            raise engine_error(exc) from None
        refuse_impossible(outcome)
        stored = chain.json_safe(doc)
        stakes = stake_rows(stored, outcome)
        reference = stored.get("shoe")
        shoe_number = shoe_number_of(table, reference) if reference else None
        house_rules, house_rules_json = self._house_rules(table)
        key_id, keys = chain.chain_keys()
        return _Pending(
            line=number,
            raw=line,
            user=user,
            table=table,
            table_row=row,
            uid=stored["id"],
            table_min=Decimal(str(stored["table"]["min"])),
            table_max=Decimal(str(stored["table"]["max"])),
            shoe_reference=reference,
            stakes=stakes,
            dealer=dealer,
            float_owed=chain.money_column(outcome.float),
            float_logged=chain.money_column(logged_float(outcome)),
            shoe_number=shoe_number,
            house_rules=house_rules,
            document_json=chain.canonical_json(stored),
            house_rules_json=house_rules_json,
            key_id=key_id,
            stakes_hmac=chain.stakes_digest(stakes, keys[key_id]),
            played_at=played_at,
        )

    def _house_rules(self, table: Table) -> tuple[dict, str]:
        # Most lines name a table read before: its rules' object is the one seen then (kept
        # alive here, so its id is not reused), and the rules are not encoded again to be found.
        seen = self.rules_of.get(id(table.rules))
        if seen is not None and seen[0] is table.rules and seen[1] == table.variant:
            return seen[2]
        key = (table.variant, json.dumps(table.rules, sort_keys=True, default=str))
        found = self.rules.get(key)
        if found is None:
            rules = chain.json_safe(rules_jsonable(engine.house_rules(table.variant, table.rules)))
            found = self.rules[key] = (rules, chain.canonical_json(rules))
        self.rules_of[id(table.rules)] = (table.rules, table.variant, found)
        return found

    # --- writing --------------------------------------------------------------------------------

    def _flush(self, pending: list[_Pending], errors: list[tuple[int, ServiceError]]) -> None:
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

    def _one_by_one(self, pending: list[_Pending], errors) -> tuple[int, int]:
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

    def _write(self, pending: list[_Pending], errors) -> tuple[int, int]:
        """Write one batch inside the caller's transaction; returns (stored, repeats)."""
        repeats = 0
        fresh: list[_Pending] = []
        seen: dict[str, _Pending] = {}
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
        by_table: dict[int, list[_Pending]] = {}
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

    def _chain_table(self, items: list[_Pending], errors) -> list[Record]:
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

    def _again(self, items: list[_Pending], errors) -> list[_Pending]:
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

    def _shoe_slots(self, table: Table, items: list[_Pending], errors) -> dict:
        """Each round's (shoe id, position, number) by its line: the shoe it names or the table's
        open one, positions taken from the shoe's counter in one UPDATE per shoe; False for a
        line refused (its shoe unknown or ended)."""
        wanted: dict[int | None, list[_Pending]] = {}
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
