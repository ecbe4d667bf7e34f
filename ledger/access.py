"""Who may do what with game nights, on top of the one permission mechanism (`casino.roles`).

- **Read** a night (its ledger, rounds, balances, who pays whom): dealers and pit bosses of the
  table's pit, auditors (every pit). Inspectors and trainees have no business here.
- **Run** a night (start it, record the draw, log rounds, end it): a pit boss of the table's pit,
  or the night's own dealer (the rounds are logged in his name, as `round_log` requires).

Pages and endpoints check the role first (`role_required(*READ_ROLES)` / `HasRole(*READ_ROLES)`),
then the night: one outside the user's pits does not exist for him (404); one he may read but
not run answers 403 to a write.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from casino.roles import AUDITOR, DEALER, PIT_BOSS, has_role
from casino.scope import restrict, works_at

from .models import GameSession

READ_ROLES = (DEALER, PIT_BOSS, AUDITOR)
RUN_ROLES = (DEALER, PIT_BOSS)


def visible_sessions(user) -> QuerySet:
    """The nights a user may read."""
    return restrict(GameSession.objects, user)  # READ_ROLES, by GameSession.row_scope


def may_start_at(user, table) -> bool:
    """A dealer or pit boss of the table's pit may start a night there."""
    return has_role(user, *RUN_ROLES) and works_at(user, table)


def may_run(user, session: GameSession) -> bool:
    """A pit boss of the pit, or the night's own dealer (in the pit)."""
    if user.is_superuser:
        return True
    if not works_at(user, session.table):
        return False
    if has_role(user, PIT_BOSS):
        return True
    return has_role(user, DEALER) and session.dealer_id == user.pk


def session_for(user, pk, *, run: bool = False) -> GameSession:
    """The night `pk` as this user may see it: 404 when he may not read it, 403 (PermissionDenied)
    when `run` is asked and he may only read it."""
    session = get_object_or_404(visible_sessions(user).select_related("table__pit", "dealer"), pk=pk)
    if run and not may_run(user, session):
        raise PermissionDenied(_("Only a pit boss of this pit or the night's own dealer may do that."))
    return session
