"""Reads of the audit dashboard: the period asked for, the figures of its rollups (rounds, handle
and win, findings by code, severity, review, table, dealer and day), the dealers' error rates, the
rounds still waiting for audit, and the figures /metrics reads (audit/metrics.py)."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from casino.dates import BadDay, parse_day
from casino.models import Table
from casino.scope import restrict

from .choices import FindingStatus
from .models import Finding, PendingRollup, Rollup, RollupFinding
from .selectors import IN_FORCE, finding_rows
from .services import day_start


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
    """The rounds in force of the period the user may see that are not audited yet: the sum of the
    period's counters (PendingRollup: one row a day, table and dealer, kept in the transaction that
    writes or clears each pending audit row), not a count of the pending rows — which, with a
    day's rounds all logged and none audited yet, is every round of the day."""
    return rollups_in(PendingRollup, user=user, period=period).aggregate(n=Sum("rounds"))["n"] or 0


# --- the figures of /metrics (audit/metrics.py) --------------------------------------------------


def rounds_logged_count() -> int:
    """The rounds in force, floor-wide: those audited (Rollup) plus those waiting for their audit
    (PendingRollup) — every round in force is counted in exactly one of the two, in the transaction
    that moves it. Summing these few rows a day keeps a scrape flat at millions of rounds, where a
    COUNT(*) of the rounds grows with the store; the highest id would count ids that rolled-back
    transactions took. A correction replaces the round it corrects, so it does not add one."""
    audited = Rollup.objects.aggregate(n=Sum("rounds"))["n"] or 0
    return audited + audit_backlog_count()


def audit_backlog_count() -> int:
    """Rounds in force whose audit is pending, floor-wide: the sum of the counters (PendingRollup)."""
    return PendingRollup.objects.aggregate(n=Sum("rounds"))["n"] or 0


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


def witness_figures() -> dict | None:
    """The witness's state (dealing.witness_mirror.health), None when no witness is configured."""
    from dealing import checkpoint_log, witness_mirror

    signed, _problem = checkpoint_log.latest()
    return witness_mirror.health(None if signed is None else int(signed["seq"]))


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
