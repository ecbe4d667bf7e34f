"""Who may do what in dealing, in one place: the services check it before any write (a refusal is
a 403 `ServiceError`), and the pages and the API ask the same functions, so they cannot disagree.

    READERS, LOGGERS, …, DECIDERS          the roles at the door of each operation
    works_at, staff_of, dealer_of          the user works in the table's pit (with one of the roles)
    require, require_pit_boss              403 unless he does
    check_may_log_at, check_may_log_for    logging and correcting rounds
    table_for, may, may_correct            the pages: the table of a URL, a role, correcting a round

A dealer logs the rounds he deals at his pits' tables; a pit boss logs and corrects for his pits;
an inspector or pit boss reports incidents; only a pit boss of the table's pit decides, never on
what he reported, dealt or amended himself (four eyes: checked by the deciding services).
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from casino.models import Table
from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, has_role
from casino.scope import table_named, works_at  # works_at: the user works in the table's pit
from dealing.errors import refuse
from dealing.models import Round

# The roles at the door of each operation, for the pages, the API and the navigation alike
# (dealing/apps.py); the services then check the pit and the four-eyes rules.
READERS = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
LOGGERS = (DEALER, PIT_BOSS)  # rounds and their corrections
SHOE_LOADERS = (DEALER, PIT_BOSS)  # a shoe loaded or ended
SHOE_RECORDERS = (DEALER, INSPECTOR, PIT_BOSS)  # burns and dealer changes
REPORTERS = (INSPECTOR, PIT_BOSS)  # incidents
DECIDERS = (PIT_BOSS,)  # the pit boss's word on corrections and incidents
REVIEWERS = (PIT_BOSS, AUDITOR)  # an incident classified and signed off (surveillance's file)
ATTACHERS = (INSPECTOR, PIT_BOSS, AUDITOR)  # images, documents and video references added to it
TERMINAL_USERS = (DEALER, INSPECTOR, PIT_BOSS)  # the table terminal: following a round as it is dealt


def staff_of(user, table: Table, *roles: str) -> bool:
    return has_role(user, *roles) and works_at(user, table)


def require(user, table: Table, roles: tuple[str, ...], message: str) -> None:
    """403 unless the user holds one of `roles` in the table's pit. `message` may name the
    %(pit)s and the %(table)s; it is only filled in when the answer is no."""
    if not staff_of(user, table, *roles):
        raise refuse(message % {"pit": table.pit.name, "table": table.name}, "forbidden", status=403)


def dealer_of(table: Table, user) -> bool:
    return user is not None and user.is_active and staff_of(user, table, DEALER)


def require_pit_boss(user, table: Table) -> None:
    require(user, table, (PIT_BOSS,), _("Only a pit boss of pit %(pit)s decides on what happens at table %(table)s."))


def check_may_use_terminal(user, table: Table) -> None:
    """The table terminal is for the dealers, inspectors and pit bosses of the table's pit (storing
    the round it followed is then `check_may_log_at`'s: dealers and pit bosses)."""
    require(
        user,
        table,
        TERMINAL_USERS,
        _("The terminal of table %(table)s is for the dealers, inspectors and pit bosses of pit %(pit)s."),
    )


def check_may_log_at(user, table: Table) -> None:
    """Only the dealers and pit bosses of the table's pit log its rounds (before anything is read)."""
    require(
        user,
        table,
        (DEALER, PIT_BOSS),
        _("You may not log rounds at table %(table)s: only its pit's dealers and pit bosses do."),
    )


def check_may_log_for(user, table: Table, dealer, supersedes: Round | None) -> None:
    """A dealer logs (and corrects) only the rounds he deals himself; a pit boss those of his pits."""
    if user.is_superuser or staff_of(user, table, PIT_BOSS):
        return
    if dealer.pk == user.pk and (supersedes is None or supersedes.dealer_id == user.pk):
        return
    if supersedes is not None:
        message = _("You may only correct rounds you dealt yourself.")
    else:
        message = _("You may not log rounds of %(dealer)s at table %(table)s.") % {
            "dealer": dealer.get_username(),
            "table": table.name,
        }
    raise refuse(message, "forbidden", status=403)


# --- the pages ---------------------------------------------------------------------------------------


def table_for(user, name: str) -> Table:
    """The table named `name` when it stands in one of the user's pits: 404 if none, 403 if elsewhere."""
    table = table_named(user, name)
    if table is None:
        table = get_object_or_404(Table.objects, name=name)
        raise PermissionDenied(_("Table %(table)s is not in your pits.") % {"table": table.name})
    return table


def may(user, *roles) -> bool:
    """The user holds one of `roles` (in any pit): what a page offers him."""
    return has_role(user, *roles)


def may_correct(user, record: Round) -> bool:
    """Who may correct a stored round: the dealer who dealt it, a pit boss of its pit (superusers)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    if has_role(user, PIT_BOSS) and works_at(user, record.table):
        return True
    return has_role(user, DEALER) and record.dealer_id == user.pk
