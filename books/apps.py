from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BooksConfig(AppConfig):
    """The float of each table, shift by shift: opening, fills, credits, chips sold, drop, closing."""

    name = "books"
    label = "books"
    verbose_name = _("The pit's books")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from casino.navigation import NavItem, register

        from .access import READ_ROLES
        from .signals_selectors import READ_ROLES as SIGNAL_READERS

        register(NavItem(_("Float"), "books:shift_list", roles=READ_ROLES, order=37))
        register(NavItem(_("Integrity signals"), "books:signal_list", roles=SIGNAL_READERS, order=45, group="audit"))
