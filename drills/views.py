"""Pages of the drills. Thin: roles are checked by `role_required`, who may read which drill by
the selectors, every write is a service (the same ones the API calls)."""

import json
from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.errors import ServiceError
from casino.roles import AUDITOR, PIT_BOSS, TRAINEE, has_role, role_required
from dealing.games.drills import game_of

from . import presenters, selectors, services, setups, strategy
from .choices import CODE_LABELS, Kind, StepKind
from .forms import DrillStartForm, StandardForm, feature_fields, game_choices, tables_by_game
from .table import wager_label

READERS = (TRAINEE, PIT_BOSS, AUDITOR)


def _is_owner(request, drill) -> bool:
    return drill.trainee_id == request.user.pk


@require_GET
@role_required(TRAINEE)
def home(request):
    """A trainee's start page: start a drill, resume one, recent results, certificates."""
    return _home(request, DrillStartForm())


def _home(request, form, status=200):
    trainee = request.user
    games = {game: label for game, label in game_choices()}
    standards = [
        {
            "standard": s,
            "game": games.get(game_of(s.variant, s.preset), s.variant),
            "progress": selectors.standard_progress(trainee=trainee, standard=s),
        }
        for s in selectors.standards_in_force()
    ]
    context = {
        "form": form,
        "active": selectors.active_drills(trainee=trainee),
        "recent": selectors.drill_list(user=trainee, trainee=trainee)[:8],
        "results": selectors.trainee_results(trainee=trainee),
        "certificates": selectors.certificates_of(trainee=trainee),
        "standards": standards,
        "feature_groups": [(variant, form.features_of(variant)) for variant in setups.features()],
        "incident_games": " ".join(setups.incident_games()),
        "house_rule_groups": [
            (variant, [form[name] for name in names]) for variant, names in strategy.house_rule_groups()
        ],
        "tables_by_game": json.dumps(tables_by_game()),
        "feature_names": json.dumps({name: variant for name, variant, _label in feature_fields()}),
    }
    return render(request, "drills/home.html", context, status=status)


@require_POST
@role_required(TRAINEE)
def start(request):
    form = DrillStartForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    try:
        drill = services.drill_start(trainee=request.user, **form.start_kwargs())
    except ServiceError as exc:
        form.add_error(exc.extra.get("field") if exc.extra.get("field") in form.fields else None, exc.message)
        return _home(request, form, status=400)
    return redirect("drills:play", pk=drill.pk)


@require_GET
@role_required(TRAINEE)
def play(request, pk):
    """The round (or step) in play: the payout table with the settlement entry, or the procedure step."""
    drill = selectors.drill_get(user=request.user, pk=pk)
    if not _is_owner(request, drill):
        return redirect("drills:results", pk=drill.pk)
    current = services.drill_next(drill=drill, user=request.user)
    drill.refresh_from_db()
    if current is None:
        return redirect("drills:results", pk=drill.pk)
    results = selectors.drill_results(drill=drill)
    context = {"drill": drill, "round": current, "results": results, "chips": [Decimal(c) for c in drill.chips]}
    if drill.kind == Kind.STRATEGY:
        # The last decision's grade stays in view above the next one, even across rounds: the
        # trainer is played hand after hand from the keyboard.
        last = _last_step(drill)
        context.update(
            hand=presenters.strategy_view(current),
            feedback=presenters.strategy_feedback(last),
            last_round=last.drill_round if last is not None else None,
        )
        return render(request, "drills/strategy.html", context)
    if drill.kind == Kind.PAYOUT:
        context["table"] = presenters.table_view(current)
        context["sheet"] = _sheet_rows(current)
        return render(request, "drills/payout.html", context)
    step = presenters.current_step(current)
    context["table"] = presenters.table_view(current, upto=presenters.step_upto(current, step))
    context["step"] = step
    context["steps_total"] = len(current.script["steps"])
    last = _last_step(drill)
    if last is not None and last.drill_round_id != current.pk:
        last = None  # the previous round's last move was shown with that round's review
    context["last"] = last
    context["last_then"] = _then(last)
    return render(request, "drills/procedure.html", context)


def _then(step) -> str:
    """What happened after the right move of a step (the pit boss's decision, say)."""
    if step is None:
        return ""
    steps = step.drill_round.script.get("steps") or []
    return steps[step.index].get("then", "") if step.index < len(steps) else ""


