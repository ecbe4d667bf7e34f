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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import connections
from django.utils.translation import gettext as _

from casino.db import model_from_row
from casino.errors import ServiceError
from casino.models import Table
from dealing import chain, engine
from dealing.access import check_may_log_at, check_may_log_for, dealer_of
from dealing.engine.base import rules_jsonable
from dealing.errors import engine_error, refuse

from .bulk_store import BatchStore
from .bulk_writes import stake_values
from .chain_link import Link
from .documents import complete_document, played_at_of, read_document
from .rounds import logged_float, refuse_impossible, stake_rows, table_of_document
from .shoes import shoe_number_of

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
class Pending:
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
    the `Pending` itself, Decimals and row objects, cost more than checking the line). The stake
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
    def of(cls, item: Pending) -> _Shipped:
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


class _Importer(BatchStore):
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
        pending: list[Pending] = []
        errors: list[tuple[int, ServiceError]] = []
        for number, item, error in results:
            if item is None:
                errors.append((number, ServiceError(*error) if raw is not None else error))
                continue
            pending.append(item if raw is None else self._unship(item, raw[number]))
        return pending, errors

    def _unship(self, shipped: _Shipped, line: bytes) -> Pending:
        table = self.table if shipped.table_row is None else self._table_of_row(shipped.table_row)
        house_rules, house_rules_json = self._house_rules(table)
        return Pending(
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

    def _prepare_line(self, number: int, line: bytes) -> Pending:
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

    def _prepare(self, number: int, line: bytes, doc: dict, user, found) -> Pending:
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
        return Pending(
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
