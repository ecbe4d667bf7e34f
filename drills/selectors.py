"""Reads of the drills, and who may read what.

trainees: their own drills
pit bosses: the trainees of their pits (casino Staff pits)
auditors (and superusers): every trainee
dealers, inspectors: nothing here
"""

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404

from casino.roles import PIT_BOSS, TRAINEE, has_role
from casino.scope import RowScope, Who, restrict

from . import scoring
from .choices import CODE_LABELS, Status, StepKind
from .models import Certificate, CertificationStandard, Drill, DrillRound, DrillStep

# --- who sees whom ----------------------------------------------------------------------------------

# Trainees are users (who cannot declare a row scope on their model): a pit boss reads the trainees of
# his pits, a trainee himself, an auditor every trainee (casino/scope.py).
TRAINEES = RowScope(pit="staff__pits", owner="pk", view=Who(pits=(PIT_BOSS,), own=(TRAINEE,)), distinct=True)


def trainees_visible(*, user) -> QuerySet:
    """The trainees whose drills `user` may read: the trainee group's members, and the user himself
    when he may train (a superuser holds every role: the drills he starts are his to play)."""
    trainees = Q(groups__name=TRAINEE)
    if getattr(user, "pk", None) is not None and has_role(user, TRAINEE):
        trainees |= Q(pk=user.pk)
    return restrict(get_user_model().objects.filter(trainees).distinct(), user, scope=TRAINEES)


def drills_visible(*, user) -> QuerySet:
    return Drill.objects.filter(trainee__in=trainees_visible(user=user)).select_related("trainee")


def drill_get(*, user, pk) -> Drill:
    """A drill the user may read, or 404 (a drill out of reach is not shown to exist)."""
    drill = drills_visible(user=user).filter(pk=pk).first()
    if drill is None:
        raise Http404
    return drill


def trainee_get(*, user, pk):
    trainee = trainees_visible(user=user).filter(pk=pk).first()
    if trainee is None:
        raise Http404
    return trainee


def drill_list(*, user, trainee=None) -> QuerySet:
    drills = drills_visible(user=user)
    if trainee is not None:
        drills = drills.filter(trainee=trainee)
    return drills.order_by("-started_at", "-pk")


def active_drills(*, trainee) -> QuerySet:
    return Drill.objects.filter(trainee=trainee, status=Status.ACTIVE).order_by("-started_at")


# --- results -----------------------------------------------------------------------------------------


@dataclass
class Mistake:
    code: str
    label: str
    count: int


@dataclass
class Situation:
    """A strategy-trainer situation the trainee misplayed: how often, and what it cost at the stakes."""

    situation: str
    count: int
    cost: Decimal
    best: str


@dataclass
class Results:
    """Grading and progress over a set of rounds (one drill, or a trainee's history)."""

    rounds: int = 0
    decisions: int = 0
    correct: int = 0
    time_ms: int = 0
    timed_decisions: int = 0  # the decisions of the rounds that are over (those `time_ms` covers)
    streak_current: int = 0
    streak_best: int = 0
    mistakes: list[Mistake] = field(default_factory=list)
    situations: list["Situation"] = field(default_factory=list)

    @property
    def accuracy(self) -> Decimal | None:
        return scoring.accuracy(self.correct, self.decisions)

    @property
    def accuracy_display(self) -> Decimal | None:
        return scoring.rounded(self.accuracy)

    @property
    def band(self):
        return scoring.band(self.accuracy)

    @property
    def per_decision_ms(self) -> int | None:
        return scoring.per_decision_ms(self.time_ms, self.timed_decisions)

    @property
    def pace(self) -> Decimal | None:
        return scoring.pace(self.rounds, self.time_ms)

    @property
    def wrong(self) -> int:
        return self.decisions - self.correct


def _results(rounds_qs, steps_qs) -> Results:
    # Rounds and their time count when a round is over; decisions as they are made (a procedure
    # round's moves count before its last one).
    totals = rounds_qs.filter(answered_at__isnull=False).aggregate(
        rounds=Count("pk"), time_ms=Sum("time_ms"), decisions=Sum("decisions")
    )
    out = Results(
        rounds=totals["rounds"] or 0, time_ms=totals["time_ms"] or 0, timed_decisions=totals["decisions"] or 0
    )
    flags = []
    codes: Counter = Counter()
    for correct, step_codes in steps_qs.order_by("answered_at", "drill_round__number", "index", "pk").values_list(
        "correct", "codes"
    ):
        flags.append(correct)
        codes.update(step_codes or [])
    out.decisions = len(flags)
    out.correct = sum(flags)
    out.streak_current, out.streak_best = scoring.streaks(flags)
    out.mistakes = [Mistake(code, str(CODE_LABELS.get(code, code)), n) for code, n in codes.most_common()]
    out.situations = strategy_situations(steps_qs)
    return out


