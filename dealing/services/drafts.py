"""The table terminal's round in progress, kept on the server (dealing/draft_models.py).

    draft_keep            each accepted entry: the log so far written to the table's draft, by the
                          terminal that holds it (a terminal that lost it is refused: 409)
    draft_take_over       another terminal at the table takes the draft over, when its dealer asks
    draft_clear           the round stored: its draft goes (the round is the record now)
    drafts_leave_behind   a new shoe, a shift closed: the draft still open waits for the pit boss
    draft_void            a pit boss of the pit voids a draft left behind, with a reason

A terminal is the browser, named by the id it keeps in its own storage (so a reload, a lost
connection or a crashed browser is still the same terminal). Who may write at all is the caller's
check (the dealers and pit bosses who store the terminal's rounds); an inspector follows only.
"""

import functools
import uuid
from datetime import timedelta

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.db import model_from_row
from casino.models import Table
from casino.roles import PIT_BOSS
from dealing.access import staff_of
from dealing.errors import refuse
from dealing.models import TerminalDraft

TERMINAL_MAX = 64
REASON_MAX = 500


def _terminal_id(terminal) -> str:
    if not isinstance(terminal, str) or not terminal.strip() or len(terminal) > TERMINAL_MAX:
        raise refuse(
            _("The terminal sends its own id (1 to %(n)d characters).") % {"n": TERMINAL_MAX},
            "terminal_missing",
            path="terminal",
        )
    return terminal.strip()


def _round_id(value) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise refuse(_("The round needs its id (a UUID)."), "bad_id", path="id") from None


def _held(table: Table) -> TerminalDraft | None:
    return (
        TerminalDraft.objects.select_for_update()
        .filter(table=table, left_behind_at__isnull=True, voided_at__isnull=True)
        .first()
    )


# What each entry rewrites; the rest of a held draft (when taken over, left behind, voided) stays.
KEPT_FIELDS = (
    "round_id",
    "held_by",
    "dealer",
    "header",
    "stakes",
    "events",
    "overrides",
    "started_at",
    "updated_at",
    "entry_at",
    "timeouts",
)
# A clock's end is accepted this early (the browser's clock and the server's differ a little).
CLOCK_SLACK = timedelta(milliseconds=500)


_META = TerminalDraft._meta
# What `_held_or_refused` reads of a draft, and the entries its log holds (the log itself is not
# read); in the model's order of fields, as a deferred instance is made from them.
_LOCKED_FIELDS = [
    f
    for f in _META.concrete_fields
    if f.name
    in (
        "id",
        "table",
        "round_id",
        "terminal",
        "left_behind_at",
        "voided_at",
        "started_at",
        "overrides",
        "entry_at",
        "timeouts",
    )
]
_LOCKED = (
    f"SELECT {', '.join(f.column for f in _LOCKED_FIELDS)}, {{length}}(events) FROM {_META.db_table} "
    "WHERE ((left_behind_at IS NULL AND voided_at IS NULL) OR round_id = %s) AND table_id = %s ORDER BY id"
)
_KEPT = [_META.get_field(name) for name in KEPT_FIELDS]


@functools.cache
def _locked_sql(vendor: str, for_update: bool) -> str:
    """`_LOCKED` for this database, made once: PostgreSQL's jsonb_array_length is json_array_length
    on SQLite (the tests without services)."""
    length = "jsonb_array_length" if vendor == "postgresql" else "json_array_length"
    return _LOCKED.format(length=length) + (" FOR UPDATE" if for_update else "")


_KEEP = f"UPDATE {_META.db_table} SET {', '.join(f'{f.column} = %s' for f in _KEPT)} WHERE id = %s"


def _locked_drafts(table: Table, rid: uuid.UUID) -> list[TerminalDraft]:
    """The table's draft still held and this round's draft (one row when they are the same), locked,
    each with its count of `entries`. In SQL of its own, as is `_keep`: a terminal writes its draft at
    every entry, and the ORM's building of these two statements cost more CPU than the engine's walk
    of the round."""
    with connection.cursor() as cursor:
        cursor.execute(
            _locked_sql(connection.vendor, connection.features.has_select_for_update),
            [_META.get_field("round_id").get_db_prep_value(rid, connection), table.pk],
        )
        rows = cursor.fetchall()
    drafts = []
    for row in rows:
        draft = model_from_row(TerminalDraft, _LOCKED_FIELDS, row[:-1])
        draft.entries = row[-1]
        drafts.append(draft)
    return drafts


