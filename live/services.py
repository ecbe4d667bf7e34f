"""Writes of the live pit: an event is a row first (`event_record`), pushed on the bus once its
transaction commits — a rollback pushes nothing, a bus that is down loses nothing."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from . import bus
from .models import LiveEvent

log = logging.getLogger(__name__)


def event_record(
    kind: str,
    *,
    pit_id: int | None,
    table_id: int | None = None,
    payload: dict | None = None,
    user_id: int | None = None,
) -> LiveEvent:
    """Store an event of `pit_id` (None: of no pit, for auditors), or of one user only (`user_id`),
    and push it after the commit."""
    event = LiveEvent(kind=kind, pit_id=pit_id, table_id=table_id, user_id=user_id, payload=payload or {})
    _insert(event)
    message = event.message()
    transaction.on_commit(lambda: bus.publish(message))
    return event


_COLUMNS = [f for f in LiveEvent._meta.concrete_fields if not f.primary_key]
_INSERT = (
    f"INSERT INTO {LiveEvent._meta.db_table} ({', '.join(f.column for f in _COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(_COLUMNS))}) RETURNING {LiveEvent._meta.pk.column}"
)


def _insert(event: LiveEvent) -> None:
    """`event.save()` in SQL of its own: a terminal's every entry and every round logged store one,
    and the ORM's building of the insert cost more CPU than the statement. Each value is prepared
    as the ORM prepares it (the payload as JSON, the time as the database stores it)."""
    if not connection.features.can_return_columns_from_insert:
        event.save(force_insert=True)
        return
    with connection.cursor() as cursor:
        cursor.execute(_INSERT, [f.get_db_prep_save(getattr(event, f.attname), connection) for f in _COLUMNS])
        event.pk = cursor.fetchone()[0]
    event._state.adding, event._state.db = False, connection.alias


def table_progress_record(*, table, dealer, doc: dict, followed: dict) -> LiveEvent:
    """The round in progress at a table as its terminal last posted it: how far it is, and the halt
    of its last entry (what was paid, what was owed)."""
    events = doc.get("events") or []
    last = events[-1] if events and isinstance(events[-1], dict) else {}
    halts = [
        {
            "code": f.get("code", ""),
            "text": str(f.get("text") or f.get("message") or ""),
            "stake": f.get("stake"),
            "paid": (f.get("params") or {}).get("paid"),
            "owed": (f.get("params") or {}).get("owed"),
        }
        for f in followed.get("halt") or []
    ]
    payload = {
        "table": table.name,
        "dealer": dealer.get_username(),
        "entries": len(events),
        "phase": str(last.get("e") or ""),
        "done": bool(followed.get("done")),
        "halt": halts,
    }
    return event_record("table_progress", pit_id=table.pit_id, table_id=table.pk, payload=payload)


def events_prune(*, older_than: timedelta | None = None) -> int:
    """Delete the events older than LIVE_EVENT_MAX_AGE_H hours (or `older_than`): what a reconnecting
    client could still ask for is minutes old; the records themselves live in their own tables."""
    age = older_than if older_than is not None else timedelta(hours=settings.LIVE_EVENT_MAX_AGE_H)
    return LiveEvent.objects.filter(created_at__lt=timezone.now() - age).delete()[0]
