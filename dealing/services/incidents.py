"""Incidents (an exposed dealer card, a misdrawn card) and the pit boss's decision on them."""

from django.db import transaction
from django.utils.translation import gettext as _

from casino.models import Table
from casino.roles import INSPECTOR, PIT_BOSS
from dealing.access import dealer_of, require, require_pit_boss
from dealing.errors import refuse

from ..choices import Decision, IncidentKind, IncidentStatus, Resolution
from ..models import Approval, Incident, Round, Shoe
from ..selectors import incident_procedure
from .chain_link import approval_append
from .decisions import decision_checked
from .documents import check_text
from .shoes import card_code, shoe_for_round


def incident_report(
    *,
    table: Table,
    kind: str,
    card,
    exposed: bool,
    resolution: str,
    to_box: int | None = None,
    dealer,
    reported_by,
    round: Round | None = None,
    shoe: Shoe | None = None,  # noqa: A002
    evidence: str = "",
    note: str = "",
) -> Incident:
    """An inspector or pit boss reports an exposed dealer card or a misdrawn card; it awaits a pit boss."""
    require(
        reported_by,
        table,
        (INSPECTOR, PIT_BOSS),
        _("Only an inspector or pit boss of pit %(pit)s reports incidents at table %(table)s."),
    )
    if kind not in IncidentKind.values:
        raise refuse(
            _("An incident is one of: %(kinds)s.") % {"kinds": ", ".join(IncidentKind.values)}, "bad_kind", path="kind"
        )
    code = card_code(table.variant, card)
    if type(exposed) is not bool:
        raise refuse(_("Say whether the card was seen (exposed: true or false)."), "bad_exposed", path="exposed")
    if resolution not in Resolution.values:
        raise refuse(
            _("A resolution is one of: %(values)s.") % {"values": ", ".join(Resolution.values)},
            "bad_resolution",
            path="resolution",
        )
    if resolution == Resolution.TO_BOX:
        if type(to_box) is not int or not 1 <= to_box <= table.boxes:
            raise refuse(
                _("Name the box the card was placed on (1 to %(n)d).") % {"n": table.boxes}, "bad_box", path="to_box"
            )
    elif to_box is not None:
        raise refuse(_("Only a card placed on a box names a box."), "bad_box", path="to_box")
    if not dealer_of(table, dealer):
        raise refuse(
            _("%(user)s is not a dealer of pit %(pit)s.") % {"user": dealer, "pit": table.pit.name},
            "unknown_dealer",
            path="dealer",
        )
    if round is not None and round.table_id != table.pk:
        raise refuse(
            _("That round was not dealt at table %(table)s.") % {"table": table.name}, "round_mismatch", path="round"
        )
    if shoe is not None and shoe.table_id != table.pk:
        raise refuse(_("That shoe is not table %(table)s's.") % {"table": table.name}, "shoe_mismatch", path="shoe")
    if shoe is None:
        shoe = round.shoe if round is not None else shoe_for_round(table=table, reference=None)
    for value, field, limit in (
        (evidence, "evidence", Incident._meta.get_field("evidence").max_length),
        (note, "note", None),
    ):
        if not isinstance(value, str):
            raise refuse(_("%(field)s must be text.") % {"field": field}, "bad_text", path=field)
        check_text(value, field)
        if limit is not None and len(value) > limit:
            raise refuse(
                _("The evidence reference has at most %(n)d characters.") % {"n": limit}, "too_long", path=field
            )
    return Incident.objects.create(
        kind=kind,
        card=code,
        exposed=exposed,
        table=table,
        shoe=shoe,
        round=round,
        dealer=dealer,
        reported_by=reported_by,
        resolution=resolution,
        to_box=to_box if resolution == Resolution.TO_BOX else None,
        evidence=evidence.strip(),
        note=note.strip(),
    )


def incident_decide(*, incident: Incident, decided_by, decision: str, comment: str = "") -> Approval:
    """A pit boss of the table's pit approves or rejects a reported incident — never one he reported
    or one at a round he dealt."""
    table = incident.table
    require_pit_boss(decided_by, table)
    decision, comment = decision_checked(decision, comment)
    with transaction.atomic():
        locked = Incident.objects.select_for_update(of=("self",)).select_related("round").get(pk=incident.pk)
        if locked.status != IncidentStatus.REPORTED:
            raise refuse(
                _("This incident was already %(status)s.") % {"status": locked.get_status_display()},
                "already_decided",
                status=409,
            )
        if decided_by.pk == locked.reported_by_id:
            raise refuse(_("You reported this incident; another pit boss decides on it."), "own_report", status=403)
        dealers = {locked.dealer_id, locked.round.dealer_id if locked.round_id else None}
        if decided_by.pk in dealers:
            raise refuse(_("You were the dealer; another pit boss decides on this incident."), "own_round", status=403)
        if decision == Decision.APPROVED and not comment and incident_procedure(locked):
            # Flagged, never waved through: the record breaks the procedure (its findings stay on it),
            # so approving it takes the pit boss's written reason.
            raise refuse(
                _("This record is out of procedure: %(why)s Say why you approve it anyway (comment), or reject it.")
                % {"why": " ".join(f["message"] for f in incident_procedure(locked))},
                "out_of_procedure",
                path="comment",
            )
        locked.status = decision
        locked.save(update_fields=["status"])
        incident.status = decision
        return approval_append(incident=locked, decided_by=decided_by, decision=decision, comment=comment)
