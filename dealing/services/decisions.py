"""The pit boss's word on a correction or an incident."""

from django.utils.translation import gettext as _

from dealing.errors import refuse

from ..choices import Decision


def decision_checked(decision: str, comment) -> tuple[str, str]:
    if decision not in Decision.values:
        raise refuse(_('A decision is "approved" or "rejected".'), "bad_decision", path="decision")
    comment = (comment or "").strip()
    if decision == Decision.REJECTED and not comment:
        raise refuse(_("Say why it is rejected."), "comment_required", path="comment")
    return decision, comment