def _keep(draft: TerminalDraft) -> None:
    """`draft.save(update_fields=KEPT_FIELDS)`, each value prepared as the ORM prepares it (no model
    signal listens to drafts)."""
    values = [f.get_db_prep_save(getattr(draft, f.attname), connection) for f in _KEPT]
    with connection.cursor() as cursor:
        cursor.execute(_KEEP, [*values, draft.pk])
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")


def _held_or_refused(table: Table, rid: uuid.UUID) -> TerminalDraft | None:
    """`_refuse_not_open` and `_held` in one locking read, for each entry a terminal posts: the log it
    replaces is not read (decoding it cost more than the rest of the read), only who holds the row;
    what a refusal names is read then."""
    held = None
    for draft in _locked_drafts(table, rid):
        if not draft.is_held:
            _refuse_not_open(table, rid)
        elif held is None:
            held = draft
    return held


def _refuse_taken(draft: TerminalDraft):
    return refuse(
        _(
            "Another terminal holds the round in progress at this table (%(user)s, entry %(n)d): "
            "take it over here first. Nothing was written."
        )
        % {"user": draft.held_by.get_username(), "n": len(draft.events or ())},
        "draft_taken",
        status=409,
    )


def _refuse_not_open(table: Table, round_id: uuid.UUID) -> None:
    """A round whose draft was left behind (or voided) is the pit boss's now, not the terminal's."""
    gone = TerminalDraft.objects.filter(table=table, round_id=round_id).exclude(
        left_behind_at__isnull=True, voided_at__isnull=True
    )
    if gone.exists():
        raise refuse(
            _(
                "This round was left behind (a new shoe or the shift's end): a pit boss of the pit decides "
                "on it. Start a new round."
            ),
            "draft_left_behind",
            status=409,
        )


def draft_keep(
    *,
    table: Table,
    user,
    terminal,
    round_id,
    dealer: str,
    stakes: list,
    events: list,
    overrides=None,
    timeout: tuple[int, float] | None = None,
    header=None,
) -> TerminalDraft | None:
    """Write the round so far to the table's draft, held by `terminal`. No entries yet: nothing is in
    progress, the terminal's draft (if any) goes. Refused (409) when another terminal holds the
    table's draft, or when this round was left behind. Returns the draft (None when there is none).

    `entry_at` moves only when the log changes (a new entry, one taken back, a halt overridden): a
    reload or a retry posting the same log leaves a running clock where it stood. `timeout` (the
    entry a clock's end logs, the clock's seconds): checked under the draft's lock (`_clock_ended`)."""
    terminal = _terminal_id(terminal)
    rid = _round_id(round_id)
    # The pit boss's signed overrides by entry, kept so a resumed halt stays lifted (checked again when stored).
    overrides = (
        {str(k): str(v) for k, v in overrides.items() if str(k).isdigit()} if isinstance(overrides, dict) else {}
    )
    header = {str(k): v for k, v in header.items() if isinstance(v, str)} if isinstance(header, dict) else {}
    now = timezone.now()
    try:
        with transaction.atomic():
            draft = _held_or_refused(table, rid)
            if not events:  # the stakes, before the deal: nothing in progress to keep (nor to refuse)
                if draft is not None and draft.terminal == terminal:
                    draft.delete()
                return None
            if draft is not None and draft.terminal != terminal:
                raise _refuse_taken(draft)
            if timeout is not None:
                _clock_ended(draft, rid, events, *timeout, now=now)
            if draft is None:
                return TerminalDraft.objects.create(
                    table=table,
                    round_id=rid,
                    terminal=terminal,
                    held_by=user,
                    dealer=dealer,
                    header=header,
                    stakes=stakes,
                    events=events,
                    overrides=overrides,
                    started_at=now,
                    updated_at=now,
                    entry_at=now,
                )
            same = draft.round_id == rid and draft.entries == len(events) and draft.overrides == overrides
            if not same or draft.entry_at is None:
                draft.entry_at = now
            marks = {i for i in (draft.timeouts or []) if draft.round_id == rid and i < len(events)}
            if timeout is not None:
                marks.add(timeout[0])
            draft.timeouts = sorted(marks)
            if draft.round_id != rid:  # this terminal began another round: the previous one was never dealt on
                draft.started_at = now
            draft.round_id, draft.held_by, draft.dealer, draft.header = rid, user, dealer, header
            draft.stakes, draft.events, draft.overrides, draft.updated_at = stakes, events, overrides, now
            _keep(draft)
            return draft
    except IntegrityError:  # two terminals began a round at once: the other one holds it
        raise refuse(
            _("Another terminal began a round at this table at the same moment: take it over or wait."),
            "draft_taken",
            status=409,
        ) from None


