"""The keyed chain of round records and pit-boss approvals, and the canonical JSON it is computed over.

Each round record is a link of its table's chain: `sha256` is an HMAC-SHA-256, under a key from
the environment (`CHAIN_KEY`, never stored in the database), of everything the record says — its
document, every stake row with all its amounts (through `stakes_hmac`), table, dealer, shoe and
place in it, times, the engine's floats, the record it supersedes and why — and of the previous
record's link on the same table. The pit bosses' approvals form one chain of their own, each
covering the round or incident it decides. So editing any covered column behind the application's
back, deleting, inserting or reordering records, or recomputing the chain without the key breaks
it at a link that `chain_verify` (dealing.services) names. docs/chain.md lists the covered columns.

Every link is computed by `link_digest`: round_log, the corrections, the bulk importer, the
benchmarks and the verifier call it (through `seal_round` / `seal_approval`), never a copy of it.

Ids, not names, identify tables and users: renaming a table must not break its chain.
"""

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

import msgspec

from dealing.engine.money import CENT, fmt

# 1: a plain SHA-256 of the round record (without its stakes). 2: HMAC-SHA-256 with a key id, the
# stake rows, the shoe place, the floats and the correction's reason; approvals chained.
# Only the current version verifies: a link of another version is reported, never accepted.
CHAIN_VERSION = 2


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
    """The one text a value is hashed, signed and compared as: `json.dumps(value, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)`, byte for byte, for the JSON values every caller
    gives (text, whole numbers, true/false/null, lists, objects keyed by text: what `json_safe`
    returns and `jsonb` reads back). msgspec writes it about six times faster, and every round
    logged or imported is encoded several times (its document, its stakes, its link). An object
    keyed by numbers (json.dumps sorts those as numbers) goes the standard library's way; a float,
    which json_safe never leaves, would be written "1e16" where json.dumps writes "1e+16"."""
    try:
        return _CANONICAL.encode(value).decode("utf-8")
    except (TypeError, UnicodeEncodeError):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_CANONICAL = msgspec.json.Encoder(order="sorted")


def canonical_json_with(payload: dict, encoded: dict[str, str]) -> str:
    """`canonical_json(payload)`, byte for byte, with the values of the keys in `encoded` given as
    their canonical JSON already: a round's document is encoded once, for its link and for its
    column, not once each. The keys between two encoded ones go through one `canonical_json` of
    their own, so no text is searched or replaced."""
    parts = []
    run: dict = {}
    for key in sorted(payload):
        text = encoded.get(key)
        if text is None:
            run[key] = payload[key]
            continue
        if run:
            parts.append(canonical_json(run)[1:-1])
            run = {}
        parts.append(f"{canonical_json(key)}:{text}")
    if run:
        parts.append(canonical_json(run)[1:-1])
    return "{" + ",".join(parts) + "}"


def money_column(value) -> Decimal | None:
    """An amount as a money column stores it (2 decimals, halves away from zero as PostgreSQL
    rounds): the value hashed is the value stored, on every database."""
    if value is None:
        return None
    if type(value) is not Decimal:  # str() of a Decimal is exact, so a Decimal goes as it is
        return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)
    # The same few amounts (a table's chips and limits) recur in every round and stake row: cached
    # by value, as `fmt` caches their text. Equal Decimals ("100", "100.00") have the one column
    # value. Only Decimals are cached: a float equal to a Decimal may round otherwise.
    column = _MONEY_COLUMN.get(value)
    if column is None:
        column = value.quantize(CENT, rounding=ROUND_HALF_UP)
        if len(_MONEY_COLUMN) < 100_000:
            _MONEY_COLUMN[value] = column
    return column


_MONEY_COLUMN: dict[Decimal, Decimal] = {}


def _money(value) -> str | None:
    """An amount as its link hashes it: the text of its money column's value ("100", "7.50")."""
    return None if value is None else fmt(money_column(value))


# --- the key ---------------------------------------------------------------------------------


class UnknownKey(Exception):
    """A link names a key id that is not configured (CHAIN_KEY_ID / CHAIN_KEYS_OLD)."""


def chain_keys() -> tuple[str, dict[str, bytes]]:
    """(the current key id, every configured key by id) from the settings (casino/settings.py)."""
    from django.conf import settings

    return _keys(
        settings.CHAIN_KEY_ID, settings.CHAIN_KEY, tuple(sorted(getattr(settings, "CHAIN_KEYS_OLD", {}).items()))
    )


@lru_cache(maxsize=8)
def _keys(current: str, secret: str, old: tuple) -> tuple[str, dict[str, bytes]]:
    # Cached by the settings' values, so a test that overrides them gets its own keys.
    keys = {key_id: value.encode("utf-8") for key_id, value in old}
    keys[current] = secret.encode("utf-8")
    return current, keys


