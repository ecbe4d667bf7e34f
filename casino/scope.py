"""One way to scope rows: which rows of a model a user may view or change (in the spirit of NetBox's
`RestrictedQuerySet.restrict(user, action)`).

A model whose rows belong to a pit declares once, on the model, how a row reaches its pit and, where a
row is someone's own, whose it is; who sees what follows from the roles (`casino.roles`):

    class Round(models.Model):
        row_scope = RowScope(pit="table__pit", owner="dealer")

Every list, page, API, export and task that limits rows asks the one function:

    restrict(Round.objects.all(), user)             # the rows he may view
    restrict(Round.objects.all(), user, CHANGE)     # the rows he may decide on (a pit boss's)
    restrict(Rollup.objects.all(), user, FLOOR)     # every row of his pits, whatever his role
    scope_q(Round, user)                            # the same as a Q (a filter inside another query)
    table_named(user, "R-1")                        # the table of a URL or a request, if in his pits
    works_at(user, table)                           # one table: does he work in its pit?

An action's `Who` says which roles reach which rows:

- `everything`: roles that see every row (by default auditors); a superuser always sees every row;
- `pits`: roles that see every row of their pits (`user_pits`: his staff profile's pits), or ANYONE
  who works there, whatever his role;
- `own`: roles that see the rows they own (`owner` is the path from the row to that user).

A user with several roles sees the union; an anonymous or inactive user sees nothing. The roles at
the door of a page or an endpoint are still `role_required` / `HasRole`: this narrows the rows behind it.
"""

import functools
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q, QuerySet

from .roles import DEALER, INSPECTOR, PIT_BOSS, SEES_EVERY_PIT, check_known, has_role, user_pits

VIEW = "view"  # what a user may read
CHANGE = "change"  # what a pit boss decides on (corrections, incidents): his pits only
FLOOR = "floor"  # every row of the pits he works in, whatever his role (the caller checked the role)
ACTIONS = (VIEW, CHANGE, FLOOR)

ANYONE = None  # `Who.pits`: whoever works in the pit, whatever his role


@dataclass(frozen=True)
class Who:
    """Which roles reach which rows for one action."""

    everything: tuple[str, ...] = SEES_EVERY_PIT
    pits: tuple[str, ...] | None = (PIT_BOSS, INSPECTOR)
    own: tuple[str, ...] = (DEALER,)

    def __post_init__(self):
        check_known(self.everything + (self.pits or ()) + self.own)


@dataclass(frozen=True)
class RowScope:
    """How a model's rows reach their pit (`pit`: the path to Pit, or several paths, any of which
    admits the row) and their owner (`owner`: the path to the user whose row it is, or None), and who
    sees them for each action."""

    pit: str | tuple[str, ...]
    owner: str | None = None
    view: Who = field(default_factory=Who)
    change: Who = field(default_factory=lambda: Who(everything=(), pits=(PIT_BOSS,), own=()))
    # A path crosses a many-to-many relation: the rows are made distinct.
    distinct: bool = False

    @property
    def pit_paths(self) -> tuple[str, ...]:
        return (self.pit,) if isinstance(self.pit, str) else tuple(self.pit)

    def who(self, action: str) -> Who:
        if action == VIEW:
            return self.view
        if action == CHANGE:
            return self.change
        if action == FLOOR:
            return _FLOOR
        raise ValueError(f"unknown action {action!r} (one of {', '.join(ACTIONS)})")


_FLOOR = Who(everything=SEES_EVERY_PIT, pits=ANYONE, own=())  # user_pits: every pit for them anyway


def _active(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active)


def sees_every_pit(user) -> bool:
    """A superuser or an auditor: every pit's rows are his to read."""
    return _active(user) and (user.is_superuser or has_role(user, *SEES_EVERY_PIT))


def scope_of(model) -> RowScope:
    rule = getattr(model, "row_scope", None)
    if not isinstance(rule, RowScope):
        raise TypeError(f"{model.__name__} declares no row_scope: pass scope=RowScope(...)")
    return rule


