from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameMathConfig(AppConfig):
    """Game math: the engine's exact option values, optimal play and house edge, as pages and an API."""

    name = "gamemath"
    verbose_name = _("Game math")

    def ready(self):
        from casino.navigation import NavItem, register
        from dealing import games

        from .access import READERS

        # The same roles as the views: the pages show no floor data, so every role reads them. The
        # entry opens the first page of the first game that has math pages.
        first = next((math for _game, math in games.filled("math")), None)
        if first is not None:
            register(NavItem(_("Game math"), f"gamemath:{first.home}", roles=READERS, order=70, group="training"))

        # GAMEMATH_WARM: the figures every page, endpoint and trainer chart starts from, solved
        # once at start-up instead of on a user's first request (gamemath/warm.py).
        from . import warm

        warm.start_from_env()
