"""The hash chain of round records, and the canonical JSON it is computed over.

Each record's `sha256` covers what the record says (its document, table, dealer, revision, who
logged it and when, the house rules and limits in force) and the previous record's hash on the
same table. Editing any of that behind the application's back, deleting a record or reordering
records breaks the chain at that link, which `verify_chain` reports.

Ids, not names, identify tables and users: renaming a table must not break its chain.
"""

import hashlib
import json
from dataclasses import dataclass
from datetime import timezone
from decimal import Decimal

from dealing.engine.money import fmt

CHAIN_VERSION = 1


def json_safe(value):
    """A document with exact amounts made JSON-safe: whole amounts as integers, others as "7.50"
    (a number with more decimals, outside any amount, as its exact decimal text).

    Stored documents therefore hold no binary floats, so they read back from `jsonb` (or SQLite)
    exactly as written, and their hash never drifts.

    Every round logged passes through here, so the values that stay as they are (text, integers,
    booleans, null: most of a round log) are taken as they are, without a call of their own.
    """
    if isinstance(value, dict):
        return {key: item if type(item) in _AS_IS else json_safe(item) for key, item in value.items()}
    if isinstance(value, list):
        return [item if type(item) in _AS_IS else json_safe(item) for item in value]
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        text = fmt(value)
        # An amount has at most 2 decimals ("7.50"); any other number keeps all its digits.
        return text if Decimal(text) == value else str(value)
    if isinstance(value, float):
        return json_safe(Decimal(repr(value)))
    return value


# The exact types `json_safe` returns unchanged.
_AS_IS = frozenset({str, int, bool, type(None)})


def canonical_json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_payload(*, table_id: int, chain_index: int, uid, revision: int, supersedes_sha256: str | None,
                   shoe_id: int | None, dealer_id: int, logged_by_id: int, logged_at, variant: str,
                   house_rules: dict, table_min: Decimal, table_max: Decimal, document: dict,
                   prev_sha256: str) -> dict:
    return {
        "v": CHAIN_VERSION,
        "table": table_id,
        "link": chain_index,
        "uid": str(uid),
        "revision": revision,
        "supersedes": supersedes_sha256,
        "shoe": shoe_id,
        "dealer": dealer_id,
        "logged_by": logged_by_id,
        "logged_at": logged_at.astimezone(timezone.utc).isoformat(timespec="microseconds"),
        "variant": variant,
        "house_rules": house_rules,
        "table_min": fmt(Decimal(table_min)),
        "table_max": fmt(Decimal(table_max)),
        "document": document,
        "prev": prev_sha256,
    }


def digest(payload: dict) -> str:
    return hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


# The Round fields `round_hash` reads (with the superseded record's `sha256`), for `.only()`.
HASHED_FIELDS = ("table", "chain_index", "uid", "revision", "supersedes", "shoe", "dealer", "logged_by", "logged_at",
                 "variant", "house_rules", "table_min", "table_max", "document", "prev_sha256", "sha256")


def round_hash(record) -> str:
    """The hash a stored `Round` should carry, recomputed from its fields."""
    return digest(record_payload(
        table_id=record.table_id, chain_index=record.chain_index, uid=record.uid, revision=record.revision,
        supersedes_sha256=record.supersedes.sha256 if record.supersedes_id else None, shoe_id=record.shoe_id,
        dealer_id=record.dealer_id, logged_by_id=record.logged_by_id, logged_at=record.logged_at,
        variant=record.variant, house_rules=record.house_rules, table_min=record.table_min,
        table_max=record.table_max, document=record.document, prev_sha256=record.prev_sha256,
    ))


@dataclass
class Break:
    """The first broken link of a table's chain."""

    table: str
    chain_index: int
    round_id: int | None
    problem: str


def verify_table(table, rounds) -> Break | None:
    """Walk one table's records in chain order; the first link that does not hold, or None.

    `rounds` must be the table's records ordered by `chain_index` (an iterator is fine: the walk
    keeps only the previous hash in memory).
    """
    expected_index = 0
    prev = ""
    for record in rounds:
        if record.chain_index != expected_index:
            return Break(table.name, expected_index, None,
                         f"link {expected_index} is missing (the next record is link {record.chain_index})")
        if record.prev_sha256 != prev:
            return Break(table.name, record.chain_index, record.pk,
                         "its previous-hash does not match the record before it")
        actual = round_hash(record)
        if actual != record.sha256:
            return Break(table.name, record.chain_index, record.pk,
                         "its contents do not match its hash (the record was changed after it was written)")
        prev = record.sha256
        expected_index += 1
    return None