def strategy_situations(steps_qs) -> list[Situation]:
    """The strategy trainer's mistakes by situation ("soft 18 vs 9"), most frequent (then costliest) first."""
    found: dict[str, Situation] = {}
    for expected in steps_qs.filter(kind=StepKind.PLAY, correct=False).values_list("expected", flat=True):
        name = expected.get("situation", "")
        entry = found.setdefault(name, Situation(name, 0, Decimal(0), expected.get("choice", "")))
        entry.count += 1
        entry.cost += Decimal(expected.get("cost") or 0)
    return sorted(found.values(), key=lambda s: (-s.count, -s.cost, s.situation))


def drill_results(*, drill: Drill) -> Results:
    return _results(drill.rounds.all(), DrillStep.objects.filter(drill_round__drill=drill))


def trainee_results(*, trainee, variant: str | None = None, kind: str | None = None) -> Results:
    rounds = DrillRound.objects.filter(drill__trainee=trainee)
    steps = DrillStep.objects.filter(drill_round__drill__trainee=trainee)
    if variant:
        rounds, steps = rounds.filter(drill__variant=variant), steps.filter(drill_round__drill__variant=variant)
    if kind:
        rounds, steps = rounds.filter(drill__kind=kind), steps.filter(drill_round__drill__kind=kind)
    return _results(rounds, steps)


def drill_chart(*, drill: Drill) -> dict:
    """Per round: accuracy (%) and seconds taken, for Chart.js."""
    labels, accuracy, seconds = [], [], []
    for r in drill.rounds.filter(answered_at__isnull=False).order_by("number"):
        labels.append(str(r.number))
        accuracy.append(float(scoring.rounded(r.accuracy) or 0))
        seconds.append(round((r.time_ms or 0) / 1000, 1))
    return {"labels": labels, "accuracy": accuracy, "seconds": seconds}


def trainee_chart(*, trainee) -> dict:
    """Per drill, oldest first: accuracy (%) and pace (rounds per hour), for Chart.js."""
    labels, accuracy, pace, kinds = [], [], [], []
    for d in Drill.objects.filter(trainee=trainee, decisions__gt=0).order_by("started_at", "pk"):
        labels.append(f"#{d.pk} {d.started_at:%d.%m}")
        accuracy.append(float(scoring.rounded(d.accuracy) or 0))
        p = scoring.pace(d.rounds_done, d.time_ms)
        pace.append(float(p) if p is not None else None)
        kinds.append(d.kind)
    return {"labels": labels, "accuracy": accuracy, "pace": pace, "kinds": kinds}


def round_steps(*, drill_round: DrillRound) -> list[DrillStep]:
    return list(drill_round.steps.order_by("index"))


# --- trainees overview ---------------------------------------------------------------------------------


@dataclass
class TraineeRow:
    trainee: object
    pits: list[str]
    drills: int
    last_active: object
    results: Results
    certificates: list[Certificate]


def trainees_overview(*, user) -> list[TraineeRow]:
    trainees = trainees_visible(user=user).prefetch_related("staff__pits")
    trainees = trainees.annotate(n_drills=Count("drills", distinct=True), last=Max("drills__started_at"))
    rows = []
    for t in trainees.order_by("username"):
        staff = getattr(t, "staff", None)
        pits = [p.name for p in staff.pits.all()] if staff is not None else []
        rows.append(
            TraineeRow(
                t,
                pits,
                t.n_drills,
                t.last,
                trainee_results(trainee=t),
                list(Certificate.objects.filter(trainee=t).select_related("standard")),
            )
        )
    return rows


# --- standards -----------------------------------------------------------------------------------------


def standards_in_force() -> QuerySet:
    return CertificationStandard.objects.filter(is_active=True).select_related("set_by")


def standards_history() -> QuerySet:
    return CertificationStandard.objects.select_related("set_by").order_by("-set_at", "-pk")


def standard_for(*, variant: str, preset: str, kind: str) -> CertificationStandard | None:
    return standards_in_force().filter(variant=variant, preset=preset or "", kind=kind).first()


def certificates_of(*, trainee) -> QuerySet:
    return Certificate.objects.filter(trainee=trainee).select_related("standard", "drill")


def standard_progress(*, trainee, standard: CertificationStandard) -> dict:
    """How far a trainee is from a standard: rounds counted, accuracy over them."""
    from .services import standard_met

    met, accuracy, rounds = standard_met(standard=standard, trainee=trainee)
    return {"met": met, "accuracy": scoring.rounded(accuracy), "rounds": rounds, "needed": standard.rounds_in_row}
