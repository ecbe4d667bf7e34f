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

        # GAMEMATH_WARM=1 with gunicorn --preload: the figures every page and endpoint starts from
        # are solved once in the master, before the workers fork, instead of on a user's first
        # request (the blackjack rule effects take tens of seconds cold).
        import os

        mode = os.environ.get("GAMEMATH_WARM", "").lower()
        if mode in ("1", "true", "yes"):
            from . import warm

            warm.warm()
        elif mode == "background":
            # `make run`: the development server starts at once and solves while a person logs in,
            # instead of the first visit to the books or the game math waiting ~20 s.
            import threading

            from . import warm

            threading.Thread(target=warm.warm, name="gamemath-warm", daemon=True).start()