def key_for(key_id: str) -> bytes:
    keys = chain_keys()[1]
    try:
        return keys[key_id]
    except KeyError:
        raise UnknownKey(key_id) from None


def link_digest(payload: dict, key: bytes, encoded: dict[str, str] | None = None) -> str:
    """THE link function: HMAC-SHA-256 of the payload's canonical JSON under `key`, in hex
    (`encoded`: values already in canonical JSON, see `canonical_json_with`)."""
    text = canonical_json(payload) if not encoded else canonical_json_with(payload, encoded)
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()


# --- rounds ----------------------------------------------------------------------------------

# A stake row's columns, in the payload's order; `stake_payload` reads them by attribute name.
STAKE_FIELDS = ("stake_id", "box", "player", "ante", "bet", "dealer_bet", "owed_net", "paid_net")
_STAKE_AMOUNTS = frozenset({"ante", "bet", "dealer_bet", "owed_net", "paid_net"})


def stake_payload(values) -> list:
    """One stake row (an object or a tuple in STAKE_FIELDS order) as hashed."""
    if not isinstance(values, tuple):
        values = tuple(getattr(values, name) for name in STAKE_FIELDS)
    stake_id, box, player, ante, bet, dealer_bet, owed_net, paid_net = values
    return [stake_id, box, player, _money(ante), _money(bet), _money(dealer_bet), _money(owed_net), _money(paid_net)]


def stakes_digest(stakes, key: bytes) -> str:
    """The HMAC of a round's stake rows (in any order: they are sorted by their id, unique per round)."""
    rows = sorted((stake_payload(s) for s in stakes), key=lambda row: row[0])
    return link_digest({"v": CHAIN_VERSION, "stakes": rows}, key)


def record_payload(
    *,
    key_id: str,
    table_id: int,
    chain_index: int,
    uid,
    revision: int,
    supersedes_sha256: str | None,
    amendment_reason: str,
    shoe_id: int | None,
    position: int | None,
    number: int | None,
    dealer_id: int,
    logged_by_id: int,
    logged_at,
    variant: str,
    house_rules: dict,
    table_min,
    table_max,
    float_owed,
    float_logged,
    document: dict,
    stakes_hmac: str,
    prev_sha256: str,
    played_at=None,
) -> dict:
    payload = {
        "v": CHAIN_VERSION,
        "key": key_id,
        "table": table_id,
        "link": chain_index,
        "uid": str(uid),
        "revision": revision,
        "supersedes": supersedes_sha256,
        "reason": amendment_reason,
        "shoe": shoe_id,
        "position": position,
        "number": number,
        "dealer": dealer_id,
        "logged_by": logged_by_id,
        "logged_at": logged_at.astimezone(UTC).isoformat(timespec="microseconds"),
        "variant": variant,
        "house_rules": house_rules,
        "table_min": _money(table_min),
        "table_max": _money(table_max),
        "float_owed": _money(float_owed),
        "float_logged": _money(float_logged),
        "document": document,
        "stakes": stakes_hmac,
        "prev": prev_sha256,
    }
    # When the round was dealt is part of the record. Written only where it differs from the time it
    # was logged: every round stored before `played_at` existed took its `logged_at`, so its link is
    # unchanged, and a `played_at` edited either way still changes the payload.
    if played_at is not None and played_at != logged_at:
        payload["played_at"] = played_at.astimezone(UTC).isoformat(timespec="microseconds")
    return payload


def round_hash(
    record, *, supersedes_sha256: str | None = None, key: bytes | None = None, encoded: dict[str, str] | None = None
) -> str:
    """The link a stored `Round` should carry, recomputed from its fields (its `stakes_hmac` as
    stored; `stakes_digest` checks that one against the stake rows). The superseded record's link
    is `supersedes_sha256` when given, else read from `record.supersedes`. `encoded`: the canonical
    JSON of some of its payload's values ("document", "house_rules"), when the caller has it."""
    if supersedes_sha256 is None and record.supersedes_id:
        supersedes_sha256 = record.supersedes.sha256
    return link_digest(
        record_payload(
            key_id=record.chain_key,
            table_id=record.table_id,
            chain_index=record.chain_index,
            uid=record.uid,
            revision=record.revision,
            supersedes_sha256=supersedes_sha256 if record.supersedes_id else None,
            amendment_reason=record.amendment_reason,
            shoe_id=record.shoe_id,
            position=record.position,
            number=record.number,
            dealer_id=record.dealer_id,
            logged_by_id=record.logged_by_id,
            logged_at=record.logged_at,
            variant=record.variant,
            house_rules=record.house_rules,
            table_min=record.table_min,
            table_max=record.table_max,
            float_owed=record.float_owed,
            float_logged=record.float_logged,
            document=record.document,
            stakes_hmac=record.stakes_hmac,
            prev_sha256=record.prev_sha256,
            played_at=getattr(record, "played_at", None),
        ),
        key_for(record.chain_key) if key is None else key,
        encoded,
    )


