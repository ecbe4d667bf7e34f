"""Reads of audit: findings as each user may see them, the round replay, audit runs and shoes.
Pages, exports and the API all read through here; the dashboard's figures are in audit/dashboard.py."""

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.finding_text import event_field, event_word
from casino.finding_words import finding_text
from casino.scope import restrict
from dealing import engine
from dealing.choices import AuditStatus
from dealing.models import Round, Shoe, in_force_q

from . import access, replay
from .filters import FindingFilter
from .models import AuditRun, Finding, Review
from .services import fingerprints

IN_FORCE = Q(round__isnull=True) | in_force_q("round")


# --- findings -------------------------------------------------------------------------------------


def finding_queryset(*, user) -> QuerySet:
    """Every finding the user may see, of rounds in force (a superseded round's findings were
    corrected by its amendment) and of shoes."""
    return (
        restrict(Finding.objects, user)
        .filter(IN_FORCE)
        .select_related("table", "table__pit", "dealer", "round", "shoe", "reviewed_by")
    )


# What a list row shows of its round: its link number, not the round log nor the house rules.
_ROUND_LOG = ("round__document", "round__house_rules")


def finding_rows(queryset: QuerySet) -> QuerySet:
    """Findings for a list page or the API: the round log is left out (it can weigh kilobytes a
    round and no list shows it)."""
    return queryset.defer(*_ROUND_LOG)


def finding_filterset(*, user, data=None) -> FindingFilter:
    return FindingFilter(data or {}, finding_queryset(user=user), user=user)


def finding_list(*, user, filters=None) -> QuerySet:
    """The findings a user may see, narrowed by `FindingFilter` fields; ValidationError on bad filters."""
    filterset = finding_filterset(user=user, data=filters)
    if not filterset.is_valid():
        raise ValidationError({name: errors.as_data() for name, errors in filterset.errors.items()})
    return finding_rows(filterset.qs).order_by("-played_at", "-id")


def finding_get(*, user, finding_id) -> Finding:
    finding = (
        finding_queryset(user=user)
        .prefetch_related(Prefetch("reviews", Review.objects.select_related("auditor").order_by("-at", "-id")))
        .filter(pk=finding_id)
        .first()
    )
    if finding is None:
        raise Http404(_("No such finding."))
    return finding


def finding_csv_rows(queryset: QuerySet):
    """The findings CSV: a header, then one row per finding, read in slices (memory stays flat)."""
    yield [
        _("id"),
        _("played at"),
        _("pit"),
        _("table"),
        _("dealer"),
        _("round"),
        _("round id"),
        _("shoe"),
        _("event"),
        _("code"),
        _("severity"),
        _("stake"),
        _("hand"),
        _("wager"),
        _("owed result"),
        _("owed amount"),
        _("logged result"),
        _("logged amount"),
        _("player delta"),
        _("message"),
        _("status"),
        _("classification"),
        _("reviewed by"),
        _("reviewed at"),
        _("engine version"),
    ]
    fields = (
        "pk",
        "played_at",
        "table__pit__name",
        "table__name",
        "dealer__username",
        "round__table_round",
        "round__uid",
        "shoe_id",
        "event",
        "code",
        "severity",
        "stake",
        "hand",
        "wager",
        "expected",
        "actual",
        "player_delta",
        "message",
        "params",
        "status",
        "classification",
        "reviewed_by__username",
        "reviewed_at",
        "engine_version",
    )
    for row in queryset.values_list(*fields).iterator(chunk_size=2000):
        (
            pk,
            played_at,
            pit,
            table,
            dealer,
            table_round,
            uid,
            shoe_id,
            event,
            code,
            severity,
            stake,
            hand,
            wager,
            expected,
            actual,
            delta,
            message,
            params,
            status,
            classification,
            reviewer,
            reviewed_at,
            version,
        ) = row
        expected = expected or {}
        actual = actual or {}
        yield [
            pk,
            timezone.localtime(played_at).isoformat(timespec="seconds"),
            pit,
            table,
            dealer or "",
            table_round or "",
            uid or "",
            shoe_id or "",
            "" if event is None else event,
            code,
            severity,
            stake,
            hand,
            wager,
            expected.get("result", ""),
            _amount_cell(expected.get("amount")),
            actual.get("result", ""),
            _amount_cell(actual.get("amount")),
            None if delta is None else Decimal(_money(delta)),  # a number: never formula-escaped, a number cell
            finding_text({"code": code, "params": params, "message": message}),  # the reader's language
            status,
            classification,
            reviewer or "",
            timezone.localtime(reviewed_at).isoformat(timespec="seconds") if reviewed_at else "",
            version,
        ]


