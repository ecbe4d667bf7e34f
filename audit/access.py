"""Who may see and do what in audit, on top of the one mechanism (casino/roles.py).

Pages and endpoints declare the roles they need with these tuples; what a permitted user then
sees is narrowed by the one row scope (`casino.scope.restrict`, the models' `row_scope`):

- auditors (and superusers) see every round, shoe and finding;
- pit bosses and inspectors those of the tables in their pits;
- dealers those of the rounds they dealt themselves;
- trainees nothing (they hold none of these roles).

Only auditors start runs and review findings (the services check it again).
"""

from casino.roles import AUDITOR, DEALER, INSPECTOR, PIT_BOSS, has_role

DASHBOARD_ROLES = (AUDITOR, PIT_BOSS)
FINDING_ROLES = (DEALER, INSPECTOR, PIT_BOSS, AUDITOR)
ROUND_ROLES = FINDING_ROLES
SHOE_ROLES = (INSPECTOR, PIT_BOSS, AUDITOR)
RATE_ROLES = (AUDITOR, PIT_BOSS)
REVIEW_ROLES = (AUDITOR,)
RUN_ROLES = (AUDITOR,)


def may_review(user) -> bool:
    return has_role(user, *REVIEW_ROLES)


def may_run(user) -> bool:
    return has_role(user, *RUN_ROLES)
