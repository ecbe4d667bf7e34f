"""The player evaluation as the page and the exports show it: the chart of bet against true count
(SVG geometry computed here: the template draws it with presentation attributes, no inline style or
script), and the rows of the CSV / XLSX exports (typed values, casino/exports.py)."""

from django.utils.translation import gettext as _

from dealing.engine.evaluation import Evaluation

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 14, 40
COUNT_RANGE = 6  # the chart's true counts run −6 … +6; rarer counts are drawn at the edge
MAX_DOTS = 1500  # a year of rounds is drawn as every k-th round: the means and the line use all of them


def _x(tc: float) -> float:
    tc = max(-COUNT_RANGE, min(COUNT_RANGE, tc))
    return round(LEFT + (tc + COUNT_RANGE) / (2 * COUNT_RANGE) * (WIDTH - LEFT - RIGHT), 1)


def _nice(top: float) -> float:
    """A round number at or above `top` for the axis (1, 2, 2.5 or 5 × a power of ten)."""
    if top <= 0:
        return 1.0
    power = 10 ** (len(str(int(top))) - 1)
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= top:
            return step * power
    return 10 * power


def bet_chart(report: Evaluation, summary: dict | None = None) -> dict:
    """Dots (a sample of the rounds), the mean bet at each whole true count, the least-squares line
    and the axes' ticks, in the SVG's coordinates."""
    points = [(r.true_count, float(r.wager)) for r in report.rounds]
    chart: dict = {"width": WIDTH, "height": HEIGHT, "left": LEFT, "bottom": HEIGHT - BOTTOM, "right": WIDTH - RIGHT}
    chart["top"] = TOP
    if not points:
        chart["empty"] = True
        return chart
    top = _nice(max(b for _tc, b in points))
    plot_h = HEIGHT - TOP - BOTTOM

    def y(bet: float) -> float:
        return round(HEIGHT - BOTTOM - bet / top * plot_h, 1)

    step = max(1, len(points) // MAX_DOTS)
    chart["dots"] = [(_x(tc), y(b)) for tc, b in points[::step]]
    buckets: dict[int, list[float]] = {}
    for tc, b in points:
        k = max(-COUNT_RANGE, min(COUNT_RANGE, round(tc)))
        buckets.setdefault(k, []).append(b)
    means = [(k, sum(v) / len(v), len(v)) for k, v in sorted(buckets.items())]
    chart["means"] = [
        (_x(k), y(m), _("true count %(count)+d: mean bet %(bet).2f over %(n)d rounds") % {"count": k, "bet": m, "n": n})
        for k, m, n in means
    ]
    chart["mean_line"] = " ".join(f"{x},{yy}" for x, yy, _t in chart["means"])
    stats = (summary or report.summary())["bets"]  # the caller's, where it has it: a year's takes 0.1 s
    if stats.get("slope") is not None:
        a, b = stats["intercept"], stats["slope"]
        ends = (-COUNT_RANGE, COUNT_RANGE)
        chart["fit"] = [(_x(t), y(max(0.0, min(top, a + b * t)))) for t in ends]
    chart["x_ticks"] = [(_x(t), f"{t:+d}" if t else "0") for t in range(-COUNT_RANGE, COUNT_RANGE + 1, 2)]
    chart["y_ticks"] = [(y(top * f), f"{top * f:g}") for f in (0, 0.25, 0.5, 0.75, 1)]
    chart["x_label"] = (WIDTH + LEFT) / 2
    return chart


def round_rows(report: Evaluation):
    yield [
        _("round"),
        _("shoe"),
        _("round of the shoe"),
        _("true count"),
        _("edge of the shoe (%)"),
        _("wager"),
        _("net"),
        _("decisions"),
        _("deviations"),
        _("EV given up"),
    ]
    for r in report.rounds:
        yield [
            int(r.round_id) if r.round_id.isdigit() else r.round_id,
            r.shoe,
            r.number,
            round(r.true_count, 3),
            round(r.edge, 4),
            r.wager,
            r.net,
            r.decisions,
            r.deviations,
            r.ev_lost,
        ]


def decision_rows(report: Evaluation):
    yield [
        _("round"),
        _("stake"),
        _("hand"),
        _("situation"),
        _("true count"),
        _("chosen"),
        _("optimal"),
        _("EV chosen"),
        _("EV optimal"),
        _("wager"),
        _("EV given up"),
    ]
    for d in sorted(report.decisions + report.insurance, key=lambda d: (d.round_id, d.stake)):
        rid = int(d.round_id) if d.round_id.isdigit() else d.round_id
        yield [
            rid,
            d.stake,
            d.hand,
            d.situation,
            round(d.true_count, 3),
            d.chosen,
            d.optimal,
            round(d.ev_chosen, 6),
            round(d.ev_optimal, 6),
            d.wager,
            d.given_up,
        ]


def session_rows(report: Evaluation):
    yield [
        _("shoe"),
        _("table"),
        _("rounds"),
        _("first round"),
        _("last round"),
        _("rounds of the shoe"),
        _("true count at entry"),
        _("true count at exit"),
        _("mean true count of the shoe"),
        _("wagered"),
        _("net"),
    ]
    for s in report.sessions:
        exit_count = round(s.exit_count, 3) if s.exit_count is not None else None
        yield [
            s.shoe,
            s.table,
            s.rounds,
            s.first_round,
            s.last_round,
            s.shoe_rounds,
            round(s.entry_count, 3),
            exit_count,
            round(s.shoe_mean_count, 3),
            s.wagered,
            s.net,
        ]
