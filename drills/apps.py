from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DrillsConfig(AppConfig):
    name = "drills"
    label = "drills"
    verbose_name = _("Drills")

    def ready(self):
        from casino.navigation import NavItem, register
        from casino.roles import AUDITOR, PIT_BOSS, TRAINEE

        # The same roles as the views (views.py): nobody is offered a page that refuses them.
        register(NavItem(_("Drills"), "drills:home", roles=(TRAINEE,), order=30, group="training"))
        register(NavItem(_("My progress"), "drills:my_progress", roles=(TRAINEE,), order=31, group="training"))
        register(NavItem(_("Trainees"), "drills:trainees", roles=(PIT_BOSS, AUDITOR), order=60, group="training"))
        register(NavItem(_("Certification"), "drills:standards", roles=(PIT_BOSS, AUDITOR), order=61, group="training"))

        # GAMEMATH_WARM=1 with gunicorn --preload (gamemath/apps.py): the strategy trainer's charts
        # too, so that no trainee's first graded decision waits for a chart's solve.
        import os

        mode = os.environ.get("GAMEMATH_WARM", "").lower()
        if mode in ("1", "true", "yes"):
            from . import strategy

            strategy.warm()
        elif mode == "background":  # `make run` (gamemath/apps.py)
            import threading

            from . import strategy

            threading.Thread(target=strategy.warm, name="drills-warm", daemon=True).start()
