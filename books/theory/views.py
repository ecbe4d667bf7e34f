"""Pages of theoretical against actual and of the reports: auditors (every pit) and pit bosses (their
own pits). Thin: read the filters, call a selector, render; a bad filter is shown next to its field
with a 400 and no figures."""

from decimal import Decimal
from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.choices import Variant
from casino.errors import ServiceError
from casino.exports import export_response
from casino.pdf import pdf_response
from casino.roles import AUDITOR, PIT_BOSS, role_required, user_pits

from .. import reports
from . import selectors as theory_selectors
from .selectors import BY

READERS = (PIT_BOSS, AUDITOR)
CHART_W, CHART_H, PAD = 720, 260, 44


def funnel_chart(points) -> dict | None:
    """The funnel as SVG coordinates: the band (a polygon), the theoretical and the actual lines."""
    if not points:
        return None
    values = [float(v) for p in points for v in (p.actual, p.low, p.high, p.theoretical)] + [0.0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    n = len(points)

    def x(i):
        return round(PAD + (CHART_W - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5), 1)

    def y(v):
        return round(CHART_H - PAD - (CHART_H - 2 * PAD) * (float(v) - lo) / span, 1)

    def line(attr):
        return " ".join(f"{x(i)},{y(getattr(p, attr))}" for i, p in enumerate(points))

    band = [f"{x(i)},{y(p.high)}" for i, p in enumerate(points)]
    band += [f"{x(i)},{y(p.low)}" for i, p in reversed(list(enumerate(points)))]
    return {
        "width": CHART_W,
        "height": CHART_H,
        "band": " ".join(band),
        "theoretical": line("theoretical"),
        "actual": line("actual"),
        "zero": y(0),
        "left": PAD,
        "right": CHART_W - PAD,
        "first": points[0].day,
        "last": points[-1].day,
        "top": hi,
        "bottom": lo,
        "end": points[-1],
    }


def _form_context(request, error: ServiceError | None, query: dict | None = None) -> dict:
    pits = list(user_pits(request.user).order_by("name").values_list("name", flat=True))
    values = dict(query or {k: v for k, v in request.GET.items()})
    return {
        "q": values,
        "pits": pits,
        "by_choices": BY,
        "games": Variant.choices,
        "error": error.message if error else None,
        "error_field": error.extra.get("field") if error else None,
    }


@require_GET
@role_required(*READERS)
def theory(request):
    try:
        f = theory_selectors.parse_filters(request.user, request.GET)
    except ServiceError as exc:
        return render(request, "books/theory.html", _form_context(request, exc), status=400)
    rows, total = theory_selectors.theory_rows(request.user, f)
    for row in rows:
        row.href = "?" + urlencode({**f.query, **row.link})
    chart = funnel_chart(theory_selectors.funnel(request.user, f))
    return render(
        request,
        "books/theory.html",
        {**_form_context(request, None, f.query), "filters": f, "rows": rows, "total": total, "chart": chart},
    )


# --- the shift report ------------------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def report_shift(request, pk: int):
    report = reports.shift_report(reports.shift_for_report(request.user, pk))
    return render(request, "books/report_shift.html", {"report": report, "shift": report.shift})


def _amount(value) -> Decimal | None:
    """An amount as the exports write it: a Decimal (a number in the spreadsheet), None when unknown."""
    return None if value is None else Decimal(value)


@require_GET
@role_required(*READERS)
def report_shift_csv(request, pk: int):
    report = reports.shift_report(reports.shift_for_report(request.user, pk))
    s = report.shift
    rows = [[_("table"), s.table.name], [_("opened at"), s.opened_at.isoformat()], [_("rounds"), report.theory.rounds]]
    rows += [[label, _amount(value)] for label, value in report.lines()]
    rows += [[step, by or "", at.isoformat() if at else ""] for step, by, at in report.signatures()]
    for event in report.books.events:
        slip = getattr(event, "slip", None) if event.kind in ("fill", "credit") else None
        if slip is not None:
            state = _("void") if slip.voided else _("void asked") if slip.void_pending else event.get_status_display()
            rows.append([_("slip"), slip.label, event.get_kind_display(), _amount(event.amount), state])
    return export_response(request, rows, f"shift-{s.table.name}-{s.opened_at:%Y%m%d-%H%M}.csv", title="shift")


@require_GET
@role_required(*READERS)
def report_shift_pdf(request, pk: int):
    report = reports.shift_report(reports.shift_for_report(request.user, pk))
    s = report.shift
    context = {"report": report, "shift": s}
    return pdf_response(request, "books/pdf_shift.html", context, f"shift-{s.table.name}-{s.opened_at:%Y%m%d-%H%M}.pdf")


# --- the period report -----------------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def report_period(request):
    try:
        report = reports.period_report(request.user, request.GET)
    except ServiceError as exc:
        return render(request, "books/report_period.html", _form_context(request, exc), status=400)
    return render(
        request, "books/report_period.html", {**_form_context(request, None, report.filters.query), "report": report}
    )


def period_columns() -> list[str]:
    return [
        _("table"),
        _("game"),
        _("rounds"),
        _("initial wagers"),
        _("total wagered"),
        _("actual win"),
        _("theoretical win"),
        _("band low"),
        _("band high"),
        "z",
        "p",
        _("outside band"),
        _("dealer errors"),
        _("chance"),
        _("shifts closed"),
        _("float variance (net)"),
        _("float variance (absolute)"),
        _("shifts over tolerance"),
    ]


def _period_for_download(request):
    """The period report a download asks for, or the plain-text 400 naming what is wrong."""
    try:
        return reports.period_report(request.user, request.GET), None
    except ServiceError as exc:
        return None, HttpResponse(exc.message, status=400, content_type="text/plain; charset=utf-8")


def _period_file(report, suffix: str) -> str:
    f = report.filters
    return f"period-{report.pit.name}-{f.start:%Y%m%d}-{f.end:%Y%m%d}.{suffix}"


@require_GET
@role_required(*READERS)
def report_period_csv(request):
    report, refused = _period_for_download(request)
    if refused is not None:
        return refused

    def line(name, variant, t, v):
        z, p = t.z, t.p_value
        return [
            name,
            variant,
            t.rounds,
            _amount(t.initial_wagers),
            _amount(t.total_wagered),
            _amount(t.actual),
            _amount(t.theoretical),
            _amount(t.band_low),
            _amount(t.band_high),
            None if z is None else round(float(z), 3),
            None if p is None else round(float(p), 6),
            int(t.outside),
            _amount(t.errors),
            _amount(t.chance),
            v.shifts,
            _amount(v.net),
            _amount(v.absolute),
            v.over_tolerance,
        ]

    rows = [period_columns()]
    rows += [line(r.table.name, r.table.variant, r.figures, r.floats) for r in report.rows]
    rows.append(line(_("total"), "", report.total, report.floats))
    # Hold (issue #35): drop, win and hold % by table, game and pit — the period, month and year to date.
    rows.append([])
    rows.append([_("span"), _("level"), _("name"), _("shifts closed"), _("drop"), _("win"), _("hold %")])
    for block in report.holds:
        rows += block.rows()
    return export_response(request, rows, _period_file(report, "csv"), title="period")


@require_GET
@role_required(*READERS)
def report_period_pdf(request):
    report, refused = _period_for_download(request)
    if refused is not None:
        return refused
    return pdf_response(request, "books/pdf_period.html", {"report": report}, _period_file(report, "pdf"))
