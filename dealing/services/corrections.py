"""Correcting a stored round: a new revision awaiting a pit boss, and his decision on it."""

import uuid

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from casino.models import Table
from dealing import chain, hooks
from dealing.access import check_may_log_at, require_pit_boss
from dealing.errors import refuse

from ..choices import Decision, RoundStatus
from ..models import Approval, Round, Supersession, status_q
from .chain_link import approval_append
from .decisions import decision_checked
from .rounds import read_document, round_append, round_prepare, table_of_document
from .shoes import shoe_for_round, shoe_reference


def round_amend(*, round: Round, document, amended_by, reason: str) -> Round:  # noqa: A002 - the domain's word
    """A correction of a stored round: a new revision at the end of the table's chain, awaiting a
    pit boss (status pending). The round it corrects stays in force until he approves.

    Only the revision in force is amended, one pending correction at a time; the document keeps the
    round's `id` (left out, it is filled in) and its dealer (left out, the original's).
    """
    table = round.table
    check_may_log_at(amended_by, table)
    reason = (reason or "").strip()
    if not reason:
        raise refuse(_("Say why the round is corrected."), "reason_required", path="reason")
    doc = read_document(document)
    if doc.get("id") is None:
        doc["id"] = str(round.uid)
    else:
        try:
            same = str(uuid.UUID(str(doc["id"]))) == str(round.uid)
        except ValueError:
            same = False
        if not same:
            raise refuse(_("A correction keeps the round's id %(id)s.") % {"id": round.uid}, "id_mismatch", path="$.id")
    if not doc.get("dealer"):
        doc["dealer"] = round.dealer.get_username()
    table_of_document(doc, table)  # only checks that the document names this table
    if doc.get("shoe") and round.shoe_id is not None:
        if shoe_for_round(table=table, reference=doc["shoe"]).pk != round.shoe_id:
            raise refuse(
                _("A correction stays in the round's shoe %(shoe)s.") % {"shoe": shoe_reference(round.shoe)},
                "shoe_mismatch",
                path="$.shoe",
            )
    prepared = round_prepare(doc, table=table, logged_by=amended_by, supersedes=round)
    with transaction.atomic():
        Table.objects.select_for_update(no_key=True).filter(pk=table.pk).first()
        current = Round.objects.select_related("shoe", "supersedes").get(pk=round.pk)
        if current.status != RoundStatus.RECORDED:
            raise refuse(
                _("Only the revision in force of a round can be corrected; this one is %(status)s.")
                % {"status": current.get_status_display()},
                "not_in_force",
                status=409,
            )
        if Round.objects.filter(status_q(RoundStatus.PENDING), supersedes=current).exists():
            raise refuse(_("This round already has a correction awaiting a pit boss."), "amendment_pending", status=409)
        if chain.canonical_json(prepared.document) == chain.canonical_json(current.document):
            raise refuse(_("The correction changes nothing in the round."), "no_change")
        revision = Round.objects.filter(uid=current.uid).aggregate(r=Max("revision"))["r"] + 1
        record = round_append(
            prepared,
            logged_by=amended_by,
            revision=revision,
            supersedes=current,
            status=RoundStatus.PENDING,
            amendment_reason=reason,
        )
        # A pit boss must approve it: he hears of it once it commits (never the one proposing it).
        hooks.announce("correction_proposed", round_id=record.pk, table_id=table.pk, by_id=amended_by.pk)
    record.outcome = prepared.outcome
    return record


def round_amendment_decide(*, round: Round, decided_by, decision: str, comment: str = "") -> Approval:  # noqa: A002
    """A pit boss approves or rejects a pending correction. Approved, it is the round in force (and is
    audited) and the revision it corrects is superseded; rejected, the old one simply stays.

    Nothing is edited: the decision is an appended Approval (the approvals' chain) and, approved, an
    appended Supersession; the rounds' statuses follow from them."""
    table = round.table
    require_pit_boss(decided_by, table)
    decision, comment = decision_checked(decision, comment)
    with transaction.atomic():
        # Lock first, then read: the statuses are derived by subqueries, which must see the facts
        # a decision committed while this one waited for the lock (a new statement, a new snapshot).
        _lock(round.pk)
        amendment = Round.objects.get(pk=round.pk)
        if amendment.supersedes_id is None or amendment.status != RoundStatus.PENDING:
            raise refuse(
                _("This is not a correction awaiting a decision (it is %(status)s).")
                % {"status": amendment.get_status_display()},
                "not_pending",
                status=409,
            )
        _lock(amendment.supersedes_id)
        original = Round.objects.get(pk=amendment.supersedes_id)
        if decided_by.pk == amendment.logged_by_id:
            raise refuse(
                _("You made this correction yourself; another pit boss decides on it."), "own_amendment", status=403
            )
        if decided_by.pk in (amendment.dealer_id, original.dealer_id):
            raise refuse(
                _("You dealt this round; another pit boss decides on its correction."), "own_round", status=403
            )
        if decision == Decision.APPROVED and original.status != RoundStatus.RECORDED:
            raise refuse(_("The round this corrects is no longer in force."), "not_in_force", status=409)
        if decision == Decision.APPROVED:
            # The approval puts the correction in force and the supersession takes the original out:
            # both inside the watch, so the rollups move both rounds' totals in this transaction.
            with hooks.rounds_changing([original.pk, amendment.pk]):
                approval = approval_append(round=amendment, decided_by=decided_by, decision=decision, comment=comment)
                Supersession.objects.create(
                    superseded=original, superseding=amendment, approval=approval, at=approval.decided_at
                )
            hooks.round_recorded(amendment.pk)
            round.status = RoundStatus.RECORDED
        else:
            approval = approval_append(round=amendment, decided_by=decided_by, decision=decision, comment=comment)
            round.status = RoundStatus.REJECTED
        return approval


def _lock(round_id: int) -> None:
    list(Round.objects.select_for_update().filter(pk=round_id).values_list("pk", flat=True))
