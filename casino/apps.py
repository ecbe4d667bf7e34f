from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def ensure_role_groups(using="default", **kwargs):
    """The role groups exist after every migrate and every flush (a flush empties the tables a
    migration filled; post_migrate runs after both)."""
    from django.contrib.auth.models import Group

    from casino.roles import ROLES

    for name in ROLES:
        Group.objects.using(using).get_or_create(name=name)


def last_login_update(sender, user, **kwargs):
    """Django's update_last_login, without a row in the change history (casino/models.py)."""
    from django.contrib.auth.models import update_last_login

    user.skip_history_when_saving = True
    try:
        update_last_login(sender, user, **kwargs)
    finally:
        del user.skip_history_when_saving


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = _("Floor")

    def ready(self):
        post_migrate.connect(ensure_role_groups, sender=self, dispatch_uid="casino.ensure_role_groups")
        from django.core.signals import request_finished

        from . import request_id, security

        security.connect()
        request_finished.connect(request_id.forget, dispatch_uid="casino.request_id.forget")
        # A login saves the user's last_login: no change to him for the history to record.
        from django.contrib.auth.signals import user_logged_in

        user_logged_in.disconnect(dispatch_uid="update_last_login")
        user_logged_in.connect(last_login_update, dispatch_uid="update_last_login")
