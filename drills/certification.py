"""Certification: a pit boss sets the standard a trainee must meet per game and kind of drill, and
a trainee who meets it is issued a certificate when a drill ends (drills/services.py's finish)."""

from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import PIT_BOSS, has_role

from . import setups
from .choices import Kind
from .models import Certificate, CertificationStandard, Drill, DrillRound


def refuse(message: str, status: int = 400, **extra):
    raise ServiceError(message, extra=extra, status=status)


@transaction.atomic
def standard_set(
    *,
    user,
    variant: str,
    kind: str,
    rounds_in_row: int,
    min_accuracy,
    preset: str = "",
    time_limit_s: int | None = None,
) -> CertificationStandard:
    """A pit boss sets the certification standard of a game: it replaces the one in force."""
    if not has_role(user, PIT_BOSS):
        refuse(_("Only a pit boss sets certification standards."), status=403)
    if variant not in setups.features():
        refuse(_("Choose a game: ochko, blackjack or veintiuno."), field="variant")
    presets = setups.presets().get(variant, ())
    preset = preset or ""
    if (presets and preset not in presets) or (not presets and preset):
        refuse(_("Blackjack needs its preset (salon or online); the other games have none."), field="preset")
    if kind not in Kind.values:
        refuse(_("Choose a payout drill, a procedure drill or the strategy trainer."), field="kind")
    if type(rounds_in_row) is not int or not 1 <= rounds_in_row <= 1000:
        refuse(_("Rounds in a row: a whole number from 1 to 1000."), field="rounds_in_row")
    try:
        accuracy = Decimal(str(min_accuracy))
    except ArithmeticError:
        accuracy = None
    if (
        accuracy is None
        or not accuracy.is_finite()
        or not 0 <= accuracy <= 100
        or accuracy != accuracy.quantize(Decimal("0.01"))
    ):
        refuse(_("The minimum accuracy is a percentage from 0 to 100, with at most 2 decimals."), field="min_accuracy")
    if time_limit_s is not None and (type(time_limit_s) is not int or time_limit_s < 1):
        refuse(_("The time limit is a whole number of seconds, at least 1 (or none)."), field="time_limit_s")
    CertificationStandard.objects.select_for_update().filter(
        variant=variant, preset=preset, kind=kind, is_active=True
    ).update(is_active=False)
    return CertificationStandard.objects.create(
        variant=variant,
        preset=preset,
        kind=kind,
        rounds_in_row=rounds_in_row,
        min_accuracy=accuracy,
        time_limit_s=time_limit_s,
        set_by=user,
    )


def standard_met(*, standard: CertificationStandard, trainee) -> tuple[bool, Decimal | None, int]:
    """Whether a trainee's latest rounds meet a standard: (met, accuracy over them, rounds counted)."""
    recent = list(
        DrillRound.objects.filter(
            drill__trainee=trainee,
            drill__variant=standard.variant,
            drill__preset=standard.preset,
            drill__kind=standard.kind,
            answered_at__isnull=False,
        )
        .order_by("-answered_at", "-pk")
        .values("decisions", "correct", "time_ms")[: standard.rounds_in_row]
    )
    decisions = sum(r["decisions"] for r in recent)
    correct = sum(r["correct"] for r in recent)
    accuracy = (Decimal(correct) * 100 / Decimal(decisions)) if decisions else None
    if len(recent) < standard.rounds_in_row or accuracy is None:
        return False, accuracy, len(recent)
    if standard.time_limit_s is not None and any((r["time_ms"] or 0) > standard.time_limit_s * 1000 for r in recent):
        return False, accuracy, len(recent)
    return accuracy >= standard.min_accuracy, accuracy, len(recent)


def certificates_check(*, trainee, drill: Drill) -> list[Certificate]:
    """Issue the certificate of the standard in force for the drill's game, when it is met now."""
    issued = []
    standards = CertificationStandard.objects.filter(
        variant=drill.variant, preset=drill.preset, kind=drill.kind, is_active=True
    ).exclude(certificates__trainee=trainee)
    for standard in standards:
        met, accuracy, rounds = standard_met(standard=standard, trainee=trainee)
        if met:
            issued.append(
                Certificate.objects.create(
                    trainee=trainee,
                    standard=standard,
                    drill=drill,
                    rounds=rounds,
                    accuracy=accuracy.quantize(Decimal("0.01")),
                )
            )
    return issued
