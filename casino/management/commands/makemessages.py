"""`manage.py makemessages` that also reads `lazy("…")`: the game layouts (dealing/games/*/layout.py)
import gettext_lazy under that name, which xgettext does not know, so their strings would drop out
of the catalogues (and the pages show English)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=lazy"]
