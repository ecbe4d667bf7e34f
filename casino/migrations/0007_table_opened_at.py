"""When a table came into play: a round dealt before it is refused (round/1 `played_at`). The tables
already stored keep it empty (not known); new ones default to when they are created."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0006_change_history"),
    ]

    operations = [
        # The table's history (django-simple-history) records it too.
        migrations.AddField(
            model_name="historicaltable",
            name="opened_at",
            field=models.DateTimeField(
                blank=True,
                default=django.utils.timezone.now,
                help_text="Rounds dealt before this time are refused; set it earlier to import the table's history.",
                null=True,
                verbose_name="in play since",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="opened_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="in play since"),
        ),
        migrations.AlterField(
            model_name="table",
            name="opened_at",
            field=models.DateTimeField(
                blank=True,
                default=django.utils.timezone.now,
                help_text="Rounds dealt before this time are refused; set it earlier to import the table's history.",
                null=True,
                verbose_name="in play since",
            ),
        ),
    ]