def _sheet_rows(drill_round) -> list[dict]:
    return [
        {**line, "index": k, "label": wager_label(line["wager"])} for k, line in enumerate(drill_round.script["sheet"])
    ]


def _last_step(drill):
    """The move answered last in this drill, for the feedback above the next step."""
    from .models import DrillStep

    return (
        DrillStep.objects.filter(drill_round__drill=drill)
        .select_related("drill_round")
        .order_by("-answered_at", "-pk")
        .first()
    )


def _payout_answers(post, sheet: list[dict]) -> list[dict]:
    """The rows the trainee settled, in the order settled (the `order` field; row order for ties)."""
    settled = []
    for k, line in enumerate(sheet):
        result = post.get(f"r{k}_result", "")
        if not result:
            continue
        order = post.get(f"r{k}_order", "")
        try:
            rank = int(order)
        except ValueError:
            rank = 10_000 + k
        amount = post.get(f"r{k}_amount", "").strip().replace(",", "") or None
        if result != "pay" and amount is not None and amount == line["size"]:
            amount = None  # taking or leaving the wager itself: the amount says nothing more
        settled.append(
            (
                rank,
                k,
                {
                    "stake": line["stake"],
                    "hand": line["hand"],
                    "wager": line["wager"],
                    "result": result,
                    "amount": amount,
                },
            )
        )
    return [answer for _rank, _k, answer in sorted(settled, key=lambda item: (item[0], item[1]))]


@require_POST
@role_required(TRAINEE)
def answer(request, pk):
    drill = selectors.drill_get(user=request.user, pk=pk)
    try:
        if drill.kind == Kind.PAYOUT:
            current = services.drill_next(drill=drill, user=request.user)
            if current is None:
                return redirect("drills:results", pk=drill.pk)
            answers = _payout_answers(request.POST, current.script["sheet"])
            done = services.payout_answer(
                drill=drill, user=request.user, answers=answers, round_number=_int(request.POST.get("round"))
            )
            return redirect("drills:round", pk=drill.pk, number=done.number)
        if drill.kind == Kind.STRATEGY:
            made = services.strategy_answer(
                drill=drill,
                user=request.user,
                choice=request.POST.get("choice", ""),
                step=_int(request.POST.get("step")),
                round_number=_int(request.POST.get("round")),
            )
            drill.refresh_from_db()
            if not drill.is_active:  # the last hand: its review shows every decision's values
                return redirect("drills:round", pk=drill.pk, number=made.drill_round.number)
            return redirect("drills:play", pk=drill.pk)
        made = services.procedure_answer(
            drill=drill,
            user=request.user,
            choice=request.POST.get("choice", ""),
            step=_int(request.POST.get("step")),
            round_number=_int(request.POST.get("round")),
        )
        if made.drill_round.done:
            return redirect("drills:round", pk=drill.pk, number=made.drill_round.number)
    except ServiceError as exc:
        if exc.status == 403:
            raise PermissionDenied(exc.message) from exc
        messages.error(request, exc.message)
    return redirect("drills:play", pk=drill.pk)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_POST
@role_required(TRAINEE)
def finish(request, pk):
    drill = selectors.drill_get(user=request.user, pk=pk)
    try:
        services.drill_finish(drill=drill, user=request.user)
    except ServiceError as exc:
        raise PermissionDenied(exc.message) from exc
    return redirect("drills:results", pk=drill.pk)


@require_GET
@role_required(*READERS)
def results(request, pk):
    drill = selectors.drill_get(user=request.user, pk=pk)
    context = {
        "drill": drill,
        "results": selectors.drill_results(drill=drill),
        "rounds": drill.rounds.filter(answered_at__isnull=False).order_by("number"),
        "chart": selectors.drill_chart(drill=drill),
        "owner": _is_owner(request, drill),
        "certificates": drill.certificates.select_related("standard"),
    }
    return render(request, "drills/results.html", context)


