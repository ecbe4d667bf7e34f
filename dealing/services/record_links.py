"""The rest of the record in the keyed chain: incidents, shoe events, verdicts, findings, reviews,
shifts, float events, the security log, staff identity — every relation an app registers here.

    register(model, fields=…, staff=…, exempt=…)   a relation: which columns its links cover, in order
    rows_touched(model, ids)    inside the writing transaction: append a link for each row whose
                                columns differ from its latest link (new, changed, or deleted)
    heads()                     each relation's head, as the checkpoints sign it
    relation_verify(key, …)     its links walked (order, previous link, HMAC) and every row compared
                                with its latest link: a change, a deletion or a forged row is a Break

Each relation is one keyed chain of `RecordLink` rows (dealing/chain_models.py): a link says what a
row said at a moment (its covered columns, as `payload`), or that it was deleted (`payload` null),
under the same HMAC and key as the rounds (`dealing.chain.link_digest`). A row that legitimately
changes (an incident decided, a shift closed, a finding reviewed, a user renamed) is a new fact —
a new link — not a rewrite: the history of its states stays in the chain, and its current values
must be its latest link's payload. So an UPDATE, DELETE or INSERT behind the application's back
leaves a row that no link accounts for, and the verifier names the relation, the link and the row.

Writes go through the ORM's save/delete (the signals connected here) or, for bulk writers, an
explicit `rows_touched` after their statement. Staff named by a record are kept in its payload by
username as they were then (`staff`): a rename is a new link of `auth_user`, never a rewrite of
the records. docs/chain.md lists every relation and every table left out.
"""

import hashlib
import hmac
import zlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal
from uuid import UUID

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from casino.db import advisory_xact_lock
from dealing import chain
from dealing.chain import Break, Head, Walk

from ..chain_models import RecordLink

# A relation's key in the checkpoints' heads: "records:dealing_incident".
PREFIX = "records:"
# The version of a record link's payload; only this one verifies.
RECORDS_VERSION = 1
# The stored table of the links themselves, as breaks of their order name it.
LINKS = RecordLink._meta.db_table


@dataclass(frozen=True)
class Relation:
    """A chained relation: the model, the columns (attnames) its links cover, the staff foreign keys
    whose username at the time each link keeps, and which rows need no link (`exempt(payload)`:
    a round's verdict while still pending says nothing yet)."""

    model: type
    fields: tuple[str, ...]
    staff: tuple[str, ...] = ()
    exempt: object = None
    # What a row points to outside the database (an attachment's file), compared by a whole
    # verification only: `outside(relation)` returns the first Break or None.
    outside: object = None

    @property
    def name(self) -> str:
        return self.model._meta.db_table

    @property
    def key(self) -> str:
        return PREFIX + self.name


_registry: dict[str, Relation] = {}


def register(model, *, fields, staff=(), exempt=None, outside=None) -> Relation:
    """Chain `model`'s rows (its apps.py calls this in ready()): `fields` the covered columns by
    attname, `staff` the user foreign keys (by name) whose username each link keeps, `outside` a
    check of what the rows point to outside the database (see Relation)."""
    relation = Relation(model, tuple(fields), tuple(staff), exempt, outside)
    _registry[relation.name] = relation
    uid = f"record_links:{relation.name}"
    post_save.connect(_saved, sender=model, dispatch_uid=uid, weak=False)
    post_delete.connect(_deleted, sender=model, dispatch_uid=uid, weak=False)
    return relation


def relations() -> list[Relation]:
    return [_registry[name] for name in sorted(_registry)]


def relation_for(key: str) -> Relation | None:
    return _registry.get(key.removeprefix(PREFIX))


def _saved(sender, instance, raw=False, **kwargs):
    if not raw:  # loaddata: fixtures are linked by `link_records`
        rows_touched(sender, [instance.pk])


def _deleted(sender, instance, **kwargs):
    rows_touched(sender, [instance.pk])


# --- payloads --------------------------------------------------------------------------------


def _value(value):
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat(timespec="microseconds")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Decimal | dict | list | float):
        return chain.json_safe(value)
    return value


def _columns(relation: Relation) -> list[str]:
    return ["pk", *relation.fields, *(f"{name}__username" for name in relation.staff)]


