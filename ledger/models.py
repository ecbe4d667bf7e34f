"""A game night of veintiuno at a table: its players in seat order, the draw for the first bank,
each bank's announced limits and its rounds in order.

A round of the night is a `dealing.Round` (stored by `round_log`, hash-chained and audited like
any round); the ledger only says which night it belongs to and in which place. Balances, the bank
and who pays whom are never stored: they are read from the rounds (`selectors.session_ledger`).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from casino.models import MONEY, Table
from casino.roles import DEALER, PIT_BOSS
from casino.scope import RowScope, Who
from dealing.models import Round

from .choices import EndReason, SessionStatus

USER = settings.AUTH_USER_MODEL
NAME_LENGTH = 40


class GameSession(models.Model):
    """One game night (sesión) at a veintiuno table."""

    # The dealers and pit bosses of the table's pit read its nights (casino/scope.py).
    row_scope = RowScope(pit="table__pit", owner="dealer", view=Who(pits=(DEALER, PIT_BOSS), own=()))

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="game_sessions", verbose_name=_("table"))
    name = models.CharField(_("name"), max_length=80, blank=True, help_text=_("e.g. “Friday at Ana's”."))
    dealer = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("dealer"),
        help_text=_("The dealer in whose name the rounds are logged."),
    )
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("started at"), default=timezone.now)
    unit = models.DecimalField(_("betting unit"), help_text=_("Bets go in multiples of this (5, 2, …)."), **MONEY)
    buy_in = models.DecimalField(
        _("chips each"),
        null=True,
        blank=True,
        **MONEY,
        help_text=_("Chips each player starts with; the night ends when one holds them all."),
    )
    first_bank = models.CharField(_("first bank"), max_length=NAME_LENGTH, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=SessionStatus.choices, default=SessionStatus.DRAWING)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("ended by")
    )
    end_reason = models.CharField(_("how it ended"), max_length=20, choices=EndReason.choices, blank=True)
    end_note = models.TextField(_("note"), blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")
        constraints = [
            models.CheckConstraint(condition=Q(unit__gt=0), name="ledger_unit_positive"),
            models.CheckConstraint(condition=Q(buy_in__isnull=True) | Q(buy_in__gt=0), name="ledger_buy_in_positive"),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.table.name} · {self.created_at:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.status != SessionStatus.ENDED


class SessionPlayer(models.Model):
    """A player of the night at his place around the table (seat 1, 2, … in the order of the deal)."""

    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="players", verbose_name=_("game night")
    )
    seat = models.PositiveSmallIntegerField(_("place"))
    name = models.CharField(_("name"), max_length=NAME_LENGTH)

    class Meta:
        ordering = ["session", "seat"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["session", "seat"], name="ledger_player_place"),
            models.UniqueConstraint(fields=["session", "name"], name="ledger_player_name"),
        ]

    def __str__(self) -> str:
        return self.name


class BankDraw(models.Model):
    """One card of the draw for the first bank: pass 1 is everybody's, later passes break ties."""

    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="draws", verbose_name=_("game night")
    )
    pass_no = models.PositiveSmallIntegerField(_("pass"))
    player = models.CharField(_("player"), max_length=NAME_LENGTH)
    card = models.CharField(_("card"), max_length=3)

    class Meta:
        ordering = ["session", "pass_no", "id"]
        verbose_name = _("card of the draw")
        verbose_name_plural = _("draw for the first bank")
        constraints = [models.UniqueConstraint(fields=["session", "pass_no", "player"], name="ledger_draw_card")]

    def __str__(self) -> str:
        return f"{self.player}: {self.card}"


class LimitAnnouncement(models.Model):
    """The bank's minimum and maximum bet, announced to the table, in force from round `from_round`."""

    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("game night")
    )
    from_round = models.PositiveIntegerField(_("from round"))
    bank = models.CharField(_("bank"), max_length=NAME_LENGTH)
    min_bet = models.DecimalField(_("minimum bet"), **MONEY)
    max_bet = models.DecimalField(_("maximum bet"), **MONEY)
    announced_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("logged by"))
    announced_at = models.DateTimeField(_("announced at"), default=timezone.now)

    class Meta:
        ordering = ["session", "from_round"]
        verbose_name = _("limits announced")
        verbose_name_plural = _("limits announced")
        constraints = [
            models.UniqueConstraint(fields=["session", "from_round"], name="ledger_limits_per_round"),
            models.CheckConstraint(
                condition=Q(min_bet__gt=0) & Q(max_bet__gte=F("min_bet")), name="ledger_limits_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bank}: {self.min_bet}–{self.max_bet} (#{self.from_round})"


class SessionRound(models.Model):
    """The night's round number `number`: a stored round of the session's table."""

    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("game night")
    )
    number = models.PositiveIntegerField(_("round"))
    round = models.OneToOneField(
        Round, on_delete=models.PROTECT, related_name="ledger_entry", verbose_name=_("round record")
    )

    class Meta:
        ordering = ["session", "number"]
        verbose_name = _("round of the night")
        verbose_name_plural = _("rounds of the night")
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="ledger_round_number")]

    def __str__(self) -> str:
        return f"{self.session} #{self.number}"
