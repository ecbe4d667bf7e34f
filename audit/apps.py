from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    """Audit runs, findings and reviews: every logged payout checked against the rules engine."""

    name = "audit"
    verbose_name = _("Audit")

    def ready(self):
        from celery.signals import worker_ready, worker_shutdown

        from casino import metrics as floor_metrics
        from casino.navigation import NavItem, register
        from dealing import hooks

        from . import access, metrics, rollups, subscribers, sweep

        # dealing announces the rounds it commits; audit audits them (dealing never imports audit).
        hooks.subscribe(subscribers.rounds_committed)
        # Each round record written gets its pending audit row in the same transaction.
        hooks.subscribe_written(subscribers.rounds_written)
        # A shoe overfilled is checked at once (the round that overfills it has just committed).
        hooks.subscribe_overfull(subscribers.shoe_overfull)
        # ...and the rounds whose status it changes (a correction approved), for the rollups.
        hooks.watch_changes(rollups.rounds_changing)
        # Findings and their reviews in the keyed chain (docs/chain.md); verdicts are dealing's RoundAudit.
        chain_relations()
        # Every worker sweeps for rounds whose audit message was lost (audit/sweep.py).
        worker_ready.connect(sweep.on_worker_ready, weak=False, dispatch_uid="audit-sweep-start")
        worker_shutdown.connect(sweep.on_worker_shutdown, weak=False, dispatch_uid="audit-sweep-stop")
        # The floor's figures at every scrape of /metrics.
        floor_metrics.register("audit-floor", metrics.FloorCollector())

        # The roles of each entry are the roles its view requires (casino/navigation.py). Audit runs
        # are a tab of the audit pages (templates/audit/_tabs.html), keeping the bar short.
        register(NavItem(_("Audit"), "audit:dashboard", roles=access.DASHBOARD_ROLES, order=40, group="audit"))
        register(NavItem(_("Findings"), "audit:finding_list", roles=access.FINDING_ROLES, order=41, group="audit"))


def chain_relations():
    from dealing import services

    from .models import Finding, Review

    services.record_chain_register(
        Finding,
        fields=(
            "round_id",
            "shoe_id",
            "table_id",
            "dealer_id",
            "played_at",
            "code",
            "severity",
            "event",
            "stake",
            "hand",
            "wager",
            "expected",
            "actual",
            "player_delta",
            "message",
            "params",
            "engine_version",
            "fingerprint",
            "status",
            "classification",
            "reviewed_by_id",
            "reviewed_at",
            "created",
        ),
        staff=("dealer", "reviewed_by"),
    )
    # Not `finding_id`: a review outlives its finding (SET_NULL when a re-audit drops it, set again
    # when it is reported again); the round or shoe, fingerprint and code name what it reviewed.
    services.record_chain_register(
        Review,
        fields=(
            "round_id",
            "shoe_id",
            "fingerprint",
            "code",
            "auditor_id",
            "status",
            "classification",
            "comment",
            "at",
        ),
        staff=("auditor",),
    )