def _payload(relation: Relation, values: tuple) -> dict:
    n = len(relation.fields)
    data = {name: _value(value) for name, value in zip(relation.fields, values[1 : n + 1])}
    if relation.staff:
        # Who they were when the record was made: kept, not compared (auth_user's own chain is).
        data["staff"] = dict(zip(relation.staff, values[n + 1 :]))
    return data


def _compared(payload: dict | None) -> str:
    """The digest of the part of a payload a row must still match: everything but the staff's
    names then ("" for a deleted row)."""
    if payload is None:
        return ""
    text = chain.canonical_json({k: v for k, v in payload.items() if k != "staff"})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _rows(relation: Relation, ids=None, chunk: int = 2000, *, after: int = 0, upper: int | None = None):
    rows = relation.model._base_manager.all()
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    if after:
        rows = rows.filter(pk__gt=after)
    if upper is not None:
        rows = rows.filter(pk__lte=upper)
    for values in rows.order_by("pk").values_list(*_columns(relation)).iterator(chunk_size=chunk):
        yield values[0], _payload(relation, values)


def _lock(name: str) -> int:
    # One advisory lock per relation: its writers append one after the other (a stable number,
    # apart from the other locks of the project, which are small constants).
    return 0x5EC0_0000_0000 + zlib.crc32(name.encode("utf-8"))


def link_hmac(link: RecordLink, key: bytes) -> str:
    return chain.link_digest(
        {
            "v": RECORDS_VERSION,
            "key": link.chain_key,
            "relation": link.relation,
            "link": link.link,
            "row": link.row_id,
            "at": link.at.astimezone(UTC).isoformat(timespec="microseconds"),
            "data": link.payload,
            "digest": link.digest,
            "prev": link.prev_hmac,
        },
        key,
    )


# --- writing ---------------------------------------------------------------------------------


def rows_touched(model, ids) -> int:
    """Rows of a chained relation were just written or deleted (inside the writer's transaction):
    append a link for each one whose covered columns differ from its latest link's. Returns how
    many links were appended. A row no link knows and the relation exempts needs none yet."""
    relation = _registry.get(model._meta.db_table)
    ids = sorted({int(pk) for pk in ids if pk is not None})
    if relation is None or not ids:
        return 0
    with transaction.atomic():
        advisory_xact_lock(_lock(relation.name))
        current = dict(_rows(relation, ids))
        latest = _latest_digests(relation.name, ids)
        last = RecordLink.objects.filter(relation=relation.name).order_by("-link").values_list("link", "hmac").first()
        n, prev = (0, "") if last is None else (last[0] + 1, last[1])
        key_id, keys = chain.chain_keys()
        at = timezone.now()
        new = []
        for pk in ids:
            data = current.get(pk)
            digest = _compared(data)
            if pk in latest:
                if latest[pk] == digest:
                    continue
            elif data is None or (relation.exempt is not None and relation.exempt(data)):
                continue
            link = RecordLink(
                relation=relation.name,
                link=n,
                row_id=pk,
                payload=data,
                digest=digest,
                at=at,
                chain_key=key_id,
                prev_hmac=prev,
            )
            link.hmac = prev = link_hmac(link, keys[key_id])
            n += 1
            new.append(link)
        _insert(new)
    return len(new)


_TABLE = RecordLink._meta.db_table
# PostgreSQL: every link of a write in one statement whose text never changes (arrays, prepared
# once), about twenty times cheaper than the ORM's bulk INSERT for a thousand verdicts.
_INSERT = (
    f"INSERT INTO {_TABLE} (relation, link, row_id, payload, digest, at, chain_key, prev_hmac, hmac) "
    "SELECT %s, l, r, p::jsonb, d, %s, %s, v, h FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], "
    "%s::text[], %s::text[]) AS t(l, r, p, d, v, h)"
)


