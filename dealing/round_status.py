"""A round's derived status (RoundStatus) and audit status (AuditStatus) as SQL: the facts appended
beside a round (its Supersession, its Approval, its RoundAudit) read back as filters and as the
`status` annotation every `Round.objects` query carries (dealing/models.py). `via` names the foreign
key to the round ("round") when the filter is on another model."""

from django.apps import apps
from django.db.models import Case, CharField, Exists, OuterRef, Q, Value, When

from .choices import AuditStatus, Decision, RoundStatus


def _model(name: str):
    # The models import this module: they are looked up when a filter is built, not at import.
    return apps.get_model("dealing", name)


def _ref(via: str) -> OuterRef:
    """The round's id in the outer query: its own pk, or the foreign key `via` ("round") of another model."""
    return OuterRef(via or "pk")


def _prefix(via: str) -> str:
    return f"{via}__" if via else ""


def _superseded(via: str = "") -> Exists:
    return Exists(_model("Supersession").objects.filter(superseded=_ref(via)))


def _superseding(via: str = "") -> Exists:
    return Exists(_model("Supersession").objects.filter(superseding=_ref(via)))


def _rejected(via: str = "") -> Exists:
    return Exists(_model("Approval").objects.filter(round=_ref(via), decision=Decision.REJECTED))


def in_force_q(via: str = "") -> Q:
    """The rounds in force (status recorded): not superseded, and either an original or an approved
    correction. `via` is the foreign key to the round when filtering another model ("round").
    Supersessions are few: on PostgreSQL the NOT EXISTS is a hashed anti-join against them."""
    return ~Q(_superseded(via)) & (Q(**{f"{_prefix(via)}supersedes__isnull": True}) | Q(_superseding(via)))


def status_q(status: str, via: str = "") -> Q:
    """The rounds whose derived status is `status` (RoundStatus)."""
    if status == RoundStatus.RECORDED:
        return in_force_q(via)
    if status == RoundStatus.SUPERSEDED:
        return Q(_superseded(via))
    awaiting = Q(**{f"{_prefix(via)}supersedes__isnull": False}) & ~Q(_superseded(via)) & ~Q(_superseding(via))
    if status == RoundStatus.REJECTED:
        return awaiting & Q(_rejected(via))
    if status == RoundStatus.PENDING:
        return awaiting & ~Q(_rejected(via))
    raise ValueError(status)


def audit_status_q(status: str, via: str = "") -> Q:
    """The rounds whose audit status is `status` (AuditStatus); no RoundAudit row is pending too."""
    if status == AuditStatus.PENDING:
        return ~Q(Exists(_model("RoundAudit").objects.filter(round=_ref(via)).exclude(status=AuditStatus.PENDING)))
    if status not in AuditStatus.values:
        raise ValueError(status)
    return Q(Exists(_model("RoundAudit").objects.filter(round=_ref(via), status=status)))


def status_expression(via: str = ""):
    """A round's status (RoundStatus) as an SQL expression, from the facts appended beside it."""
    return Case(
        When(_superseded(via), then=Value(RoundStatus.SUPERSEDED.value)),
        When(Q(**{f"{_prefix(via)}supersedes__isnull": True}), then=Value(RoundStatus.RECORDED.value)),
        When(_superseding(via), then=Value(RoundStatus.RECORDED.value)),
        When(_rejected(via), then=Value(RoundStatus.REJECTED.value)),
        default=Value(RoundStatus.PENDING.value),
        output_field=CharField(),
    )