def _where(rule: RowScope, user, action: str) -> Q | None:
    """The filter of the rows `user` may reach: Q() for every row, None for none."""
    who = rule.who(action)
    if not _active(user):
        return None
    if user.is_superuser or (who.everything and has_role(user, *who.everything)):
        return Q()
    parts = []
    if who.pits is ANYONE or has_role(user, *who.pits):
        pits = user_pits(user)
        parts += [Q(**{f"{path}__in": pits}) for path in rule.pit_paths]
    if rule.owner is not None and who.own and has_role(user, *who.own):
        parts.append(Q(**{rule.owner: user.pk}))
    if not parts:
        return None
    where = parts[0]
    for part in parts[1:]:
        where |= part
    return where


def scope_q(model, user, action: str = VIEW, *, scope: RowScope | None = None) -> Q:
    """`restrict` as a Q, for a filter inside another query (an aggregate, a subquery)."""
    where = _where(scope or scope_of(model), user, action)
    return Q(pk__in=[]) if where is None else where


def restrict(queryset: QuerySet, user, action: str = VIEW, *, scope: RowScope | None = None) -> QuerySet:
    """The rows of `queryset` that `user` may reach for `action`, by the model's `row_scope` (or
    `scope`, for a model that cannot declare one, such as the user model)."""
    queryset = queryset.all()  # a manager too
    rule = scope or scope_of(queryset.model)
    where = _where(rule, user, action)
    if where is None:
        return queryset.none()
    if not where:
        return queryset
    queryset = queryset.filter(where)
    return queryset.distinct() if rule.distinct else queryset


# Where `works_at` keeps the ids of the pits the user works in (API token authentication fills it in
# with the token: casino/authentication.py).
PITS_CACHE = "_dealing_pits"


def works_at(user, table) -> bool:
    """The user works in the pit of this table (superusers and auditors: every pit): the one question
    about a single table. The user's pits are read once and kept on the user object (which lives for
    one request)."""
    pits = user.__dict__.get(PITS_CACHE)
    if pits is None:
        pits = user.__dict__[PITS_CACHE] = frozenset(_pit_ids(user))
    return table.pit_id in pits


def _pit_ids(user) -> list[int]:
    """The ids of `user_pits(user)`. For a member of the staff (not a superuser nor an auditor, who
    see every pit) in SQL of its own: every terminal entry asks, and the ORM's building of the
    query cost several times the query's own CPU."""
    if (
        not getattr(user, "is_authenticated", False)
        or not user.is_active
        or user.is_superuser
        or has_role(user, *SEES_EVERY_PIT)
    ):
        return list(user_pits(user).values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(_staff_pits_sql(), [user.pk])
        return [pk for (pk,) in cursor.fetchall()]


@functools.cache
def _staff_pits_sql() -> str:
    from .models import Staff

    pits = Staff._meta.get_field("pits")
    q = connection.ops.quote_name
    return (
        f"SELECT sp.{q(pits.m2m_reverse_name())} "
        f"FROM {q(Staff._meta.db_table)} s JOIN {q(pits.remote_field.through._meta.db_table)} sp "
        f"ON sp.{q(pits.m2m_column_name())} = s.{q(Staff._meta.pk.column)} "
        f"WHERE s.{q(Staff._meta.get_field('user').column)} = %s"
    )


def table_named(user, ref, *, action: str = VIEW, by_pk: bool = False):
    """The table named `ref` (or, `by_pk`, whose id it is) when the user may use it (it stands in one
    of his pits); None otherwise. The caller says how a missing table is refused (404, 403, 400)."""
    from .models import Table

    tables = restrict(Table.objects.select_related("pit"), user, action)
    table = tables.filter(name=ref).first()
    if table is None and by_pk and str(ref).isascii() and str(ref).isdigit():
        table = tables.filter(pk=int(ref)).first()
    return table
