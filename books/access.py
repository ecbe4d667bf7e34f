"""Who may do what with a table's float, on top of `casino.roles` and dealing's pit checks.

- **Read** a shift (its counts, events, figures): dealers, inspectors and pit bosses of the
  table's pit; auditors (every pit). Trainees: nothing.
- **Count** (the opening and closing floats), **request** fills and credits, **receive** them,
  record **chips sold** and the **drop**: a dealer of the pit (a pit boss too, except the opening
  count, which is the dealer's).
- **Sign** the opening, **approve** fills and credits, **explain** a variance, **close**: a pit
  boss of the pit, never on what he did himself (four eyes: the services check it).

The services check all of this before writing (a refusal is a 403 `ServiceError`); the pages and
the API ask the same functions for what they offer.
"""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS
from casino.scope import restrict
from dealing.access import staff_of

from .models import TableShift

READ_ROLES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
COUNTERS = (DEALER,)  # the opening count
HANDLERS = (DEALER, PIT_BOSS)  # requests, receipts, sales, drops, the closing count
SIGNERS = (PIT_BOSS,)  # signatures, approvals, explanations, closing
WRITE_ROLES = (DEALER, PIT_BOSS)


def visible_shifts(user) -> QuerySet:
    return restrict(TableShift.objects, user)  # READ_ROLES, by TableShift.row_scope


def shift_for(user, pk) -> TableShift:
    """The shift `pk` if the user may read it; 404 otherwise (a shift elsewhere does not exist for him)."""
    return get_object_or_404(visible_shifts(user).select_related("table__pit", "dealer"), pk=pk)


def may_count_opening(user, table) -> bool:
    return staff_of(user, table, *COUNTERS)


def may_handle(user, table) -> bool:
    return staff_of(user, table, *HANDLERS)


def may_sign(user, table) -> bool:
    return staff_of(user, table, *SIGNERS)
