"""Reads of audit: findings as each user may see them, the round replay, the dashboard's figures,
per-dealer error rates, audit runs and shoes. Pages, exports and the API all read through here."""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Prefetch, Q, QuerySet, Sum
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.dates import BadDay, parse_day
from casino.finding_text import event_field, event_word
from casino.models import Table
from casino.scope import restrict
from dealing import engine
from dealing.choices import AuditStatus
from dealing.models import Round, RoundAudit, Shoe, in_force_q

from . import access, replay
from .choices import FindingStatus
from .filters import FindingFilter
from .models import AuditRun, Finding, Review, Rollup, RollupFinding
from .services import day_start, fingerprints

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
            message,
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


# --- the dashboard -------------------------------------------------------------------------------


@dataclass
class Period:
    date_from: dt.date
    date_to: dt.date

    @property
    def start(self):
        return day_start(self.date_from)

    @property
    def end(self):
        return day_start(self.date_to + dt.timedelta(days=1))

    @property
    def days(self) -> list[dt.date]:
        n = (self.date_to - self.date_from).days + 1
        return [self.date_from + dt.timedelta(days=k) for k in range(n)]


PERIODS = (7, 30, 90, 365)


def period_from(params) -> Period:
    """The dashboard's period from `?days=N` or `?from=…&to=…` (at most a year; default 30 days)."""
    today = timezone.localdate()
    date_from = _date(params.get("from"))
    date_to = _date(params.get("to"))
    if date_from or date_to:
        date_to = date_to or today
        date_from = date_from or date_to - dt.timedelta(days=29)
        if date_from > date_to:
            date_from, date_to = date_to, date_from
        date_from = max(date_from, date_to - dt.timedelta(days=365))
        return Period(date_from, date_to)
    try:
        days = int(params.get("days") or 30)
    except ValueError:
        days = 30
    days = min(max(days, 1), 366)
    return Period(today - dt.timedelta(days=days - 1), today)


def _date(value):
    """A day of the period, or None for none given — and for one that cannot be read or is out of
    casino.dates' range: the pages show the default period then (the API refuses it first)."""
    if not value:
        return None
    try:
        return parse_day(str(value))
    except BadDay:
        return None


OVER = Sum("player_delta", filter=Q(player_delta__gt=0))
UNDER = Sum("player_delta", filter=Q(player_delta__lt=0))


def rollups_in(model, *, user, period: Period) -> QuerySet:
    return restrict(model.objects.filter(day__gte=period.date_from, day__lte=period.date_to), user).order_by()


def _names(dealer_ids) -> dict[int, tuple[str, str]]:
    """username and full name of each dealer id."""
    return {
        pk: (username, f"{first} {last}".strip())
        for pk, username, first, last in get_user_model()
        .objects.filter(pk__in=[d for d in dealer_ids if d])
        .values_list("pk", "username", "first_name", "last_name")
    }


def pending_count(*, user, period: Period) -> int:
    """The rounds in force of the period the user may see that are not audited yet, counted from
    their pending audit rows (`round_audit_pending`, a partial index: a few rows however many rounds
    are stored) — what the sweep audits (audit.services.rounds) — instead of an anti-join of every
    round of the period against its audit row. Every writer appends a round's pending row in the
    round's transaction (dealing.hooks.round_written)."""
    return (
        restrict(RoundAudit.objects.filter(status=AuditStatus.PENDING), user)
        .filter(in_force_q("round"), round__played_at__gte=period.start, round__played_at__lt=period.end)
        .count()
    )


# --- the figures of /metrics (audit/metrics.py) --------------------------------------------------


def rounds_logged_count() -> int:
    """Every round record stored (corrections included: each is a round logged). The highest id
    would be cheaper but counts ids a rolled-back transaction took."""
    return Round.objects.count()


def audit_backlog_count() -> int:
    """Rounds in force whose audit is pending, floor-wide, from the partial index of pending rows."""
    return RoundAudit.objects.filter(in_force_q("round"), status=AuditStatus.PENDING).count()


def chain_figures() -> dict:
    """When the newest checkpoint was written, and the last verification of the chains (or None)."""
    from dealing.models import ChainCheck

    checkpoint = (
        ChainCheck.objects.filter(kind=ChainCheck.Kind.CHECKPOINT, ok=True)
        .order_by("-at")
        .values_list("at", flat=True)
        .first()
    )
    verification = ChainCheck.objects.filter(kind=ChainCheck.Kind.VERIFICATION).order_by("-at", "-id").first()
    return {"checkpoint_at": checkpoint, "verification": verification}