def _amount_cell(value):
    """An amount of a finding's owed or logged result as an export cell: a Decimal (a number in CSV
    and XLSX), or the text as stored when it is not an amount, or None."""
    if value in (None, ""):
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return str(value)


def _money(value: Decimal) -> str:
    return engine.money.fmt(Decimal(value)) if value is not None else ""


# --- rounds ---------------------------------------------------------------------------------------


def round_queryset(*, user) -> QuerySet:
    return restrict(Round.objects, user).select_related("table", "table__pit", "dealer", "shoe")


def round_get(*, user, round_id) -> Round:
    record = round_queryset(user=user).filter(pk=round_id).first()
    if record is None:
        raise Http404(_("No such round."))
    return record


@dataclass
class EventView:
    index: int
    e: str
    card: replay.CardView | None
    text: str
    codes: list[str] = field(default_factory=list)


@dataclass
class RoundReplay:
    round: Round
    document: dict
    layout: replay.TableLayout
    rows: list[replay.WagerRow]
    findings: list  # stored Finding rows (with reviews), or the engine's findings when not audited yet
    events: list[EventView]
    error: str = ""
    live: bool = False  # findings come from a fresh replay (the round is not audited yet)
    drift: bool = False  # a fresh replay disagrees with the stored findings (engine changed since)
    float_owed: Decimal | None = None
    float_logged: Decimal | None = None
    amendments: list = field(default_factory=list)

    @property
    def over(self) -> Decimal:
        return sum((f.player_delta for f in self.findings if f.player_delta and f.player_delta > 0), Decimal(0))

    @property
    def under(self) -> Decimal:
        return sum((f.player_delta for f in self.findings if f.player_delta and f.player_delta < 0), Decimal(0))


def round_replay(*, user, round_id) -> RoundReplay:
    """The stored document replayed by the engine, drawn as a table, with owed versus logged."""
    record = round_get(user=user, round_id=round_id)
    document = record.document
    try:
        outcome = engine.replay(document)
        error = ""
    except engine.RoundError as exc:
        outcome, error = None, exc.message
    stored = list(
        record.findings.select_related("reviewed_by")
        .prefetch_related(Prefetch("reviews", Review.objects.select_related("auditor").order_by("-at", "-id")))
        .order_by("event", "pk")
    )
    live = record.audit_status == AuditStatus.PENDING
    findings = stored
    drift = False
    if outcome is not None:
        fresh = [_live_finding(f) for f in outcome.findings]
        if live:
            findings = fresh
        else:
            drift = record.audit_status != AuditStatus.ERROR and sorted(fingerprints_of(fresh)) != sorted(
                f.fingerprint for f in stored
            )
    flagged_events = {f.event for f in findings if f.event is not None}
    flagged_stakes = {f.stake for f in findings if f.stake}
    layout = replay.table_layout(
        document, flagged_events=flagged_events, flagged_stakes=flagged_stakes, boxes=record.table.boxes
    )
    rows = replay.wager_rows(document, outcome, findings) if outcome is not None else []
    codes_at: dict[int, list[str]] = {}
    for f in findings:
        if f.event is not None:
            codes_at.setdefault(f.event, []).append(f.code)
    events = [_event_view(i, ev, codes_at.get(i, [])) for i, ev in enumerate(document.get("events") or [])]
    # This revision, the one it corrects and its corrections, as far as the user may see them.
    amendments = list(
        restrict(Round.objects, user)
        .filter(Q(pk=record.pk) | Q(pk=record.supersedes_id) | Q(supersedes=record))
        .order_by("revision", "pk")
        .only("pk", "revision", "supersedes_id")
    )
    return RoundReplay(
        record,
        document,
        layout,
        rows,
        findings,
        events,
        error=error,
        live=live,
        drift=drift,
        float_owed=outcome.float if outcome is not None else None,
        float_logged=record.float_logged,
        amendments=amendments,
    )


