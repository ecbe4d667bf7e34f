from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameMathConfig(AppConfig):
    """Game math: the engine's exact option values, optimal play and house edge, as pages and an API."""

    name = "gamemath"
    verbose_name = _("Game math")

    def ready(self):
        from casino.navigation import NavItem, register

        from .access import READERS

        # The same roles as the views: the pages show no floor data, so every role reads them.
        register(NavItem(_("Game math"), "gamemath:ochko", roles=READERS, order=70, group="training"))
