"""What audit announces to the apps above it (the notifications), so that it never imports them.

`listen(event, fn)` calls `fn(**facts)` once the transaction announcing the event commits (at once
outside one); a rollback announces nothing. The events and their facts:

    "findings_added"      findings: [(id, severity, code, table_id, round_id, shoe_id, fingerprint)]
                          the findings a round's or a shoe's audit added (a re-audit that finds the
                          same again adds none)
    "run_finished"        run_id, status (done or failed), started_by_id
"""

from collections.abc import Callable

from django.db import transaction

_listeners: dict[str, list[Callable[..., None]]] = {}


def listen(event: str, listener: Callable[..., None]) -> None:
    """Call `listener(**facts)` after each commit announcing `event` (once, however often it listens)."""
    listeners = _listeners.setdefault(event, [])
    if listener not in listeners:
        listeners.append(listener)


def announce(event: str, **facts) -> None:
    listeners = list(_listeners.get(event, ()))
    if listeners:
        transaction.on_commit(lambda: [listener(**facts) for listener in listeners])


def listening(event: str) -> bool:
    """Whether anyone listens (the caller may then skip gathering the facts)."""
    return bool(_listeners.get(event))
