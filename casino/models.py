"""The floor: pits, their tables (variant, limits, house rules, chips) and the staff who work them."""

from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from simple_history import register
from simple_history.models import HistoricalRecords

from dealing.engine.errors import RoundError
from dealing.engine.money import fmt, parse_amount

from . import house_rules
from .choices import MAX_BOXES, Variant
from .scope import ANYONE, RowScope, Who
from .validators import NAME_MAX, FloorNameValidator

MONEY = {"max_digits": 14, "decimal_places": 2}


class Pit(models.Model):
    """A group of tables under one pit boss (старший по питу)."""

    name = models.CharField(_("name"), max_length=NAME_MAX, unique=True, validators=[FloorNameValidator()])
    description = models.TextField(_("description"), blank=True)
    # Every change, with who made it, before and after (casino/history.py; issue 35, item 5).
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("pit")
        verbose_name_plural = _("pits")

    def __str__(self) -> str:
        return self.name


class Table(models.Model):
    """A gaming table: its game, its Ante/bet limits, its boxes, chips and house rules."""

    # Everyone sees the tables of the pits he works in (auditors: every pit).
    row_scope = RowScope(pit="pit", view=Who(pits=ANYONE, own=()))

    name = models.CharField(_("name"), max_length=NAME_MAX, unique=True, validators=[FloorNameValidator()])
    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables", verbose_name=_("pit"))
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices)
    rules = models.JSONField(
        _("house rules"),
        default=dict,
        blank=True,
        help_text=_("Only the rules that differ from the variant's defaults (or preset), as a JSON object."),
    )
    min_bet = models.DecimalField(_("minimum Ante"), validators=[MinValueValidator(Decimal("0.01"))], **MONEY)
    max_bet = models.DecimalField(_("maximum Ante"), validators=[MinValueValidator(Decimal("0.01"))], **MONEY)
    boxes = models.PositiveSmallIntegerField(_("boxes"), validators=[MinValueValidator(1)])
    chips = models.JSONField(
        _("chips"),
        default=list,
        blank=True,
        help_text=_("Chip denominations, smallest first, e.g. [100, 500, 1000, 5000]."),
    )
    is_active = models.BooleanField(_("open"), default=True)
    # A round dealt before its table existed is refused (round/1: `played_at`). Empty for the tables
    # stored before this was asked: their beginning is not known, so nothing is refused by it.
    opened_at = models.DateTimeField(
        _("in play since"),
        null=True,
        blank=True,
        default=timezone.now,
        help_text=_("Rounds dealt before this time are refused; set it earlier to import the table's history."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["pit__name", "name"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.CheckConstraint(condition=Q(min_bet__gt=0), name="table_min_bet_positive"),
            models.CheckConstraint(condition=Q(max_bet__gte=F("min_bet")), name="table_max_bet_not_below_min"),
            models.CheckConstraint(condition=Q(boxes__gte=1), name="table_has_a_box"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def chip_amounts(self) -> list[Decimal]:
        return [Decimal(str(chip)) for chip in self.chips or []]

    def clean(self):
        errors: dict[str, list] = {}
        if self.min_bet is not None and self.max_bet is not None and self.max_bet < self.min_bet:
            errors.setdefault("max_bet", []).append(gettext("The maximum Ante must not be below the minimum Ante."))
        limit = MAX_BOXES.get(self.variant)
        if limit is not None and self.boxes is not None and self.boxes > limit:
            errors.setdefault("boxes", []).append(
                gettext("A %(variant)s table has at most %(limit)d boxes.")
                % {"variant": self.get_variant_display(), "limit": limit}
            )
        if self.variant in Variant.values:
            try:
                in_force = house_rules.validate(self.variant, self.rules)
            except ValidationError as exc:
                errors.setdefault("rules", []).extend(exc.error_list)
            else:
                # A preset may fix the number of boxes (blackjack online: one player position).
                seats = in_force.get("boxes")
                if type(seats) is int and self.boxes is not None and self.boxes > seats and "boxes" not in errors:
                    errors["boxes"] = [
                        ngettext(
                            "The house rules of this table allow %(seats)d box.",
                            "The house rules of this table allow at most %(seats)d boxes.",
                            seats,
                        )
                        % {"seats": seats}
                    ]
        try:
            self.chips = _clean_chips(self.chips)
        except ValidationError as exc:
            errors.setdefault("chips", []).extend(exc.error_list)
        if errors:
            raise ValidationError(errors)


def _clean_chips(chips) -> list[str]:
    """Chip denominations as canonical decimal strings, strictly increasing."""
    if chips in (None, ""):
        return []
    if not isinstance(chips, list):
        raise ValidationError(gettext("Chips must be a list of amounts, e.g. [100, 500, 1000]."), code="chips")
    amounts = []
    for chip in chips:
        try:
            amounts.append(parse_amount(chip, "chips"))
        except RoundError:
            raise ValidationError(
                gettext("%(chip)r is not a chip: a chip is a positive amount with at most 2 decimals.")
                % {"chip": chip},
                code="chips",
            ) from None
    if any(b <= a for a, b in zip(amounts, amounts[1:])):
        raise ValidationError(gettext("List the chips once each, smallest first."), code="chips")
    return [fmt(amount) for amount in amounts]


class Staff(models.Model):
    """A person on the floor: a user, the pits they work in, their badge. Roles are groups."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff", verbose_name=_("user")
    )
    pits = models.ManyToManyField(Pit, blank=True, related_name="staff_members", verbose_name=_("pits"))
    badge = models.CharField(
        _("badge"), max_length=16, blank=True, help_text=_("Short code on the staff member's badge.")
    )
    # The pits too: each membership added or removed is a change of its own.
    history = HistoricalRecords(m2m_fields=["pits"])

    class Meta:
        ordering = ["user__username"]
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")

    def __str__(self) -> str:
        return self.user.get_full_name() or self.user.get_username()


class SecurityEvent(models.Model):
    """One line of the security log: a login, a failure, a lockout, a token issued or revoked, a
    refusal, a change of staff. Appended to, never changed (casino/security.py writes it; admins and auditors read it)."""

    class Kind(models.TextChoices):
        LOGIN = "login", _("login")
        LOGOUT = "logout", _("logout")
        LOGIN_FAILED = "login_failed", _("login failed")
        LOCKOUT = "lockout", _("lockout")
        UNLOCK = "unlock", _("unlock")
        TOKEN_ISSUED = "token_issued", _("token issued")
        TOKEN_REVOKED = "token_revoked", _("token revoked")
        REFUSAL = "refusal", _("permission refused")
        SECOND_FACTOR = "otp", _("second factor passed")
        SECOND_FACTOR_FAILED = "otp_failed", _("second factor failed")
        SECOND_FACTOR_ENROLLED = "otp_enrolled", _("second factor enrolled")
        # The staff page's changes (casino/people): the admin who made them is the event's user,
        # the person changed is named in the detail.
        STAFF_CREATED = "staff_created", _("staff member created")
        STAFF_CHANGED = "staff_changed", _("staff member changed")
        STAFF_DEACTIVATED = "staff_deactivated", _("staff member deactivated")
        STAFF_REACTIVATED = "staff_reactivated", _("staff member reactivated")
        SECOND_FACTOR_RESET = "otp_reset", _("second factor reset")

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    # The name given (a failed login's may belong to no one), kept when the user is deleted.
    username = models.CharField(_("username"), max_length=150, blank=True, db_index=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, db_index=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    detail = models.CharField(_("detail"), max_length=500, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("security event")
        verbose_name_plural = _("security events")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.kind} {self.username}"


class DeviceToken(models.Model):
    """An API token for a machine (an electronic shoe, a table system), named and issued by an
    admin. The token itself is knox's (only its digest is stored); it acts as `token.user`, the
    account the machine logs rounds as. People's tokens have no DeviceToken."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    token = models.OneToOneField(
        settings.KNOX_TOKEN_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="device",
        verbose_name=_("token"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="device_tokens", verbose_name=_("acts as")
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("issued by"),
    )
    issued_at = models.DateTimeField(_("issued"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("device token")
        verbose_name_plural = _("device tokens")

    def __str__(self) -> str:
        return self.name

    @property
    def is_live(self) -> bool:
        return self.token_id is not None and self.revoked_at is None


# People: the account's names, whether it is active or a superuser, and its roles (groups), each
# change with who made it. The password's hash is no one's to read, and the time of the last login
# is a login, not a change (casino/apps.py saves it without a history row).
register(
    get_user_model(),
    app="casino",
    m2m_fields=["groups"],
    excluded_fields=["password", "last_login"],
)
