"""The kinds of notification, who hears of each by default and how each reads.

A row stores its kind and the facts (`params`), never a sentence: the title and text are made
here when the row is shown or mailed, in the reader's language.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    HALT = "halt", _("HALT at a table")
    INCIDENT_APPROVAL = "incident_approval", _("Incident awaiting approval")
    CORRECTION_APPROVAL = "correction_approval", _("Correction awaiting approval")
    CRITICAL_FINDING = "critical_finding", _("Critical finding")
    CHAIN_FAILED = "chain_failed", _("Chain check failed")
    SHIFT_VARIANCE = "shift_variance", _("Shift closed with a variance")
    INTEGRITY_SIGNAL = "integrity_signal", _("Integrity signal")
    AUDIT_RUN_FINISHED = "audit_run_finished", _("Audit run finished")
    REVIEW_SIGN_OFF = "review_sign_off", _("Incident review awaiting a second reviewer")


class Channel(models.TextChoices):
    BOTH = "both", _("On the page and by e-mail")
    PAGE = "page", _("On the page only")
    EMAIL = "email", _("By e-mail only")
    NONE = "none", _("Not at all")


# What a user gets before he chooses: what stops a table or breaks the record also by e-mail.
DEFAULT_CHANNEL = {
    Kind.HALT: Channel.BOTH,
    Kind.INCIDENT_APPROVAL: Channel.PAGE,
    Kind.CORRECTION_APPROVAL: Channel.PAGE,
    Kind.CRITICAL_FINDING: Channel.BOTH,
    Kind.CHAIN_FAILED: Channel.BOTH,
    Kind.SHIFT_VARIANCE: Channel.PAGE,
    Kind.INTEGRITY_SIGNAL: Channel.PAGE,
    Kind.AUDIT_RUN_FINISHED: Channel.PAGE,
    Kind.REVIEW_SIGN_OFF: Channel.PAGE,
}


def on_page(channel: str) -> bool:
    return channel in (Channel.BOTH, Channel.PAGE)


def by_email(channel: str) -> bool:
    return channel in (Channel.BOTH, Channel.EMAIL)


def title(kind: str, params: dict) -> str:
    """The headline, in the active language."""
    p = params or {}
    if kind == Kind.HALT:
        return _("HALT at table %(table)s") % {"table": p.get("table", "?")}
    if kind == Kind.INCIDENT_APPROVAL:
        return _("Incident at table %(table)s awaits your approval") % {"table": p.get("table", "?")}
    if kind == Kind.CORRECTION_APPROVAL:
        return _("Correction at table %(table)s awaits your approval") % {"table": p.get("table", "?")}
    if kind == Kind.CRITICAL_FINDING:
        return _("Critical finding at table %(table)s") % {"table": p.get("table", "?")}
    if kind == Kind.CHAIN_FAILED:
        if p.get("check") == "checkpoint":
            return _("A checkpoint could not be written")
        return _("The chains failed verification")
    if kind == Kind.SHIFT_VARIANCE:
        return _("Table %(table)s closed with a variance of %(variance)s") % {
            "table": p.get("table", "?"),
            "variance": p.get("variance", "?"),
        }
    if kind == Kind.INTEGRITY_SIGNAL:
        return _("New integrity signal: %(kind)s") % {"kind": p.get("signal_kind", "?")}
    if kind == Kind.REVIEW_SIGN_OFF:
        return _("Incident %(incident)s at table %(table)s awaits a second reviewer") % {
            "incident": p.get("incident", "?"),
            "table": p.get("table", "?"),
        }
    if kind == Kind.AUDIT_RUN_FINISHED:
        if p.get("status") == "failed":
            return _("Audit run #%(run)s failed") % {"run": p.get("run", "?")}
        return _("Audit run #%(run)s finished") % {"run": p.get("run", "?")}
    return str(kind)


def text(kind: str, params: dict) -> str:
    """The line under the headline: the facts that let the reader decide whether to go now."""
    p = params or {}
    if kind == Kind.HALT:
        return _("The round stopped at entry %(event)s: %(code)s. The dealer waits for a pit boss.") % {
            "event": p.get("event", "?"),
            "code": p.get("code", "?"),
        }
    if kind == Kind.INCIDENT_APPROVAL:
        return _("%(card)s reported by %(by)s, dealer %(dealer)s.") % {
            "card": p.get("card", "?"),
            "by": p.get("by", "?"),
            "dealer": p.get("dealer", "?"),
        }
    if kind == Kind.CORRECTION_APPROVAL:
        return _("Round %(round)s corrected by %(by)s.") % {"round": p.get("round", "?"), "by": p.get("by", "?")}
    if kind == Kind.CRITICAL_FINDING:
        return _("Finding %(code)s in round %(round)s.") % {"code": p.get("code", "?"), "round": p.get("round", "-")}
    if kind == Kind.CHAIN_FAILED:
        return str(p.get("message") or "")
    if kind == Kind.SHIFT_VARIANCE:
        return _("Closed by %(by)s.") % {"by": p.get("by", "?")}
    if kind == Kind.INTEGRITY_SIGNAL:
        return _("Dealer %(dealer)s, player %(player)s.") % {
            "dealer": p.get("dealer") or "-",
            "player": p.get("player") or "-",
        }
    if kind == Kind.REVIEW_SIGN_OFF:
        return _("%(by)s classified it: %(classification)s. Another person signs it off.") % {
            "by": p.get("by", "?"),
            "classification": _classification(p.get("classification")),
        }
    if kind == Kind.AUDIT_RUN_FINISHED:
        return _("%(rounds)s rounds, %(findings)s findings.") % {
            "rounds": p.get("rounds", 0),
            "findings": p.get("findings", 0),
        }
    return ""


def _classification(value) -> str:
    from dealing.choices import IncidentClass

    return str(dict(IncidentClass.choices).get(value, value or "?"))
