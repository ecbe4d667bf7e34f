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

        register(NavItem(_("Float"), "books:shift_list", roles=READ_ROLES, order=37))
        register(
            NavItem(_("Dealer performance"), "books:performance_list", roles=PERFORMANCE_ROLES, order=38, group="pit")
        )
        register(NavItem(_("Theory against actual"), "books:theory", roles=THEORY_READERS, order=43, group="audit"))
        register(NavItem(_("Period report"), "books:report_period", roles=THEORY_READERS, order=44, group="audit"))
        register(NavItem(_("Integrity signals"), "books:signal_list", roles=SIGNAL_READERS, order=45, group="audit"))
