from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BooksConfig(AppConfig):
    """The float of each table, shift by shift: opening, fills, credits, chips sold, drop, closing."""

    name = "books"
    label = "books"
    verbose_name = _("The pit's books")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from casino import demo
        from casino.navigation import NavItem, register

        from .access import READ_ROLES
        from .demo import books_demo_load
        from .integrity.selectors import READ_ROLES as SIGNAL_READERS
        from .performance.selectors import ROLES as PERFORMANCE_ROLES
        from .theory.views import READERS as THEORY_READERS

        # Weeks of shifts across several dealers and tables, after dealing's and the ledger's demo data
        # (manage.py demo_floor; the size is settings.DEMO_FLOOR_DAYS).
        demo.register_loader("books", books_demo_load, order=30)
        # Shifts and float events in the keyed chain (docs/chain.md).
        chain_relations()

        register(NavItem(_("Float"), "books:shift_list", roles=READ_ROLES, order=37))
        register(
            NavItem(_("Dealer performance"), "books:performance_list", roles=PERFORMANCE_ROLES, order=38, group="pit")
        )
        register(NavItem(_("Theory against actual"), "books:theory", roles=THEORY_READERS, order=43, group="audit"))
        register(NavItem(_("Period report"), "books:report_period", roles=THEORY_READERS, order=44, group="audit"))
        register(NavItem(_("Integrity signals"), "books:signal_list", roles=SIGNAL_READERS, order=45, group="audit"))


def chain_relations():
    from dealing import services

    from .models import FloatEvent, Slip, SlipCounter, SlipPrint, TableShift

    services.record_chain_register(
        TableShift,
        fields=(
            "table_id",
            "status",
            "dealer_id",
            "opening",
            "opening_total",
            "opened_at",
            "opening_signed_by_id",
            "opening_signed_at",
            "tolerance",
            "closing",
            "closing_total",
            "closing_counted_by_id",
            "closing_counted_at",
            "explanation",
            "explained_variance",
            "explained_by_id",
            "explained_at",
            "closed_by_id",
            "closed_at",
        ),
        staff=("dealer", "opening_signed_by", "closing_counted_by", "explained_by", "closed_by"),
    )
    services.record_chain_register(
        FloatEvent,
        fields=(
            "shift_id",
            "kind",
            "chips",
            "amount",
            "status",
            "requested_by_id",
            "requested_at",
            "approved_by_id",
            "approved_at",
            "received_by_id",
            "received_at",
        ),
        staff=("requested_by", "approved_by", "received_by"),
    )
    # The slips: a void is a new state of the row (a new link), a print a new row, and the counter's
    # every step a link, so a number taken out of the sequence or a void rewritten is found.
    services.record_chain_register(
        Slip,
        fields=(
            "event_id",
            "kind",
            "number",
            "issued_by_id",
            "issued_at",
            "void_reason",
            "void_requested_by_id",
            "void_requested_at",
            "voided_by_id",
            "voided_at",
        ),
        staff=("issued_by", "void_requested_by", "voided_by"),
    )
    services.record_chain_register(
        SlipPrint, fields=("slip_id", "printed_by_id", "printed_at", "reprint"), staff=("printed_by",)
    )
    services.record_chain_register(SlipCounter, fields=("kind", "last_number"))
