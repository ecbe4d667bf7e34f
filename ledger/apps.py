from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    """Game nights of veintiuno: sessions, the first-bank draw, limits, balances, who pays whom."""

    name = "ledger"
    label = "ledger"
    verbose_name = _("Game-night ledger")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from casino import demo
        from casino.navigation import NavItem, register

        from .access import READ_ROLES
        from .demo import ledger_demo_load

        # A finished game night at Casa-21, after dealing's demo rounds (manage.py demo_floor).
        demo.register_loader("ledger", ledger_demo_load, order=20)

        register(NavItem(_("Game nights"), "ledger:session_list", roles=READ_ROLES, order=35, group="pit"))
