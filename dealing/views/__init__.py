"""Pages of dealing: tables, the dealer's round form, rounds, shoes, incidents and the pit queue.

Views stay thin: they check the role (casino.roles) and the pit, read through dealing.selectors,
write only through dealing.services, and render. Every page works without JavaScript; where htmx
is there it swaps only the part that changed.

Who may use which page (the navigation registers the same tuples, dealing/apps.py):
    tables, rounds, shoes, incidents     dealer, inspector, pit boss, auditor (their pits; auditors all)
    the round form                       dealer (as himself), pit boss (for his pits' dealers)
    shoe actions                         start: dealer, pit boss; burn and dealer change: also inspector
    incident report                      inspector, pit boss
    an incident's review and sign-off    pit boss, auditor; attachments: inspector, pit boss, auditor
    the pit queue and decisions          pit boss
    trainee                              none of these (403)

Each family of pages is a module of this package; urls.py and apps.py take them from here.
"""

from .common import DECIDERS, LOGGERS, READERS, REPORTERS, SHOE_LOADERS, SHOE_RECORDERS, audit_replay_url, table_for
from .incident_file import (
    incident_attach,
    incident_attachment,
    incident_detail,
    incident_review,
    incident_sign_off,
    incident_video,
)
from .incidents import incident_file, incident_list, incident_new, table_incidents
from .queue import amendment_decide, incident_decide, pit_queue
from .rounds import may_correct, round_correct, round_detail, round_new
from .shoes import shoe_page
from .tables import round_pick_table, table_list
from .terminal import table_terminal, terminal_next, terminal_override, terminal_save
from .terminal_drafts import terminal_draft_void, terminal_takeover

__all__ = [
    "DECIDERS",
    "LOGGERS",
    "READERS",
    "REPORTERS",
    "SHOE_LOADERS",
    "SHOE_RECORDERS",
    "amendment_decide",
    "audit_replay_url",
    "incident_attach",
    "incident_attachment",
    "incident_decide",
    "incident_detail",
    "incident_review",
    "incident_sign_off",
    "incident_video",
    "incident_file",
    "incident_list",
    "incident_new",
    "may_correct",
    "pit_queue",
    "round_correct",
    "round_detail",
    "round_new",
    "round_pick_table",
    "shoe_page",
    "table_for",
    "table_incidents",
    "table_list",
    "table_terminal",
    "terminal_next",
    "terminal_override",
    "terminal_save",
    "terminal_takeover",
    "terminal_draft_void",
]
