"""Every write of dealing: plain functions, keyword-only arguments, validated by the engine first.

A refused write raises `ServiceError` (dealing.errors: a sentence for the user; `extra` with a
stable `code` and, for a round, the JSON `path` and `event` index) and stores nothing: each
service reads and checks everything first and writes in one transaction. Who may do what is
checked by dealing.access, which the pages and the API ask too, so they cannot disagree.

    shoes          shoe_start, shoe_end, shoe_burn, shoe_dealer_change    the shoe, between rounds
    documents      read_document, complete_document                       a round document read, filled in
    rounds         round_log                                              a round checked and chained
    bulk           rounds_import                                          many rounds checked, written in batches (COPY)
    chain_link     Link, approval_append                                  the SQL that appends it; an approval's link
    checkpoints    checkpoint_write_all, chain_verify                     signed checkpoints; the chains verified
    corrections    round_amend, round_amendment_decide                    corrections, the pit boss's word
    incidents      incident_report, incident_decide                       incidents, the pit boss's word
    incident_reviews  incident_classify, incident_sign_off, incident_attach, incident_video_reference
                   the surveillance file: classification, money, two reviewers, attachments
    record_links   record_chain_register, records_touched, records_link_unlinked   the rest of the record chained
    backups        backup_write, backup_restore                           database, checkpoint log, public keys
    terminal       halt_override_grant, terminal_round_store              the table terminal: a halt overridden, its round
    drafts         draft_keep, draft_take_over, draft_void, …             the terminal's round in progress, on the server

A round in force is announced once committed (dealing.hooks.rounds_committed); audit subscribes,
and writes the audit's verdict itself (audit.state). Callers use this package's names
(`from dealing import services; services.round_log(...)`), not the modules'.
"""

from dealing.access import works_at
from dealing.errors import engine_error

from .backups import backup_restore, backup_write
from .bulk import BATCH as IMPORT_BATCH
from .bulk import ImportSummary, rounds_import
from .chain_link import Link, TableChanged, approval_append
from .checkpoints import ChainReport, chain_heads, chain_verify, checkpoint_write_all
from .corrections import round_amend, round_amendment_decide
from .documents import MAX_DEPTH, MAX_EXPONENT, MONEY_LIMIT, complete_document, read_document
from .drafts import (
    draft_check_holder,
    draft_clear,
    draft_keep,
    draft_take_over,
    draft_void,
    drafts_leave_behind,
)
from .incident_reviews import (
    attachment_files_check,
    incident_attach,
    incident_classify,
    incident_sign_off,
    incident_video_reference,
)
from .incidents import incident_decide, incident_report
from .record_links import link_unlinked as records_link_unlinked
from .record_links import register as record_chain_register
from .record_links import rows_touched as records_touched
from .rounds import BOX_MAX, PLAYER_MAX, STAKE_ID_MAX, round_log
from .shoes import (
    card_code,
    shoe_burn,
    shoe_dealer_change,
    shoe_decks,
    shoe_end,
    shoe_for_round,
    shoe_reference,
    shoe_start,
)
from .terminal import halt_override_grant, terminal_round_store

__all__ = [
    "attachment_files_check",
    "incident_attach",
    "incident_classify",
    "incident_sign_off",
    "incident_video_reference",
    "BOX_MAX",
    "IMPORT_BATCH",
    "ImportSummary",
    "backup_restore",
    "backup_write",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MONEY_LIMIT",
    "PLAYER_MAX",
    "STAKE_ID_MAX",
    "ChainReport",
    "Link",
    "TableChanged",
    "approval_append",
    "card_code",
    "chain_heads",
    "chain_verify",
    "checkpoint_write_all",
    "record_chain_register",
    "records_link_unlinked",
    "records_touched",
    "complete_document",
    "engine_error",
    "incident_decide",
    "incident_report",
    "read_document",
    "round_amend",
    "round_amendment_decide",
    "round_log",
    "rounds_import",
    "shoe_burn",
    "shoe_dealer_change",
    "shoe_decks",
    "shoe_end",
    "shoe_for_round",
    "shoe_reference",
    "shoe_start",
    "halt_override_grant",
    "draft_check_holder",
    "draft_clear",
    "draft_keep",
    "draft_take_over",
    "draft_void",
    "drafts_leave_behind",
    "terminal_round_store",
    "works_at",
]