@require_GET
@role_required(*READERS)
def round_review(request, pk, number):
    """A graded round: the payout table with each answer and the engine's findings, or the
    procedure steps with the moves chosen."""
    drill = selectors.drill_get(user=request.user, pk=pk)
    drill_round = drill.rounds.filter(number=number).first()
    if drill_round is None or not drill_round.done:
        raise Http404  # a round in play is not reviewed: its script holds the right moves
    steps = selectors.round_steps(drill_round=drill_round)
    context = {
        "drill": drill,
        "round": drill_round,
        "steps": steps,
        "owner": _is_owner(request, drill),
        "chips": [Decimal(c) for c in drill.chips],
        "results": selectors.drill_results(drill=drill),
        "code_labels": CODE_LABELS,
        "missing_kind": StepKind.MISSING,
    }
    if drill.kind == Kind.STRATEGY:
        context["decisions"] = [presenters.strategy_feedback(step) for step in steps]
        context["hand"] = presenters.strategy_view(drill_round)
        return render(request, "drills/strategy_round.html", context)
    if drill.kind == Kind.PAYOUT:
        context["graded"] = drill_round.graded
        context["owed"] = drill_round.graded["owed"]
        context["before"] = _accuracy_before(drill, drill_round)
    else:
        context["table"] = presenters.table_view(drill_round)
        script_steps = drill_round.script["steps"]
        context["script_steps"] = [
            {"step": s, "answer": next((a for a in steps if a.index == k), None)} for k, s in enumerate(script_steps)
        ]
    return render(request, "drills/round.html", context)


def _accuracy_before(drill, drill_round):
    """The drill's accuracy before this round, to show how the round moved it."""
    from . import scoring

    earlier = drill.rounds.filter(answered_at__isnull=False, number__lt=drill_round.number)
    decisions = sum(r.decisions for r in earlier)
    correct = sum(r.correct for r in earlier)
    return scoring.rounded(scoring.accuracy(correct, decisions))


@require_GET
@role_required(TRAINEE)
def my_progress(request):
    return redirect("drills:progress", pk=request.user.pk)


@require_GET
@role_required(*READERS)
def progress(request, pk):
    """A trainee's history: accuracy and pace over the drills, mistakes by code, certificates."""
    trainee = selectors.trainee_get(user=request.user, pk=pk)
    per_game = []
    for game, label in game_choices():
        variant, preset = game.split(":")[0], (game.split(":") + [""])[1]
        for kind, kind_label in Kind.choices:
            res = selectors.trainee_results(trainee=trainee, variant=variant, kind=kind)
            drills = selectors.drill_list(user=request.user, trainee=trainee).filter(
                variant=variant, preset=preset, kind=kind
            )
            if drills.exists():
                standard = selectors.standard_for(variant=variant, preset=preset, kind=kind)
                per_game.append(
                    {
                        "label": label,
                        "kind": kind_label,
                        "results": res,
                        "standard": standard,
                        "progress": selectors.standard_progress(trainee=trainee, standard=standard)
                        if standard
                        else None,
                    }
                )
    context = {
        "trainee": trainee,
        "self_view": trainee.pk == request.user.pk,
        "results": selectors.trainee_results(trainee=trainee),
        "chart": selectors.trainee_chart(trainee=trainee),
        "drills": selectors.drill_list(user=request.user, trainee=trainee)[:50],
        "certificates": selectors.certificates_of(trainee=trainee),
        "per_game": per_game,
    }
    return render(request, "drills/progress.html", context)


@require_GET
@role_required(PIT_BOSS, AUDITOR)
def trainees(request):
    return render(request, "drills/trainees.html", {"rows": selectors.trainees_overview(user=request.user)})


@require_http_methods(["GET", "POST"])
@role_required(PIT_BOSS, AUDITOR, methods={"POST": (PIT_BOSS,)})  # auditors read, pit bosses set
def standards(request):
    """The certification standards in force and their history; a pit boss sets a new one."""
    can_set = has_role(request.user, PIT_BOSS)
    form = StandardForm(request.POST or None) if can_set else None
    status = 200
    if request.method == "POST":
        if not can_set:
            raise PermissionDenied(_("Only a pit boss sets certification standards."))
        if form.is_valid():
            try:
                standard = services.standard_set(user=request.user, **form.set_kwargs())
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Standard set: %(standard)s.") % {"standard": standard})
                return redirect(reverse("drills:standards"))
        status = 400
    games = {game: label for game, label in game_choices()}
    rows = [
        {"standard": s, "game": games.get(game_of(s.variant, s.preset), s.variant)}
        for s in selectors.standards_history()[:100]
    ]
    return render(request, "drills/standards.html", {"form": form, "rows": rows, "can_set": can_set}, status=status)
