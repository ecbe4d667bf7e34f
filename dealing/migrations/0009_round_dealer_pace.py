"""A dealer's game pace read from one index (books/performance_selectors.py): his first revisions by
table then time, with the shoe, so the pace's window reads them in its own order without the rows.
Built CONCURRENTLY on PostgreSQL (outside a transaction): a casino's year of rounds takes about half
a minute to index, and rounds keep being logged meanwhile."""

from django.conf import settings
from django.db import migrations, models

INDEX = models.Index(condition=models.Q(('supersedes__isnull', True)),
                     fields=['dealer', 'table', 'logged_at', 'id', 'shoe'], name='round_dealer_pace')


def _create(apps, schema_editor):
    concurrently = {"concurrently": True} if schema_editor.connection.vendor == "postgresql" else {}
    schema_editor.add_index(apps.get_model("dealing", "Round"), INDEX, **concurrently)


def _drop(apps, schema_editor):
    concurrently = {"concurrently": True} if schema_editor.connection.vendor == "postgresql" else {}
    schema_editor.remove_index(apps.get_model("dealing", "Round"), INDEX, **concurrently)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('casino', '0004_security_log_and_device_tokens'),
        ('dealing', '0008_append_only'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name='round', index=INDEX)],
            database_operations=[migrations.RunPython(_create, _drop, elidable=False)],
        ),
    ]
