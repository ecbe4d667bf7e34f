"""Drills: a trainee in the dealer's seat on rounds the engine deals, every answer graded.

Nothing here touches the casino's rounds, findings or chain: a drill keeps its own simulated
rounds (`DrillRound.doc`) and the trainee's answers (`DrillStep`).
"""

from decimal import Decimal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.choices import Variant

from . import scoring
from .choices import Kind, Preset, Status, StepKind

MONEY = {"max_digits": 14, "decimal_places": 2}


class Drill(models.Model):
    """One drill session: its game, kind, difficulty and seed, and the totals of its answers."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drills", verbose_name=_("trainee")
    )
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    preset = models.CharField(_("preset"), max_length=10, choices=Preset.choices, blank=True, default="")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    seed = models.PositiveBigIntegerField(_("seed"), help_text=_("The same seed deals the same rounds."))
    options = models.JSONField(_("difficulty"), default=dict, blank=True, encoder=DjangoJSONEncoder)
    table_key = models.CharField(_("practice table"), max_length=20)
    table_name = models.CharField(_("table name"), max_length=40)
    table_min = models.DecimalField(_("table minimum"), **MONEY)
    table_max = models.DecimalField(_("table maximum"), **MONEY)
    chips = models.JSONField(_("chips"), default=list, encoder=DjangoJSONEncoder)
    rounds_planned = models.PositiveSmallIntegerField(
        _("rounds"), validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Totals of the graded rounds, kept with each answer.
    rounds_done = models.PositiveSmallIntegerField(_("rounds done"), default=0)
    decisions = models.PositiveIntegerField(_("decisions"), default=0)
    correct = models.PositiveIntegerField(_("correct decisions"), default=0)
    time_ms = models.PositiveBigIntegerField(_("time on rounds (ms)"), default=0)

    class Meta:
        ordering = ["-started_at", "-pk"]
        verbose_name = _("drill")
        verbose_name_plural = _("drills")
        indexes = [models.Index(fields=["trainee", "variant", "kind"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(table_max__gte=models.F("table_min")), name="drill_table_max_not_below_min"
            ),
            models.CheckConstraint(
                condition=Q(correct__lte=models.F("decisions")), name="drill_correct_not_above_decisions"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.game_label} · #{self.pk}"

    @property
    def game_label(self) -> str:
        label = self.get_variant_display()
        return f"{label} {self.preset}" if self.preset else label

    @property
    def accuracy(self) -> Decimal | None:
        return scoring.accuracy(self.correct, self.decisions)

    @property
    def band(self):
        return scoring.band(self.accuracy)

    @property
    def is_active(self) -> bool:
        return self.status == Status.ACTIVE


class DrillRound(models.Model):
    """One simulated round of a drill: the correct log, the script or answer sheet, the grade."""

    drill = models.ForeignKey(Drill, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("drill"))
    number = models.PositiveSmallIntegerField(_("number"))
    doc = models.JSONField(
        _("simulated round"),
        encoder=DjangoJSONEncoder,
        help_text=_("The round/1 log the simulator dealt, with the correct settlement."),
    )
    script = models.JSONField(
        _("script"),
        default=dict,
        encoder=DjangoJSONEncoder,
        help_text=_("Payout: the answer sheet. Procedure: the steps and their choices."),
    )
    graded = models.JSONField(
        _("graded log"),
        null=True,
        blank=True,
        encoder=DjangoJSONEncoder,
        help_text=_("Payout: the log with the trainee's settlement, as the engine audited it."),
    )
    step = models.PositiveSmallIntegerField(_("current step"), default=0)
    presented_at = models.DateTimeField(_("shown"), null=True, blank=True)
    step_started_at = models.DateTimeField(_("step shown"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    time_ms = models.PositiveIntegerField(_("time (ms)"), null=True, blank=True)
    decisions = models.PositiveSmallIntegerField(_("decisions"), default=0)
    correct = models.PositiveSmallIntegerField(_("correct decisions"), default=0)

    class Meta:
        ordering = ["drill", "number"]
        verbose_name = _("drill round")
        verbose_name_plural = _("drill rounds")
        constraints = [models.UniqueConstraint(fields=["drill", "number"], name="drill_round_number_unique")]

    def __str__(self) -> str:
        return f"{self.drill_id}/{self.number}"

    @property
    def done(self) -> bool:
        return self.answered_at is not None

    @property
    def accuracy(self) -> Decimal | None:
        return scoring.accuracy(self.correct, self.decisions)


class DrillStep(models.Model):
    """One graded decision: a wager settled (payout) or a move chosen (procedure)."""

    drill_round = models.ForeignKey(DrillRound, on_delete=models.CASCADE, related_name="steps", verbose_name=_("round"))
    index = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=10, choices=StepKind.choices)
    stake = models.CharField(_("stake"), max_length=20, blank=True)
    hand = models.CharField(_("hand"), max_length=20, blank=True)
    wager = models.CharField(_("wager"), max_length=20, blank=True)
    given = models.JSONField(_("what the trainee did"), default=dict, encoder=DjangoJSONEncoder)
    expected = models.JSONField(_("what was right"), default=dict, encoder=DjangoJSONEncoder)
    correct = models.BooleanField(_("correct"))
    codes = models.JSONField(_("finding codes"), default=list)
    messages = models.JSONField(_("findings"), default=list)
    # The params of each message (the engine's finding it says; {} for one that is not the engine's, and
    # none kept before findings had params): the page says it in the reader's language from them.
    params = models.JSONField(_("params"), default=list, blank=True)
    time_ms = models.PositiveIntegerField(_("time (ms)"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered"), default=timezone.now)

    class Meta:
        ordering = ["drill_round", "index"]
        verbose_name = _("drill step")
        verbose_name_plural = _("drill steps")
        constraints = [models.UniqueConstraint(fields=["drill_round", "index"], name="drill_step_index_unique")]

    def __str__(self) -> str:
        return f"{self.drill_round}#{self.index}"


class CertificationStandard(models.Model):
    """What a trainee must reach to be certified on a game, set by a pit boss.

    A trainee meets it with `rounds_in_row` consecutive rounds of the game and kind (the latest
    ones), each within `time_limit_s` when one is set, at `min_accuracy` or better over them.
    One standard is active per game, preset and kind; setting a new one retires the old.
    """

    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    preset = models.CharField(_("preset"), max_length=10, choices=Preset.choices, blank=True, default="")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.PAYOUT)
    rounds_in_row = models.PositiveSmallIntegerField(
        _("rounds in a row"), validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    min_accuracy = models.DecimalField(
        _("minimum accuracy (%)"),
        max_digits=5,
        decimal_places=2,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
    )
    time_limit_s = models.PositiveIntegerField(
        _("time limit per round (s)"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    is_active = models.BooleanField(_("in force"), default=True)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("set by")
    )
    set_at = models.DateTimeField(_("set at"), default=timezone.now)

    class Meta:
        ordering = ["variant", "preset", "kind", "-set_at"]
        verbose_name = _("certification standard")
        verbose_name_plural = _("certification standards")
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "preset", "kind"], condition=Q(is_active=True), name="one_active_standard_per_game"
            ),
            models.CheckConstraint(
                condition=Q(min_accuracy__gte=0) & Q(min_accuracy__lte=100), name="standard_accuracy_is_a_percentage"
            ),
        ]

    def __str__(self) -> str:
        label = self.get_variant_display() + (f" {self.preset}" if self.preset else "")
        return f"{label} · {self.get_kind_display()}: {self.rounds_in_row} @ {self.min_accuracy}%"


class Certificate(models.Model):
    """A trainee met a certification standard: when, and with which drill."""

    trainee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="certificates", verbose_name=_("trainee")
    )
    standard = models.ForeignKey(
        CertificationStandard, on_delete=models.PROTECT, related_name="certificates", verbose_name=_("standard")
    )
    drill = models.ForeignKey(
        Drill,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="certificates",
        verbose_name=_("drill that earned it"),
    )
    issued_at = models.DateTimeField(_("issued"), default=timezone.now)
    accuracy = models.DecimalField(_("accuracy (%)"), max_digits=5, decimal_places=2)
    rounds = models.PositiveSmallIntegerField(_("rounds"))

    class Meta:
        ordering = ["-issued_at"]
        verbose_name = _("certificate")
        verbose_name_plural = _("certificates")
        constraints = [models.UniqueConstraint(fields=["trainee", "standard"], name="one_certificate_per_standard")]

    def __str__(self) -> str:
        return f"{self.trainee} · {self.standard}"
