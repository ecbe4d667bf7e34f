"""Who may watch the live pit: pit bosses (their pits) and auditors (every pit); superusers always."""

from casino.roles import AUDITOR, PIT_BOSS

FLOOR_ROLES = (PIT_BOSS, AUDITOR)
STREAM_ROLES = FLOOR_ROLES