def seal_round(
    record,
    stakes,
    *,
    supersedes_sha256: str | None = None,
    encoded: dict[str, str] | None = None,
    stakes_hmac: str | None = None,
) -> str:
    """Give a record about to be written (its `chain_index` and `prev_sha256` set) its key id,
    its stakes' HMAC and its link, under the current key; returns the link. Every writer of rounds
    calls this (round_log, corrections, bulk imports, the benchmarks, the migrations).

    The bulk importer passes what its checking processes computed already: `encoded` (see
    `round_hash`) and `stakes_hmac`, the `stakes_digest` of `stakes` under the current key."""
    key_id, keys = chain_keys()
    key = keys[key_id]
    record.chain_key = key_id
    record.stakes_hmac = stakes_digest(stakes, key) if stakes_hmac is None else stakes_hmac
    record.sha256 = round_hash(record, supersedes_sha256=supersedes_sha256, key=key, encoded=encoded)
    return record.sha256


def round_mismatch(row, stakes, key: bytes) -> str | None:
    """None when a stored round (`row`, with its superseded record's `supersedes_sha256`) and its
    stake rows match its link under `key`; else which rows do not: ROUNDS or STAKES. The verifier's
    walk and the round page ask this one question."""
    if not hmac.compare_digest(round_hash(row, supersedes_sha256=row.supersedes_sha256, key=key), row.sha256):
        return ROUNDS
    if not hmac.compare_digest(stakes_digest(stakes, key), row.stakes_hmac):
        return STAKES
    return None


# --- approvals -------------------------------------------------------------------------------

APPROVAL_FIELDS = (
    "link",
    "incident",
    "round",
    "decided_by",
    "decision",
    "comment",
    "decided_at",
    "chain_key",
    "prev_hmac",
    "hmac",
)


def approval_payload(
    *,
    key_id: str,
    link: int,
    incident_id: int | None,
    round_sha256: str | None,
    decided_by_id: int,
    decision: str,
    comment: str,
    decided_at,
    prev_hmac: str,
) -> dict:
    return {
        "v": CHAIN_VERSION,
        "key": key_id,
        "link": link,
        "incident": incident_id,
        "round": round_sha256,
        "decided_by": decided_by_id,
        "decision": decision,
        "comment": comment,
        "decided_at": decided_at.astimezone(UTC).isoformat(timespec="microseconds"),
        "prev": prev_hmac,
    }


def approval_hash(approval, *, round_sha256: str | None, key: bytes | None = None) -> str:
    """The HMAC an `Approval` should carry; `round_sha256` is the link of the round it decides."""
    return link_digest(
        approval_payload(
            key_id=approval.chain_key,
            link=approval.link,
            incident_id=approval.incident_id,
            round_sha256=round_sha256 if approval.round_id else None,
            decided_by_id=approval.decided_by_id,
            decision=approval.decision,
            comment=approval.comment,
            decided_at=approval.decided_at,
            prev_hmac=approval.prev_hmac,
        ),
        key_for(approval.chain_key) if key is None else key,
    )


def approval_mismatch(row, key: bytes) -> str | None:
    """None when a stored approval (`row`, with the link of the round it decides as `round_sha256`)
    matches its HMAC under `key`, else APPROVALS."""
    actual = approval_hash(row, round_sha256=row.round_sha256, key=key)
    return None if hmac.compare_digest(actual, row.hmac) else APPROVALS


def supersession_mismatch(row) -> str | None:
    """None when an approval row (`chain_approval_rows`) carries the supersession it implies, else
    SUPERSESSIONS. An approved correction of a round — its approval keyed and chained, its link
    covering the round it corrects — must have exactly one Supersession: that approval's, replacing
    that round by that correction, at the approval's time; any other approval must have none. So an
    UPDATE of any column of a supersession, its DELETE, or an INSERT of one (a supersession names
    its approval, one each: every one is checked here) is found at the approval's link."""
    wanted = row.decision == DECISION_APPROVED and row.round_id is not None and row.round_supersedes_id is not None
    if row.supersession_id is None:
        return SUPERSESSIONS if wanted else None
    if not wanted:
        return SUPERSESSIONS
    if (
        row.supersession_superseding_id != row.round_id
        or row.supersession_superseded_id != row.round_supersedes_id
        or row.supersession_at != row.decided_at
    ):
        return SUPERSESSIONS
    return None


def seal_approval(approval, *, round_sha256: str | None) -> str:
    """Give an approval about to be written (its `link` and `prev_hmac` set) its key id and HMAC."""
    key_id, keys = chain_keys()
    approval.chain_key = key_id
    approval.hmac = approval_hash(approval, round_sha256=round_sha256, key=keys[key_id])
    return approval.hmac


