"""The table terminal's writes: a pit boss's override of a halt, and the round the terminal stores.

    halt_override_grant    a pit boss, at the terminal, keeps the entry it halted at (his
                           username and password, checked here, and a reason): a signed override
    terminal_round_store   the round stored through `round_log`, refused (409) while a halt of its
                           log is neither taken back nor overridden, with the overrides beside it

A halt stops the round at the entry that raised it, a wrong payment above all. The terminal's own
script will not go on; this is where the server holds to it whatever a client sends: the caller
walks the log again (dealing.games.terminal.halts, the games' layer above this one) and every
halting entry needs an override granted for that very log up to that entry.
"""

import hashlib
import json

from django.contrib.auth import authenticate, get_user_model
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.models import Table
from casino.roles import PIT_BOSS
from dealing import engine
from dealing.access import staff_of
from dealing.errors import refuse
from dealing.models import HaltOverride

from .drafts import draft_check_holder, draft_clear
from .record_links import rows_touched as records_touched
from .rounds import round_log

SALT = "dealing.terminal.halt-override"
MAX_AGE = 12 * 3600  # an override serves the round it was granted in, not tomorrow's
REASON_MAX = 500


def _log_digest(stakes, events) -> str:
    """The log up to the halting entry, as the override covers it: taking that entry back (or any
    before it) voids the override."""
    text = json.dumps({"stakes": stakes, "events": events}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _pit_boss_not_dealer(user, table: Table, dealer: str) -> None:
    if user is None or not user.is_active or not staff_of(user, table, PIT_BOSS):
        raise refuse(
            _("Only a pit boss of pit %(pit)s overrides a halt at table %(table)s.")
            % {"pit": table.pit.name, "table": table.name},
            "override_forbidden",
            status=403,
        )
    if dealer and user.get_username() == dealer:
        raise refuse(_("The dealer of the round cannot override its halt."), "override_own_round", status=403)


def halt_override_grant(
    *, request, table: Table, doc: dict, halts: list[dict], dealer: str, username: str, password: str, reason: str
) -> dict:
    """A pit boss keeps the entry the terminal halted at (the last of `doc`'s events; `halts`: the
    log's halts, dealing.games.terminal.halts): his own credentials (checked like a login, so
    failures count towards the lockout) and a reason. Returns {"token", "event", "by"}: the
    terminal sends the token when it stores the round."""
    reason = (reason or "").strip()
    if not reason:
        raise refuse(_("Say why the entry is kept: the reason is recorded with the round."), "reason_missing")
    if len(reason) > REASON_MAX:
        raise refuse(_("The reason is too long (at most %(n)d characters).") % {"n": REASON_MAX}, "reason_long")
    if not username or not password:
        raise refuse(_("The pit boss types his own username and password."), "credentials_missing")
    events = doc.get("events") or []
    last = len(events) - 1
    found = [f for f in halts if f["event"] == last]
    if not found:
        raise refuse(_("The terminal is not halted: there is nothing to override."), "no_halt", status=409)
    if any(f["code"] in engine.IMPOSSIBLE for f in found):
        raise refuse(
            _("This entry cannot have happened as typed: take it back, it cannot be overridden."),
            "override_impossible",
            status=409,
        )
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise refuse(_("Wrong username or password."), "credentials_wrong", status=403)
    _pit_boss_not_dealer(user, table, dealer)
    payload = {
        "t": table.pk,
        "i": last,
        "h": _log_digest(doc.get("stakes"), events),
        "u": user.pk,
        "r": reason,
        "c": sorted({f["code"] for f in found}),
    }
    return {"token": signing.dumps(payload, salt=SALT), "event": last, "by": user.get_username()}


def _overrides_of(tokens, table: Table, doc: dict) -> dict[int, dict]:
    """The valid overrides among `tokens`, by the entry each covers; a forged or stale one counts for
    nothing (the halt it claims to lift stays)."""
    events = doc.get("events") or []
    found: dict[int, dict] = {}
    for token in tokens if isinstance(tokens, list) else ():
        try:
            payload = signing.loads(str(token), salt=SALT, max_age=MAX_AGE)
        except signing.BadSignature:
            continue
        i = payload.get("i")
        if (
            payload.get("t") == table.pk
            and type(i) is int
            and 0 <= i < len(events)
            and payload.get("h") == _log_digest(doc.get("stakes"), events[: i + 1])
        ):
            found[i] = payload
    return found


def terminal_round_store(
    *, document: dict, halts: list[dict], logged_by, table: Table, overrides=(), terminal: str | None = None
):
    """Store the round the terminal followed (`round_log`), refused with 409 while an entry it halted
    at (`halts`: dealing.games.terminal.halts of `document`) is neither taken back nor overridden by
    a pit boss of the pit, or while another terminal holds the table's round in progress (`terminal`:
    the storing one's id); the overrides are written with the round, in its transaction, and the
    round's draft goes. Returns (round, created) as `round_log`."""
    draft_check_holder(table=table, terminal=terminal, round_id=document.get("id"))
    granted = _overrides_of(list(overrides or ()), table, document)
    halting = halts
    unresolved = [f for f in halting if f["event"] not in granted]
    if unresolved:
        first = unresolved[0]
        raise refuse(
            _(
                "Entry %(n)d of the round halted the terminal (%(code)s): take it back and enter it "
                "right, or have a pit boss override it. Nothing was stored."
            )
            % {"n": first["event"] + 1, "code": first["code"]},
            "halt_unresolved",
            status=409,
            event=first["event"],
        )
    halted = {f["event"] for f in halting}
    used = {i: p for i, p in granted.items() if i in halted}
    users = get_user_model().objects.in_bulk({p["u"] for p in used.values()})
    for payload in used.values():
        _pit_boss_not_dealer(users.get(payload["u"]), table, str(document.get("dealer") or ""))
    with transaction.atomic():
        record, created = round_log(document=document, logged_by=logged_by, table=table)
        draft_clear(table=table, round_id=document.get("id"))
        if created and used:
            now = timezone.now()
            overrides = HaltOverride.objects.bulk_create(
                HaltOverride(
                    round=record,
                    event=i,
                    codes=" ".join(p["c"]),
                    overridden_by=users[p["u"]],
                    reason=p["r"],
                    at=now,
                )
                for i, p in sorted(used.items())
            )
            records_touched(HaltOverride, [o.pk for o in overrides])
    return record, created
