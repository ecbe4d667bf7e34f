from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DealingConfig(AppConfig):
    """Shoes, rounds, stakes, incidents and approvals (the rules engine lives in dealing/engine/)."""

    name = "dealing"
    verbose_name = _("Dealing")

    def ready(self):
        from casino import demo
        from casino.navigation import NavItem, register

        from . import checks, views  # noqa: F401 - checks registers the system checks
        from .demo import dealing_demo_load

        # The rest of the record in the keyed chain (docs/chain.md): dealing's own relations, and the
        # floor's (casino, below dealing, cannot import it) — the security log and staff identity.
        chain_relations()

        # The demo floor's shoes, rounds, incidents and a correction (manage.py demo_floor).
        demo.register_loader("dealing", dealing_demo_load, order=10)

        # The roles of each entry are the roles its view requires (casino/navigation.py).
        register(NavItem(_("Tables"), "dealing:table_list", roles=views.READERS, order=20, group="pit"))
        register(NavItem(_("Log a round"), "dealing:round_pick_table", roles=views.LOGGERS, order=21))
        register(NavItem(_("Incidents"), "dealing:incident_list", roles=views.READERS, order=30, group="pit"))
        register(NavItem(_("Pit queue"), "dealing:pit_queue", roles=views.DECIDERS, order=31))


def chain_relations():
    from django.contrib.auth import get_user_model

    from casino.models import SecurityEvent

    from .models import HaltOverride, Incident, IncidentAttachment, IncidentReview, RoundAudit, ShoeEvent
    from .services import attachment_files_check
    from .services import record_chain_register as chained

    chained(
        Incident,
        fields=(
            "kind",
            "card",
            "exposed",
            "table_id",
            "shoe_id",
            "round_id",
            "dealer_id",
            "reported_by_id",
            "reported_at",
            "status",
            "resolution",
            "to_box",
            "evidence",
            "note",
        ),
        staff=("dealer", "reported_by"),
    )
    # The surveillance file: a review replaced or signed off is a new link; an attachment's link holds
    # its file's SHA-256, and a whole verification hashes every file again (a swapped file is found).
    chained(
        IncidentReview,
        fields=(
            "incident_id",
            "classification",
            "money_direction",
            "money",
            "reason",
            "reviewed_by_id",
            "reviewed_at",
            "second_by_id",
            "second_at",
            "second_comment",
        ),
        staff=("reviewed_by", "second_by"),
    )
    chained(
        IncidentAttachment,
        fields=(
            "incident_id",
            "kind",
            "file",
            "name",
            "content_type",
            "size",
            "sha256",
            "camera",
            "video_start",
            "video_end",
            "added_by_id",
            "added_at",
        ),
        staff=("added_by",),
        outside=attachment_files_check,
    )
    chained(
        ShoeEvent,
        fields=("shoe_id", "position", "kind", "card", "reason", "fee", "dealer_id", "recorded_by_id", "recorded_at"),
        staff=("dealer", "recorded_by"),
    )
    # A pending verdict says nothing yet (its row is written with the round): only verdicts are facts.
    chained(
        RoundAudit, fields=("status", "audited_at", "engine_version"), exempt=lambda data: data["status"] == "pending"
    )
    chained(
        HaltOverride,
        fields=("round_id", "event", "codes", "overridden_by_id", "reason", "at"),
        staff=("overridden_by",),
    )
    chained(SecurityEvent, fields=("at", "user_id", "username", "kind", "address", "detail"))
    # Who a user is: a rename is a new link of this relation, never a silent rewrite of the records.
    chained(
        get_user_model(),
        fields=("username", "first_name", "last_name", "email", "is_active", "is_staff", "is_superuser"),
    )