# --- walking a chain -------------------------------------------------------------------------

ROUNDS, STAKES, APPROVALS, CHECKPOINTS = "dealing_round", "dealing_stake", "dealing_approval", "checkpoint log"
SUPERSESSIONS = "dealing_supersession"
DECISION_APPROVED = "approved"  # dealing.choices.Decision.APPROVED (this module imports nothing of Django)
APPROVALS_CHAIN = "approvals"  # the name the approvals' chain goes by in reports and checkpoints


_CONTENTS_CHANGED = (
    "its contents do not match its link (the record was changed after it was written, or the "
    "chain was recomputed without the key)"
)
# A part of a record checked apart from it (a round's stake rows, through `stakes_hmac`).
_MISMATCH = {
    STAKES: "its stake rows do not match the link (a stake was changed, added or removed)",
    SUPERSESSIONS: "its supersession does not match the approval (a supersession was changed, removed or "
    "added: which revision of the round is in force was altered)",
}


def table_round_problem(stored, wanted) -> str:
    """A round whose number (`table_round`) is not the one its place in the chain gives."""
    return (
        f"its round number (table_round) is {stored}, but its place in the chain makes it {wanted} "
        "(the rounds were renumbered)"
    )


@dataclass
class Break:
    """What does not hold: the floor table's chain (or "approvals"), the stored table whose rows
    are wrong (dealing_round, dealing_stake, dealing_approval, the checkpoint log), the link, the
    row's id when there is a row, and what is wrong."""

    chain: str
    relation: str
    link: int | None
    row_id: int | None
    problem: str

    def __str__(self) -> str:
        link = "-" if self.link is None else self.link
        row = "" if self.row_id is None else f", row id {self.row_id}"
        return f"{self.chain}: {self.relation}, link {link}{row}: {self.problem}"


@dataclass
class Head:
    """A chain's head as a signed checkpoint recorded it: how many links, the last one's hash, when."""

    count: int
    head: str
    at: str


class Walk:
    """One chain checked link after link, keeping only the previous link: `step` each record in
    chain order, then `end`. The first break found is `broken` (later links are not judged)."""

    def __init__(self, chain: str, relation: str, checkpoint: Head | None = None):
        self.chain, self.relation, self.checkpoint = chain, relation, checkpoint
        self.expected = 0
        self.prev = ""
        self.broken: Break | None = None

    def fail(self, relation: str, link: int | None, row_id: int | None, problem: str) -> None:
        if self.broken is None:
            self.broken = Break(self.chain, relation, link, row_id, problem)

    def step(self, *, link: int, row_id: int, prev: str, stored: str, key_id: str, mismatch) -> bool:
        """Check one record; `mismatch(key)` is None when its contents match its link under `key`,
        else the stored table whose rows do not (`round_mismatch`, `approval_mismatch`). False once broken."""
        if self.broken is not None:
            return False
        if link != self.expected:
            if link < self.expected:
                self.fail(self.relation, link, row_id, f"link {link} appears twice")
            else:
                missing = self.expected if link == self.expected + 1 else f"{self.expected}–{link - 1}"
                self.fail(
                    self.relation, self.expected, None, f"link {missing} is missing (the next record is link {link})"
                )
            return False
        if prev != self.prev:
            self.fail(
                self.relation,
                link,
                row_id,
                "its previous-hash does not match the record before it (a record was removed, inserted or moved)",
            )
            return False
        try:
            key = key_for(key_id)
        except UnknownKey:
            self.fail(
                self.relation,
                link,
                row_id,
                f"its key id {key_id!r} is not a configured chain key (CHAIN_KEY_ID, CHAIN_KEYS_OLD)",
            )
            return False
        wrong = mismatch(key)
        if wrong is not None:
            self.fail(wrong, link, row_id, _MISMATCH.get(wrong, _CONTENTS_CHANGED))
            return False
        checkpoint = self.checkpoint
        if checkpoint is not None and link == checkpoint.count - 1 and stored != checkpoint.head:
            self.fail(
                self.relation,
                link,
                row_id,
                f"it is not the head the checkpoint of {checkpoint.at} signed (the chain was rebuilt)",
            )
            return False
        self.prev = stored
        self.expected += 1
        return True

    def end(self) -> Break | None:
        """The first break, after the last record: a chain shorter than its latest checkpoint was cut."""
        checkpoint = self.checkpoint
        if self.broken is None and checkpoint is not None and self.expected < checkpoint.count:
            self.fail(
                self.relation,
                self.expected,
                None,
                f"the chain ends at {self.expected} links but the checkpoint of {checkpoint.at} signed "
                f"{checkpoint.count} (the newest records were deleted)",
            )
        return self.broken
