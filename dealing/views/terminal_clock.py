"""The clocks at the table terminal (docs/terminal.md, "The clocks"), at the view's edge: what each
answer of `…/terminal/next` says of the clock that runs, and the check of an entry a clock's end logs.

The game's wing says which clock runs after the round so far and what its end logs
(`TerminalGame.clock`, through `dealing.games.terminal.follow`); the server counts it from the time
the draft's last entry was accepted (`TerminalDraft.entry_at`), so a reload resumes the time left.
The page counts down and, when the time is up, posts the log with that entry and `timeout` (its
number); the server accepts it only when the clock has really run out on the round as the draft
holds it (dealing/services/drafts.py), and refuses a second one.
"""

from django.http import JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from dealing import selectors
from dealing.games import terminal as term


def _ms(when) -> int:
    return int(when.timestamp() * 1000)


def timeout_asked(data: dict, doc: dict) -> tuple[tuple[int, float] | None, JsonResponse | None]:
    """The entry a clock's end logs, when the page says so (`timeout`: its number, the last entry):
    (its number, the clock's seconds), or the refusal. The clock must run after the entries before
    it, no halt up, and the entry must be the one its end logs."""
    at = data.get("timeout")
    if at is None:
        return None, None
    events = doc["events"]
    if type(at) is not int or at != len(events) - 1 or at < 0:
        return None, JsonResponse(
            {
                "error": {
                    "message": _("timeout: the number of the last entry, which the clock logged."),
                    "path": "timeout",
                }
            },
            status=400,
        )
    before = term.follow({**doc, "events": events[:at]})
    clock = before["clock"]
    overrides = data.get("overrides") if isinstance(data.get("overrides"), dict) else {}
    if before["halt"] and str(at - 1) not in overrides:
        clock = None
    if clock is None or clock["timeout"] is None or clock["timeout"] != events[at]:
        return None, JsonResponse(
            {"error": {"message": _("No clock ends with this entry: nothing was logged."), "code": "clock_none"}},
            status=409,
        )
    return (at, float(clock["seconds"])), None


def with_clock(out: dict, table, draft, overrides, entries: int, round_id: str = "") -> dict:
    """The answer's clock: its kind, seconds, what its end logs, and — once the round has entries —
    its `deadline` (ms since the epoch, the server's clock) counted from the last entry accepted;
    `now` is the server's time so the page counts in it. No clock while a halt is up or the engine
    cannot follow the log. `timeouts`: the entries a clock's end logged."""
    now = timezone.now()
    clock = out.get("clock")
    last = entries - 1
    if clock is not None and (out["error"] or (out["halt"] and str(last) not in (overrides or {}))):
        clock = None
    if draft is None and last >= 0 and clock is not None:
        draft = selectors.terminal_draft_held(table)  # one who follows only: the draft the holder writes
        if draft is not None and str(draft.round_id) != round_id:
            draft = None  # another round than the one asked about: its clock is not this one's
    if clock is not None and last >= 0:
        started = (draft.entry_at or draft.updated_at) if draft is not None else now
        clock = {**clock, "deadline": _ms(started) + int(clock["seconds"] * 1000)}
    out["clock"] = clock
    out["now"] = _ms(now)
    out["timeouts"] = list(draft.timeouts or []) if draft is not None else []
    return out
