"""Where each kind of notification comes from: the apps' announcements (dealing/hooks.py,
audit/hooks.py) and their models' post_save signals, connected in notifications/apps.py. Each
handler asks who is told (selectors) and makes the rows with one call of `services.notify`.

A handler never breaks the work that announced it: what it cannot tell is logged (a notification
missed is bad; a round, a closed shift or a checkpoint refused because of it is worse).
"""

import functools
import logging

from django.db import transaction
from django.urls import reverse

from casino.models import Table

from . import selectors, services
from .kinds import Kind

logger = logging.getLogger(__name__)


def _guarded(handler):
    @functools.wraps(handler)
    def run(*args, **kwargs):
        try:
            with transaction.atomic():  # a savepoint: a failure here leaves the caller's transaction usable
                handler(*args, **kwargs)
        except Exception:
            logger.exception("notifications: %s failed", handler.__name__)

    return run


def _user_name(user_id) -> str:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(pk=user_id).values_list("username", flat=True).first() or ""


@_guarded
def halted(*, table_id, round_uid, halts, by_id=None, **_):
    """A HALT at a terminal: the pit bosses of the table's pit, once per halt of the round."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    bosses = list(selectors.pit_bosses(table.pit_id))
    for halt in halts:
        event = halt.get("event")
        services.notify(
            kind=Kind.HALT,
            recipients=bosses,
            params={
                "table": table.name,
                "event": (event + 1) if isinstance(event, int) else "?",
                "code": halt.get("code", ""),
            },
            url=reverse("dealing:terminal", args=[table.name]),
            key=f"{table_id}:{round_uid}:{event}:{halt.get('code', '')}",
        )


@_guarded
def correction_proposed(*, round_id, table_id, by_id, **_):
    """A correction awaiting approval: the pit bosses of the pit, never the one who proposed it."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    services.notify(
        kind=Kind.CORRECTION_APPROVAL,
        recipients=selectors.pit_bosses(table.pit_id),
        exclude=[by_id],
        params={"table": table.name, "round": round_id, "by": _user_name(by_id)},
        url=reverse("dealing:amendment_decide", args=[round_id]),
        key=f"round:{round_id}",
    )


@_guarded
def incident_saved(sender, instance, created, **kwargs):
    """An incident reported (it awaits a pit boss's approval): the pit bosses of the pit, never the
    one who reported it."""
    from dealing.choices import IncidentStatus

    if not created or instance.status != IncidentStatus.REPORTED:
        return
    table = instance.table
    services.notify(
        kind=Kind.INCIDENT_APPROVAL,
        recipients=selectors.pit_bosses(table.pit_id),
        exclude=[instance.reported_by_id],
        params={
            "table": table.name,
            "card": instance.card,
            "by": _user_name(instance.reported_by_id),
            "dealer": _user_name(instance.dealer_id),
        },
        url=reverse("dealing:incident_decide", args=[instance.pk]),
        key=f"incident:{instance.pk}",
    )


@_guarded
def review_saved(sender, instance, created, **kwargs):
    """A first review of an incident, not yet signed off: whoever may sign it off — the pit bosses
    of the pit and the auditors, never its reporter, its dealer or the first reviewer. Once per
    review (a re-classification before the sign-off tells no one twice)."""
    if instance.signed_off or instance.reviewed_by_id is None:
        return
    incident = instance.incident
    table = incident.table
    round_dealer = incident.round.dealer_id if incident.round_id else None
    services.notify(
        kind=Kind.REVIEW_SIGN_OFF,
        recipients=list(selectors.pit_bosses(table.pit_id)) + list(selectors.auditors()),
        exclude=[incident.reported_by_id, incident.dealer_id, round_dealer, instance.reviewed_by_id],
        params={
            "incident": incident.pk,
            "table": table.name,
            "by": _user_name(instance.reviewed_by_id),
            "classification": instance.classification,
        },
        url=reverse("dealing:incident_detail", args=[incident.pk]),
        key=f"review:{instance.pk}",
    )


