"""The counter of rounds waiting for audit (issue #33): the table, filled from the pending audit
rows of the rounds in force as they stand."""

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor):
    from audit.rollups import time_key
    from dealing.models import in_force_q

    RoundAudit = apps.get_model("dealing", "RoundAudit")
    PendingRollup = apps.get_model("audit", "PendingRollup")
    counts: dict[tuple, int] = {}
    for played_at, table_id, dealer_id in (
        RoundAudit.objects.filter(in_force_q("round"), status="pending")
        .values_list("round__played_at", "round__table_id", "round__dealer_id")
        .iterator(chunk_size=2000)
    ):
        key = (time_key(played_at)[0], table_id, dealer_id or 0)
        counts[key] = counts.get(key, 0) + 1
    PendingRollup.objects.bulk_create(
        [PendingRollup(day=day, table_id=table, dealer_id=dealer, rounds=n) for (day, table, dealer), n in counts.items()],
        batch_size=1000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('audit', '0009_chunk_lease'),
        ('casino', '0007_table_opened_at'),
        ('dealing', '0011_round_played_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='PendingRollup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('day', models.DateField(help_text="The calendar day in the casino's time zone.", verbose_name='day')),
                ('dealer_id', models.BigIntegerField(default=0, verbose_name='dealer')),
                ('rounds', models.BigIntegerField(default=0, verbose_name='rounds waiting for audit')),
                ('table', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='casino.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'rounds waiting for audit',
                'verbose_name_plural': 'rounds waiting for audit',
                'constraints': [models.UniqueConstraint(fields=('table', 'day', 'dealer_id'), name='pending_rollup_key')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