def _clock_ended(draft: TerminalDraft | None, rid: uuid.UUID, events: list, at: int, seconds: float, *, now) -> None:
    """A clock's end logs entry `at` (the last of `events`) only when the draft holds exactly the
    entries before it and the clock, counted from the last of them, has run out. A second post of
    the same timeout (a retry, a double event) finds it logged and writes nothing new."""
    kept = None if draft is None or draft.round_id != rid else TerminalDraft.objects.get(pk=draft.pk)
    if kept is not None and kept.events == events and at in (kept.timeouts or ()):
        return  # already logged by this clock: the same log again, nothing new
    if kept is None or kept.events != events[:at]:
        raise refuse(
            _("The round moved on before the clock ran out: the clock logged nothing."), "clock_stale", status=409
        )
    started = kept.entry_at or kept.updated_at
    if now + CLOCK_SLACK < started + timedelta(seconds=seconds):
        raise refuse(_("The clock has not run out yet: nothing was logged."), "clock_running", status=409)


def draft_check_holder(*, table: Table, terminal, round_id) -> None:
    """Before a round is stored: refused (409) when another terminal holds this table's draft, or the
    round was left behind. A client that names no terminal (`None`) holds no draft."""
    terminal = "" if terminal is None else _terminal_id(terminal)
    rid = _round_id(round_id)
    _refuse_not_open(table, rid)
    draft = TerminalDraft.objects.filter(table=table, left_behind_at__isnull=True, voided_at__isnull=True).first()
    if draft is not None and draft.terminal != terminal:
        raise _refuse_taken(draft)


def draft_take_over(*, table: Table, user, terminal) -> TerminalDraft:
    """This terminal takes the table's draft over (its dealer asked): the terminal that held it is
    refused from its next entry on."""
    terminal = _terminal_id(terminal)
    with transaction.atomic():
        draft = _held(table)
        if draft is None:
            raise refuse(
                _("No round is in progress at this table: there is nothing to take over."), "no_draft", status=404
            )
        draft.terminal, draft.held_by, draft.taken_over_at = terminal, user, timezone.now()
        draft.save(update_fields=["terminal", "held_by", "taken_over_at"])
        return draft


def draft_clear(*, table: Table, round_id) -> None:
    """The round is stored: its draft is no longer needed (inside the storing transaction)."""
    TerminalDraft.objects.filter(
        table=table, round_id=_round_id(round_id), left_behind_at__isnull=True, voided_at__isnull=True
    ).delete()


def drafts_leave_behind(*, table: Table, why: str) -> int:
    """The table's round in progress, if any, is left behind (`why`: TerminalDraft.Left): kept for the
    pit boss to void with a reason, never dropped. Returns how many were."""
    return TerminalDraft.objects.filter(table=table, left_behind_at__isnull=True, voided_at__isnull=True).update(
        left_behind_at=timezone.now(), left_behind_why=why
    )


def draft_void(*, draft: TerminalDraft, voided_by, reason: str) -> TerminalDraft:
    """A pit boss of the pit voids a draft left behind: who, when and why are kept with it."""
    table = draft.table
    if not (voided_by.is_superuser or staff_of(voided_by, table, PIT_BOSS)):
        raise refuse(
            _("Only a pit boss of pit %(pit)s voids a round left behind at table %(table)s.")
            % {"pit": table.pit.name, "table": table.name},
            "forbidden",
            status=403,
        )
    reason = (reason or "").strip()
    if not reason:
        raise refuse(_("Say why the round is voided: the reason is kept with it."), "reason_missing", path="reason")
    if len(reason) > REASON_MAX:
        raise refuse(
            _("The reason is too long (at most %(n)d characters).") % {"n": REASON_MAX}, "reason_long", path="reason"
        )
    with transaction.atomic():
        locked = TerminalDraft.objects.select_for_update().get(pk=draft.pk)
        if locked.voided_at is not None:
            raise refuse(_("This round left behind was already voided."), "already_voided", status=409)
        if locked.left_behind_at is None:
            raise refuse(
                _("This round is still in progress at the terminal: it is voided only once left behind."),
                "draft_held",
                status=409,
            )
        locked.voided_at, locked.voided_by, locked.void_reason = timezone.now(), voided_by, reason
        locked.save(update_fields=["voided_at", "voided_by", "void_reason"])
        return locked