@_guarded
def findings_added(*, findings, **_):
    """Critical findings: the auditors and the pit bosses of the table's pit."""
    from audit.choices import Severity

    critical = [f for f in findings if f[1] == Severity.CRITICAL]
    if not critical:
        return
    tables = {t.pk: t for t in Table.objects.filter(pk__in={f[3] for f in critical})}
    everyone_audits = list(selectors.auditors())
    bosses = {pit: list(selectors.pit_bosses(pit)) for pit in {t.pit_id for t in tables.values()}}
    for pk, _severity, code, table_id, round_id, shoe_id, fingerprint in critical:
        table = tables.get(table_id)
        if table is None:
            continue
        where = f"r{round_id}" if round_id else f"s{shoe_id}"
        services.notify(
            kind=Kind.CRITICAL_FINDING,
            recipients=everyone_audits + bosses[table.pit_id],
            params={"table": table.name, "code": code, "round": round_id or "", "finding": pk},
            url=reverse("dealing:round_detail", args=[round_id]) if round_id else reverse("audit:finding_list"),
            key=f"{where}:{fingerprint}",
        )


@_guarded
def chain_check_saved(sender, instance, created, **kwargs):
    """A chain verification or a checkpoint write that failed: the auditors and the admins."""
    if not created or instance.ok:
        return
    services.notify(
        kind=Kind.CHAIN_FAILED,
        recipients=list(selectors.auditors()) + list(selectors.admins()),
        params={"check": instance.kind, "message": (instance.message or "")[:500]},
        url=reverse("audit:dashboard"),
        key=f"chaincheck:{instance.pk}",
    )


@_guarded
def chain_broken(breaks: list[str]) -> None:
    """A checkpoint's walk or a whole verification found the record tampered with: the auditors and
    the admins, at once — once per set of breaks (the checkpoint keeps re-checking a broken window, so
    the same breaks are found again until repaired)."""
    import hashlib

    found = sorted(breaks)
    digest = hashlib.sha256("\n".join(found).encode()).hexdigest()[:32]
    services.notify(
        kind=Kind.CHAIN_FAILED,
        recipients=list(selectors.auditors()) + list(selectors.admins()),
        params={"check": "verify", "message": "; ".join(found)[:500]},
        url=reverse("audit:dashboard"),
        key=f"breaks:{digest}",
    )


@_guarded
def shift_saved(sender, instance, created, update_fields=None, **kwargs):
    """A shift closed with a variance: the pit bosses of the pit and the auditors."""
    from books.choices import ShiftStatus
    from books.selectors import shift_books

    if instance.status != ShiftStatus.CLOSED or (update_fields is not None and "status" not in update_fields):
        return
    variance = shift_books(instance).variance
    if not variance:
        return
    table = instance.table
    services.notify(
        kind=Kind.SHIFT_VARIANCE,
        recipients=list(selectors.pit_bosses(table.pit_id)) + list(selectors.auditors()),
        params={"table": table.name, "variance": f"{variance:f}", "by": _user_name(instance.closed_by_id)},
        url=reverse("books:shift_detail", args=[instance.pk]),
        key=f"shift:{instance.pk}",
    )


@_guarded
def signal_saved(sender, instance, created, **kwargs):
    """An integrity signal raised: the auditors."""
    if not created:
        return
    services.notify(
        kind=Kind.INTEGRITY_SIGNAL,
        recipients=selectors.auditors(),
        params={
            "signal_kind": instance.get_kind_display(),
            "dealer": _user_name(instance.dealer_id) if instance.dealer_id else "",
            "player": instance.player,
        },
        url=reverse("books:signal_detail", args=[instance.pk]),
        key=f"signal:{instance.pk}",
    )


@_guarded
def run_finished(*, run_id, status, **_):
    """An audit run finished (or failed): the user who started it and the auditors."""
    from audit.models import AuditRun

    run = AuditRun.objects.filter(pk=run_id).first()
    if run is None:
        return
    recipients = list(selectors.auditors())
    if run.started_by_id:
        recipients.append(run.started_by_id)
    services.notify(
        kind=Kind.AUDIT_RUN_FINISHED,
        recipients=recipients,
        params={"run": run.pk, "status": status, "rounds": run.rounds_done, "findings": run.findings_total},
        url=reverse("audit:run_detail", args=[run.pk]),
        key=f"run:{run.pk}",
    )


@_guarded
def signed_in(sender, request, user, **_):
    """The language of a sign-in (the switcher's cookie, else the browser's): the e-mails' language
    for who has not chosen one."""
    language = getattr(request, "LANGUAGE_CODE", "") if request is not None else ""
    services.language_remember(user=user, language=language)
