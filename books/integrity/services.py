"""Writes of the integrity signals: a scan of a period stores what it flags; an auditor reviews a signal.

A scan is idempotent: a signal is stored once per subject (`key`) and period, and re-scanning the
same period updates the figures of its open signals (a reviewed signal keeps the figures it was
reviewed on). The daily scan looks at a trailing window (SIGNALS_WINDOW_DAYS) that moves by a day
each day: an open signal of the same subject whose period overlaps is carried forward to the new
period instead of a second one being added beside it.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.db import advisory_xact_lock
from casino.errors import ServiceError
from casino.roles import AUDITOR, has_role

from ..models import IntegritySignal, SignalStatus
from . import detection
from .selectors import scan_data, thresholds

MAX_NOTE = 4000


@dataclass
class ScanResult:
    date_from: dt.date
    date_to: dt.date
    tests: int
    created: list[IntegritySignal]
    updated: list[IntegritySignal]

    def summary(self) -> dict:
        return {
            "from": self.date_from.isoformat(),
            "to": self.date_to.isoformat(),
            "tests": self.tests,
            "created": len(self.created),
            "updated": len(self.updated),
        }


# The advisory lock that puts scans' writes in line (casino.db.advisory_xact_lock): two scans of one
# period at once (the daily task and a command) both found no signal of a key and both inserted it,
# and the second failed on books_signal_once. This constant spells "signals".
_SCANS_LOCK = 0x7369676E616C73


def signals_scan(*, date_from: dt.date, date_to: dt.date, limits: detection.Thresholds | None = None) -> ScanResult:
    """Run every test of books/integrity/detection.py on the period's records (both dates included); store the
    signals it flags after Holm's correction."""
    if date_from > date_to:
        raise ServiceError(_("The period ends before it starts."), extra={"code": "bad_period", "field": "date_to"})
    limits = limits or thresholds()
    data = scan_data(date_from=date_from, date_to=date_to)
    result = detection.scan(
        stakes=data.stakes,
        incidents=data.incidents,
        procedure=data.procedure,
        rounds_by_dealer=data.rounds_by_dealer,
        rounds_by_table=data.rounds_by_table,
        counted=data.counted,
        thresholds=limits,
    )
    created, updated = [], []
    now = timezone.now()
    with transaction.atomic():
        advisory_xact_lock(_SCANS_LOCK)
        for c in result.flagged:
            figures = {
                "statistic": c.statistic,
                "p_value": c.p_value,
                "p_adjusted": c.p_adjusted,
                "evidence": {**c.evidence, "alpha": limits.alpha},
                "round_ids": c.round_ids,
                "updated_at": now,
            }
            same = (
                IntegritySignal.objects.select_for_update()
                .filter(key=c.key, period_start=date_from, period_end=date_to)
                .first()
            )
            if same is None:
                same = (
                    IntegritySignal.objects.select_for_update()
                    .filter(key=c.key, status=SignalStatus.OPEN, period_start__lte=date_to, period_end__gte=date_from)
                    .order_by("-period_end")
                    .first()
                )
                if (
                    same is not None
                    and IntegritySignal.objects.filter(
                        key=c.key,
                        period_start=min(same.period_start, date_from),
                        period_end=max(same.period_end, date_to),
                    )
                    .exclude(pk=same.pk)
                    .exists()
                ):
                    same = None  # extending it would collide with a signal already stored for that span
                if same is not None:
                    figures.update(
                        period_start=min(same.period_start, date_from), period_end=max(same.period_end, date_to)
                    )
            if same is None:
                created.append(
                    IntegritySignal.objects.create(
                        kind=c.kind,
                        key=c.key,
                        dealer_id=c.dealer,
                        player=c.player,
                        box=c.box,
                        table_id=c.table,
                        period_start=date_from,
                        period_end=date_to,
                        created_at=now,
                        **figures,
                    )
                )
            elif same.status == SignalStatus.OPEN:
                for name, value in figures.items():
                    setattr(same, name, value)
                same.save()
                updated.append(same)
    return ScanResult(date_from, date_to, len(result.candidates), created, updated)


def signals_scan_daily(*, today: dt.date | None = None, window_days: int | None = None) -> ScanResult:
    """The scheduled scan: the `window_days` days up to yesterday."""
    today = today or timezone.localdate()
    window_days = window_days or settings.SIGNALS_WINDOW_DAYS
    end = today - dt.timedelta(days=1)
    return signals_scan(date_from=end - dt.timedelta(days=window_days - 1), date_to=end)


REVIEWED = (SignalStatus.CONFIRMED, SignalStatus.DISMISSED)


def signal_review(*, signal: IntegritySignal, reviewer, status: str, note: str) -> IntegritySignal:
    """An auditor confirms or dismisses an open signal, with a note saying why. Nobody reviews a
    signal about himself. A refusal stores nothing."""
    if not has_role(reviewer, AUDITOR):
        raise ServiceError(_("Only auditors review integrity signals."), extra={"code": "forbidden"}, status=403)
    note = (note or "").strip() if isinstance(note, str) or note is None else None
    fields = {}
    if status not in REVIEWED:
        fields["status"] = [_("Choose confirmed or dismissed.")]
    if note is None:
        fields["note"] = [_("The note is text.")]
    elif not note:
        fields["note"] = [_("Say why: the note is required.")]
    elif len(note) > MAX_NOTE:
        fields["note"] = [_("Keep the note under %(n)d characters.") % {"n": MAX_NOTE}]
    if fields:
        field = next(iter(fields))
        raise ServiceError(
            _("The review was not recorded."), extra={"code": "invalid", "field": field, "fields": fields}
        )
    with transaction.atomic():
        signal = IntegritySignal.objects.select_for_update().get(pk=signal.pk)
        if signal.dealer_id is not None and signal.dealer_id == reviewer.pk:
            raise ServiceError(
                _("You may not review a signal about yourself."), extra={"code": "own_signal"}, status=403
            )
        if signal.status != SignalStatus.OPEN:
            raise ServiceError(
                _("This signal was already %(status)s by %(who)s.")
                % {"status": signal.get_status_display(), "who": signal.reviewed_by},
                extra={"code": "already_reviewed", "field": "status"},
                status=409,
            )
        signal.status = status
        signal.note = note
        signal.reviewed_by = reviewer
        signal.reviewed_at = timezone.now()
        signal.save(update_fields=["status", "note", "reviewed_by", "reviewed_at"])
    return signal