def dashboard(*, user, period: Period) -> dict:
    """The audit dashboard's figures over a period, from the rollups (audit/rollups.py) — no read of
    the period's rounds or findings but the few rounds not audited yet and the latest open findings."""
    totals = rollups_in(Rollup, user=user, period=period).aggregate(
        clean=Sum("clean"), with_findings=Sum("with_findings"), errors=Sum("errors")
    )
    pending = pending_count(user=user, period=period)
    counted = finding_totals(rollups_in(RollupFinding, user=user, period=period))
    by_code, by_severity, by_review = counted["by_code"], counted["by_severity"], counted["by_review"]
    names = _names(row["dealer_id"] for row in counted["by_dealer"])
    by_dealer = [{"dealer__username": names.get(row["dealer_id"], ("?", ""))[0], **row} for row in counted["by_dealer"]]
    by_day_rows = counted["by_day"]
    clean, with_findings, errors = (totals["clean"] or 0, totals["with_findings"] or 0, totals["errors"] or 0)
    audited = clean + with_findings + errors
    zero = Decimal(0)
    recent = (
        restrict(Finding.objects, user).filter(IN_FORCE).filter(played_at__gte=period.start, played_at__lt=period.end)
    )
    return {
        "period": period,
        "rounds": audited + pending,
        "audited": audited,
        "pending": pending,
        "clean": clean,
        "with_findings": with_findings,
        "errors": errors,
        "findings": sum(row["n"] for row in by_code),
        "open": by_review.get(FindingStatus.OPEN, 0) or 0,
        "confirmed": by_review.get(FindingStatus.CONFIRMED, 0) or 0,
        "dismissed": by_review.get(FindingStatus.DISMISSED, 0) or 0,
        "over": counted["over"] or zero,
        "under": counted["under"] or zero,
        "by_code": by_code,
        "by_severity": [(s, by_severity.get(s, 0) or 0) for s in ("critical", "major", "minor")],
        "by_table": [
            {"label": r["table__name"], "over": r["over"] or zero, "under": r["under"] or zero, "n": r["n"]}
            for r in counted["by_table"]
        ],
        "by_dealer": _top_dealers(by_dealer),
        "by_day": [
            {
                "label": day.isoformat(),
                "over": (by_day_rows.get(day) or {}).get("over") or zero,
                "under": (by_day_rows.get(day) or {}).get("under") or zero,
                "n": (by_day_rows.get(day) or {}).get("n", 0) or 0,
            }
            for day in period.days
        ],
        "recent": list(
            finding_rows(recent.filter(status=FindingStatus.OPEN).select_related("table", "dealer", "round")).order_by(
                "-played_at", "-id"
            )[:8]
        ),
    }


# The dashboard's counts of findings, each over the period's findings rollups: by code, severity
# and review of every finding; by table, dealer and day, and in all, of the findings not dismissed
# (the money they moved).
_BY = ("code", "severity", "status", "table_id", "dealer_id", "day")


def finding_totals(findings: QuerySet) -> dict:
    """The dashboard's counts of `findings` (findings rollups). On PostgreSQL one statement reads
    the rows once, grouped by GROUPING SETS: a year of rollups at 10M rounds is 37,000 rows, and
    seven grouped statements read them seven times (12–29 ms each). SQLite, which has no GROUPING
    SETS, runs the seven."""
    if connection.vendor != "postgresql":
        return finding_totals_each(findings)
    select, params = findings.values(*_BY, "n", "over", "under").query.sql_with_params()
    q = connection.ops.quote_name
    by, kept = ", ".join(q(name) for name in _BY), f"FILTER (WHERE {q('status')} <> %s)"
    # SUM of a bigint is a numeric: counted back to bigint, as the ORM's Sum gives them.
    sql = (
        f"SELECT GROUPING({by}), {by}, SUM({q('n')})::bigint, (SUM({q('n')}) {kept})::bigint, "
        f"SUM({q('over')}) {kept}, SUM({q('under')}) {kept} FROM ({select}) AS rollup "
        f"GROUP BY GROUPING SETS ((), {', '.join(f'({q(name)})' for name in _BY)})"
    )
    dismissed = FindingStatus.DISMISSED.value
    with connection.cursor() as cursor:
        cursor.execute(sql, (dismissed, dismissed, dismissed, *params))  # the FILTERs come before the FROM
        grouped = cursor.fetchall()
    # GROUPING() has a bit per column, the first the highest, set where the row is not grouped by it.
    everything = (1 << len(_BY)) - 1
    grouped_by = {everything ^ (1 << (len(_BY) - 1 - i)): i for i in range(len(_BY))}
    rows: dict[str, list] = {name: [] for name in _BY}
    out = {"over": None, "under": None}
    for bits, *keys, n, kept_n, over, under in grouped:
        if bits == everything:
            out["over"], out["under"] = over, under
        else:
            i = grouped_by[bits]
            rows[_BY[i]].append((keys[i], n, {"over": over, "under": under, "n": kept_n or 0}))
    tables = dict(Table.objects.filter(pk__in=[key for key, *_ in rows["table_id"]]).values_list("pk", "name"))
    out.update(
        by_code=sorted(
            ({"code": key, "n": n} for key, n, _ in rows["code"] if n > 0), key=lambda row: (-row["n"], row["code"])
        ),
        by_severity={key: n for key, n, _ in rows["severity"]},
        by_review={key: n for key, n, _ in rows["status"]},
        by_table=sorted(
            ({"table__name": tables[key], **money} for key, _, money in rows["table_id"] if money["n"] > 0),
            key=lambda row: row["table__name"],
        ),
        by_dealer=[{"dealer_id": key, **money} for key, _, money in rows["dealer_id"] if key and money["n"] > 0],
        by_day={key: money for key, _, money in rows["day"] if money["n"]},
    )
    return out