def fingerprints_of(findings) -> list[str]:
    return fingerprints(findings)


def _live_finding(f) -> Finding:
    """An engine finding as an unsaved Finding, for a round not audited yet."""
    return Finding(
        code=f.code,
        severity=f.severity,
        event=f.event,
        stake=f.stake or "",
        hand=f.hand or "",
        wager=f.wager or "",
        expected=f.expected,
        actual=f.actual,
        player_delta=f.player_delta,
        message=f.message,
        params=f.params,
    )


_EVENT_FIELDS = (
    "to",
    "box",
    "boxes",
    "hand",
    "stake",
    "wager",
    "amount",
    "reason",
    "player",
    "kind",
    "resolution",
    "reported_by",
    "approved_by",
)


def _event_view(i: int, ev, codes: list[str]) -> EventView:
    if not isinstance(ev, dict):
        return EventView(i, "?", None, str(ev), codes)
    shown = replay.card(ev.get("card"), i, set()) if ev.get("card") is not None else None
    # The format's words (event names, field names) in the reader's language (casino/finding_text.py).
    parts = [event_field(key, ev[key]) for key in _EVENT_FIELDS if key in ev and ev[key] is not None]
    return EventView(i, event_word(ev.get("e", "?")), shown, " · ".join(parts), codes)


# --- runs and shoes -------------------------------------------------------------------------------


def audit_run_list(*, user) -> QuerySet:
    if not access.may_run(user):
        return AuditRun.objects.none()
    return AuditRun.objects.select_related("started_by").prefetch_related("tables", "dealers")


def audit_run_get(*, user, run_id) -> AuditRun:
    run = audit_run_list(user=user).filter(pk=run_id).first()
    if run is None:
        raise Http404(_("No such audit run."))
    return run


@dataclass
class ShoeItemView:
    index: int
    kind: str
    label: str
    round: Round | None
    card: replay.CardView | None
    codes: list[tuple[str, int]]  # (code, how many findings of it at this item)


def shoe_view(*, user, shoe_id) -> dict:
    from .shoes import shoe_items

    shoe = restrict(Shoe.objects, user).select_related("table", "table__pit", "shuffled_by").filter(pk=shoe_id).first()
    if shoe is None:
        raise Http404(_("No such shoe."))
    document, items = shoe_items(shoe)
    findings = list(
        Finding.objects.filter(shoe=shoe, round__isnull=True).select_related("dealer").order_by("event", "pk")
    )
    codes_at: dict[int, Counter] = {}
    for f in findings:
        if f.event is not None:
            codes_at.setdefault(f.event, Counter())[f.code] += 1
    rounds = {
        r.pk: r
        for r in Round.objects.filter(pk__in=[i.round_id for i in items if i.round_id]).only(
            "pk", "chain_index", "number", "table_round", "dealer_id", "table_id"
        )
    }
    views = []
    for k, (item, raw) in enumerate(zip(items, document["items"])):
        shown = replay.card(raw.get("card"), k, set(codes_at)) if raw.get("card") else None
        if item.kind == "round":
            what = _("Round")
        elif item.kind == "burn":
            what = _("Burn: %(reason)s") % {"reason": raw.get("reason")}
            if raw.get("fee") is not None:
                what += " · " + _("fee %(fee)s") % {"fee": raw.get("fee")}
        elif item.kind == "dealer_change":
            what = _("Dealer change: %(dealer)s") % {"dealer": raw.get("dealer") or "—"}
        else:
            what = _("Shuffle by %(who)s") % {"who": raw.get("by") or "—"}
        views.append(
            ShoeItemView(
                k, item.kind, what, rounds.get(item.round_id), shown, sorted(codes_at.get(k, Counter()).items())
            )
        )
    round_cards = sum(1 for _i in items if _i.round_id)
    return {
        "shoe": shoe,
        "items": views,
        "findings": findings,
        "rounds": round_cards,
        "audit": getattr(shoe, "audit", None),
    }