def _insert(new: list[RecordLink]) -> None:
    if not new:
        return
    if connection.vendor != "postgresql":
        RecordLink.objects.bulk_create(new)
        return
    first = new[0]
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT,
            [
                first.relation,
                first.at,
                first.chain_key,
                [n.link for n in new],
                [n.row_id for n in new],
                # The text jsonb reads back as the same values (json_safe's: text, integers, …).
                [None if n.payload is None else chain.canonical_json(n.payload) for n in new],
                [n.digest for n in new],
                [n.prev_hmac for n in new],
                [n.hmac for n in new],
            ],
        )


def _latest_digests(name: str, ids: list[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    rows = RecordLink.objects.filter(relation=name, row_id__in=ids).order_by("row_id", "link")
    for row_id, digest in rows.values_list("row_id", "digest"):
        out[row_id] = digest
    return out


def link_unlinked(progress=None, chunk: int = 2000) -> dict[str, int]:
    """Link every row that no link knows yet, by relation (`manage.py link_records`): the rows stored
    before their relation was chained, or by a writer that bypassed the ORM. Run once after the
    migration that chains a relation; on a live store, verify first — it would seal a forged row too."""
    done: dict[str, int] = {}
    for relation in relations():
        linked = set(RecordLink.objects.filter(relation=relation.name).values_list("row_id", flat=True).distinct())
        missing = [pk for pk in relation.model._base_manager.values_list("pk", flat=True) if pk not in linked]
        count = 0
        for i in range(0, len(missing), chunk):
            count += rows_touched(relation.model, missing[i : i + chunk])
        done[relation.name] = count
        if progress is not None:
            progress(relation.name, count)
    return done


# --- reading and verifying -------------------------------------------------------------------


def heads() -> dict[str, dict]:
    """Each chained relation's head, keyed as the checkpoints sign it ("records:<table>")."""
    out: dict[str, dict] = {}
    for relation in relations():
        last = RecordLink.objects.filter(relation=relation.name).order_by("-link").values_list("link", "hmac").first()
        if last is not None:
            out[relation.key] = {"name": relation.key, "count": last[0] + 1, "head": last[1]}
    return out


# How many rows of a relation one checkpoint compares with their latest links (`scan`): the whole
# relation while it is smaller, else the next window after the previous checkpoint's, round and
# round. A whole verification compares every row.
SCAN_ROWS = 50_000


def relation_verify(
    key: str,
    checkpoint: Head | None,
    report,
    *,
    start: int = 0,
    stop: int | None = None,
    due=None,
    chunk: int = 2000,
    scan: dict | None = None,
) -> Break | None:
    """One relation's links `start`…`stop`-1 walked (order, previous link, HMAC, the signed head,
    links older than `due` that no checkpoint signs), then its rows compared with their latest
    links: every row, or with `scan` (a checkpoint's: {key: the last row id compared before}) the
    next SCAN_ROWS rows after it — `scan[key]` is then set to where the next one starts (0: from the
    first row again). So an edit of an old row is found at the next checkpoint on a floor whose
    relations hold fewer rows than SCAN_ROWS, and within rows / SCAN_ROWS checkpoints on any other,
    at a bounded cost. `report.facts` counts the links walked."""
    relation = relation_for(key)
    name = key.removeprefix(PREFIX)
    walk = Walk(key, LINKS, checkpoint)
    walk.expected = start
    first_unsigned = 0 if checkpoint is None else checkpoint.count
    unsigned = None
    links = RecordLink.objects.filter(relation=name, link__gte=start)
    if stop is not None:
        links = links.filter(link__lt=stop)
    fields = ("pk", "link", "row_id", "payload", "digest", "at", "chain_key", "prev_hmac", "hmac")
    for values in links.order_by("link").values_list(*fields).iterator(chunk_size=chunk):
        link = _Link(name, *values)
        if start and walk.expected == start == link.link:
            walk.prev = link.prev_hmac  # the walk starts at a signed link: its previous-hash as it stands
        report.facts += 1
        if due is not None and link.link == first_unsigned and link.at < due:
            unsigned = Break(
                key,
                LINKS,
                link.link,
                link.pk,
                f"link {link.link} was stored at {link.at.isoformat(timespec='seconds')} but no checkpoint signs "
                "it: checkpoints are missing (the checkpoint log or its newest lines were removed)",
            )
        if not walk.step(
            link=link.link,
            row_id=link.pk,
            prev=link.prev_hmac,
            stored=link.hmac,
            key_id=link.chain_key,
            mismatch=lambda k, link=link: None if _link_holds(link, k) else LINKS,
        ):
            break
    broken = walk.end() or unsigned
    if broken is not None:
        return broken
    if relation is None:
        return None  # a relation no longer registered: its links still verify, its rows are not read
    if scan is None:
        broken = _rows_against_links(relation, chunk)
        if broken is None and relation.outside is not None:
            broken = relation.outside(relation)
        return broken
    after = int(scan.get(key) or 0)
    upper = (
        relation.model._base_manager.filter(pk__gt=after)
        .order_by("pk")
        .values_list("pk", flat=True)[SCAN_ROWS - 1 : SCAN_ROWS]
        .first()
    )
    broken = _rows_against_links(relation, chunk, after=after, upper=upper)
    # A window with a break is compared again next time: the break stays signed until it is repaired.
    scan[key] = after if broken is not None else (upper or 0)
    return broken


class _Link:
    """A stored link as the walk reads it (no model instance: thousands a second)."""

    __slots__ = ("relation", "pk", "link", "row_id", "payload", "digest", "at", "chain_key", "prev_hmac", "hmac")

    def __init__(self, relation, *values):
        self.relation = relation
        for name, value in zip(self.__slots__[1:], values):
            setattr(self, name, value)


def _link_holds(link, key: bytes) -> bool:
    """Its HMAC recomputed, and its digest that of its payload (a digest edited to fit a changed
    row would need a new HMAC)."""
    return hmac.compare_digest(link_hmac(link, key), link.hmac) and link.digest == _compared(link.payload)


# PostgreSQL: each row's latest link in one pass of the (relation, row_id, link) index.
_LATEST = (
    f"SELECT DISTINCT ON (row_id) row_id, link, digest FROM {_TABLE} "
    "WHERE relation = %s AND row_id > %s AND row_id <= %s ORDER BY row_id, link DESC"
)
_NO_END = 2**63 - 1


def _latest_links(name: str, chunk: int, *, after: int = 0, upper: int | None = None):
    """(row id, link, digest) of each row's latest link, by row id (after `after`, up to `upper`)."""
    if connection.vendor == "postgresql":
        with connection.chunked_cursor() as cursor:
            cursor.execute(_LATEST, [name, after, _NO_END if upper is None else upper])
            while rows := cursor.fetchmany(chunk):
                yield from rows
        return
    current = None
    links = RecordLink.objects.filter(relation=name, row_id__gt=after)
    if upper is not None:
        links = links.filter(row_id__lte=upper)
    rows = links.order_by("row_id", "link").values_list("row_id", "link", "digest")
    for row in rows.iterator(chunk_size=chunk):
        if current is not None and current[0] != row[0]:
            yield current
        current = row
    if current is not None:
        yield current


def _rows_against_links(relation: Relation, chunk: int, *, after: int = 0, upper: int | None = None) -> Break | None:
    """Merge every row (by id; those after `after` up to `upper`) with its latest link: each must say
    what its latest link says."""
    key, name = relation.key, relation.name
    rows = _rows(relation, chunk=chunk, after=after, upper=upper)
    links = _latest_links(name, chunk, after=after, upper=upper)
    row, link = next(rows, None), next(links, None)
    while row is not None or link is not None:
        if link is None or (row is not None and row[0] < link[0]):
            if relation.exempt is None or not relation.exempt(row[1]):
                return Break(
                    key,
                    name,
                    None,
                    row[0],
                    "the row is in no link (it was inserted, or its id changed, behind the application's back)",
                )
            row = next(rows, None)
            continue
        if row is None or link[0] < row[0]:
            if link[2]:
                return Break(
                    key,
                    name,
                    link[1],
                    link[0],
                    f"the row is gone but its latest link ({link[1]}) says it exists (it was deleted behind "
                    "the application's back)",
                )
            link = next(links, None)
            continue
        if _compared(row[1]) != link[2]:
            return Break(
                key,
                name,
                link[1],
                row[0],
                f"its columns do not match its latest link ({link[1]}): the row was changed behind the "
                "application's back",
            )
        row, link = next(rows, None), next(links, None)
    return None