def finding_totals_each(findings: QuerySet) -> dict:
    money = findings.exclude(status=FindingStatus.DISMISSED)
    over, under = Sum("over"), Sum("under")
    return {
        **money.aggregate(over=over, under=under),
        "by_code": list(findings.values("code").annotate(n=Sum("n")).filter(n__gt=0).order_by("-n", "code")),
        "by_severity": {row["severity"]: row["n"] for row in findings.values("severity").annotate(n=Sum("n"))},
        "by_review": {row["status"]: row["n"] for row in findings.values("status").annotate(n=Sum("n"))},
        "by_table": list(
            money.values("table__name")
            .annotate(over=over, under=under, n=Sum("n"))
            .filter(n__gt=0)
            .order_by("table__name")
        ),
        "by_dealer": list(
            money.exclude(dealer_id=0).values("dealer_id").annotate(over=over, under=under, n=Sum("n")).filter(n__gt=0)
        ),
        "by_day": {row["day"]: row for row in money.values("day").annotate(over=over, under=under, n=Sum("n"))},
    }


TOP_DEALERS = 20


def _top_dealers(rows) -> list[dict]:
    """The dealers whose findings moved the most money (at most TOP_DEALERS), by name."""
    zero = Decimal(0)
    dealers = [
        {"label": r["dealer__username"], "over": r["over"] or zero, "under": r["under"] or zero, "n": r["n"]}
        for r in rows
    ]
    dealers.sort(key=lambda d: (-(d["over"] - d["under"]), -d["n"], d["label"]))
    return sorted(dealers[:TOP_DEALERS], key=lambda d: d["label"])


def dealer_error_rates(*, user, period: Period) -> list[dict]:
    """Per dealer over a period: rounds audited, findings (not dismissed), errors per 100 rounds,
    confirmed dealer errors, and the money the findings moved — from the rollups."""
    rounds = (
        rollups_in(Rollup, user=user, period=period)
        .exclude(dealer_id=0)
        .values("dealer_id")
        .annotate(rounds=Sum("rounds"), with_findings=Sum("with_findings"))
        .filter(rounds__gt=0)
    )
    findings = {
        row["dealer_id"]: row
        for row in (
            rollups_in(RollupFinding, user=user, period=period)
            .filter(of_shoe=False)
            .exclude(status=FindingStatus.DISMISSED)
            .values("dealer_id")
            .annotate(
                findings=Sum("n"),
                confirmed=Sum("n", filter=Q(status=FindingStatus.CONFIRMED, classification="dealer_error")),
                over=Sum("over"),
                under=Sum("under"),
            )
        )
    }
    rounds = list(rounds)
    names = _names(row["dealer_id"] for row in rounds)
    out = []
    zero = Decimal(0)
    for row in rounds:
        f = findings.get(row["dealer_id"], {})
        n = row["rounds"]
        errors = f.get("findings", 0) or 0
        confirmed = f.get("confirmed", 0) or 0
        username, name = names.get(row["dealer_id"], ("?", ""))
        out.append(
            {
                "dealer": username,
                "name": name,
                "rounds": n,
                "with_findings": row["with_findings"],
                "findings": errors,
                "per_100": (Decimal(errors) * 100 / n).quantize(Decimal("0.01")) if n else zero,
                "confirmed": confirmed,
                "confirmed_per_100": (Decimal(confirmed) * 100 / n).quantize(Decimal("0.01")) if n else zero,
                "over": f.get("over") or zero,
                "under": f.get("under") or zero,
            }
        )
    out.sort(key=lambda r: (-r["per_100"], r["dealer"]))
    return out


def handle_and_win(*, user, period: Period, by: tuple[str, ...] = ("table__name",)) -> list[dict]:
    """Rounds audited, handle (initial wagers, total wagered) and win (as logged, as owed) over a
    period, grouped by `by` (fields of Rollup: table__name, dealer_id, day, shift_date, shift,
    variant) — what the pit's books stand on."""
    return list(
        rollups_in(Rollup, user=user, period=period)
        .values(*by)
        .annotate(
            rounds=Sum("rounds"),
            initial_wagers=Sum("initial_wagers"),
            total_wagered=Sum("total_wagered"),
            win_logged=Sum("win_logged"),
            win_owed=Sum("win_owed"),
        )
        .filter(rounds__gt=0)
        .order_by(*by)
    )


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
