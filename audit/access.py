"""Who may see and do what in audit, on top of the one mechanism (casino/roles.py).

Pages and endpoints declare the roles they need with these tuples; what a permitted user then
sees is narrowed by `scope`:

- auditors (and superusers) see every round, shoe and finding;
- pit bosses and inspectors those of the tables in their pits;
- dealers those of the rounds they dealt themselves;
- trainees nothing (they hold none of these roles).

Only auditors start runs and review findings (the services check it again).
"""

from django.db.models import Q

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, has_role, user_pits

DASHBOARD_ROLES = (AUDITOR, PIT_BOSS)
FINDING_ROLES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
ROUND_ROLES = FINDING_ROLES
SHOE_ROLES = (INSPECTOR, PIT_BOSS, AUDITOR)
RATE_ROLES = (AUDITOR, PIT_BOSS)
REVIEW_ROLES = (AUDITOR,)
RUN_ROLES = (AUDITOR,)

NOTHING = Q(pk__in=[])


def sees_everything(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.is_active
                and (user.is_superuser or has_role(user, AUDITOR)))


def scope(user, *, pit: str = "table__pit", dealer: str | None = "dealer") -> Q:
    """A filter for what `user` may see among findings, rounds or shoes.

    `pit` is the path to the pit from the queried model, `dealer` the path to the dealer (None
    where dealers see nothing, as for shoes).
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return NOTHING
    if sees_everything(user):
        return Q()
    visible = NOTHING
    if has_role(user, PIT_BOSS, INSPECTOR):
        visible |= Q(**{f"{pit}__in": user_pits(user)})
    if dealer is not None and has_role(user, DEALER):
        visible |= Q(**{dealer: user})
    return visible


def may_review(user) -> bool:
    return has_role(user, *REVIEW_ROLES)


def may_run(user) -> bool:
    return has_role(user, *RUN_ROLES)
