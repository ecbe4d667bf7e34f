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
        # The trainer's charts are warmed with the game math (gamemath/warm.py).
