"""`played_at`: when a round was dealt (round/1, third wave). The rounds already stored were dealt
when they were logged, so they take their `logged_at`: their chain links stay as they were (the link
covers `played_at` only where it differs from `logged_at`, dealing/chain.py). The lists, periods and
the pace read by `played_at` from now on: their indexes move to it (as many indexes as before, so a
round logged costs no more writes)."""

import django.utils.timezone
from django.db import migrations, models

PACE_NEW = models.Index(
    condition=models.Q(("supersedes__isnull", True)),
    fields=["dealer", "table", "played_at", "id", "shoe"],
    name="round_dealer_pace",
)


class Migration(migrations.Migration):
    dependencies = [
        ("dealing", "0010_halt_override"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="played_at",
            field=models.DateTimeField(null=True, verbose_name="played at"),
        ),
        migrations.RunSQL(
            "UPDATE dealing_round SET played_at = logged_at WHERE played_at IS NULL",
            migrations.RunSQL.noop,
            elidable=False,
        ),
        migrations.AlterField(
            model_name="round",
            name="played_at",
            field=models.DateTimeField(default=django.utils.timezone.now, verbose_name="played at"),
        ),
        migrations.AlterModelOptions(
            name="round",
            options={"ordering": ["-played_at", "-id"], "verbose_name": "round", "verbose_name_plural": "rounds"},
        ),
        migrations.RemoveIndex(model_name="round", name="round_time"),
        migrations.RemoveIndex(model_name="round", name="round_table_time_id"),
        migrations.RemoveIndex(model_name="round", name="round_dealer_time_id"),
        migrations.RemoveIndex(model_name="round", name="round_dealer_pace"),
        migrations.AddIndex(model_name="round", index=models.Index(fields=["played_at", "id"], name="round_played")),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["table", "played_at", "id"], name="round_table_played_id"),
        ),
        migrations.AddIndex(
            model_name="round",
            index=models.Index(fields=["dealer", "played_at", "id"], name="round_dealer_played_id"),
        ),
        migrations.AddIndex(model_name="round", index=PACE_NEW),
    ]
