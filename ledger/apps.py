from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    """Game nights of veintiuno: sessions, the first-bank draw, limits, balances, who pays whom."""

    name = "ledger"
    label = "ledger"
    verbose_name = _("Game-night ledger")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from casino.navigation import NavItem, register

        from .access import READ_ROLES

        register(NavItem(_("Game nights"), "ledger:session_list", roles=READ_ROLES, order=35))
