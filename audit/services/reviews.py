"""Auditors' decisions on findings: each one a Review row; the finding shows the latest."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import ServiceError
from casino.roles import AUDITOR, has_role
from dealing import services as dealing_services

from .. import rollups
from ..choices import CLASSIFICATIONS_FOR, Classification, FindingStatus
from ..models import Finding, Review

MAX_BULK_REVIEW = 1000


def finding_review(*, finding_ids, auditor, status: str, classification: str = "", comment: str = "") -> list[Finding]:
    """Record an auditor's decision on one or more findings; the history of earlier decisions stays.

    `status` is confirmed, dismissed, or open (reopen). A confirmed finding is a dealer error or a
    player dispute; a dismissed one is no error or a player dispute; dismissing needs a comment.
    Nobody reviews a finding about a round he dealt himself.
    """
    if not has_role(auditor, AUDITOR):
        raise ServiceError(_("Only auditors review findings."), extra={"code": "forbidden"}, status=403)
    classification = classification or ""
    comment = (comment or "").strip()
    fields = {}
    if status not in FindingStatus.values:
        fields["status"] = [_("Choose confirmed, dismissed or open.")]
    elif classification not in CLASSIFICATIONS_FOR[status]:
        if status == FindingStatus.OPEN:
            fields["classification"] = [_("A reopened finding has no classification.")]
        else:
            allowed = sorted(CLASSIFICATIONS_FOR[status])
            fields["classification"] = [
                _("A %(status)s finding is classified as %(allowed)s.")
                % {
                    "status": FindingStatus(status).label,
                    "allowed": _(" or ").join(str(Classification(c).label) for c in allowed),
                }
            ]
    if status == FindingStatus.DISMISSED and not comment:
        fields["comment"] = [_("Say why the finding is dismissed.")]
    ids = _ids(finding_ids)
    if not ids:
        fields["ids"] = [_("Select at least one finding.")]
    elif len(ids) > MAX_BULK_REVIEW:
        fields["ids"] = [_("Review at most %(n)d findings at once.") % {"n": MAX_BULK_REVIEW}]
    if fields:
        raise ServiceError(_("The review was not recorded."), extra={"fields": fields})

    of = list(Finding.objects.filter(pk__in=ids).values_list("round_id", "shoe_id"))
    with (
        transaction.atomic(),
        rollups.changes(round_ids={r for r, _s in of if r}, shoe_ids={s for r, s in of if not r and s}),
    ):
        findings = list(Finding.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
        missing = sorted(set(ids) - {f.pk for f in findings})
        if missing:
            raise ServiceError(
                _("No finding with the id(s) %(ids)s.") % {"ids": ", ".join(map(str, missing))},
                extra={"code": "not_found", "ids": missing},
                status=404,
            )
        own = [f.pk for f in findings if f.dealer_id == auditor.pk]
        if own:
            raise ServiceError(
                _("You may not review findings about rounds you dealt yourself."),
                extra={"code": "own_round", "ids": own},
                status=403,
            )
        now = timezone.now()
        reviews = Review.objects.bulk_create(
            [
                Review(
                    finding=f,
                    round_id=f.round_id,
                    shoe_id=f.shoe_id if f.round_id is None else None,
                    fingerprint=f.fingerprint,
                    code=f.code,
                    auditor=auditor,
                    status=status,
                    classification=classification,
                    comment=comment,
                    at=now,
                )
                for f in findings
            ]
        )
        Finding.objects.filter(pk__in=ids).update(
            status=status, classification=classification, reviewed_by=auditor, reviewed_at=now
        )
        # The reviews appended and the findings' new state: links of their chains, in this transaction.
        dealing_services.records_touched(Review, [r.pk for r in reviews])
        dealing_services.records_touched(Finding, ids)
    return list(Finding.objects.filter(pk__in=ids).order_by("pk"))


def _ids(values) -> list[int]:
    out = []
    for value in values or []:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ServiceError(
                _("%(value)r is not a finding id.") % {"value": value},
                extra={"fields": {"ids": [_("Finding ids are whole numbers.")]}},
            ) from None
        if number not in out:
            out.append(number)
    return out
