from django.db import migrations, models


def fill(apps, schema_editor):
    """Σ initial wagers² of the rounds already stored: the rollups rebuilt from the rounds
    (audit/rollups.py's `rebuild`, on the migration's models), which replays every audited round for
    its handle. On a database of millions of rounds set ROLLUPS_FILL_LATER=1 to migrate at once and
    run `manage.py rollups_rebuild` afterwards, with the site up (until then the theoretical win's
    band of the older rounds reads as zero width)."""
    import os

    from audit import rollups

    if os.environ.get("ROLLUPS_FILL_LATER", "").lower() in ("1", "true", "yes"):
        return
    models_ = rollups.Models(apps.get_model("dealing", "Round"), apps.get_model("audit", "Finding"),
                             apps.get_model("audit", "Rollup"), apps.get_model("audit", "RollupFinding"),
                             apps.get_model("dealing", "Shoe"), apps.get_model("casino", "Table"))
    if not models_.Round.objects.exists():
        return
    rollups.rebuild(models=models_)


class Migration(migrations.Migration):
    # The band of the theoretical win (books/theory.py) needs Σ wager² besides Σ wager.

    dependencies = [
        ('audit', '0005_rollups'),
    ]
    # The fill reads the rounds' own status column, which dealing's append-only migration moves out:
    # it must run before it, whatever order the graph's other leaves would give.
    run_before = [
        ('dealing', '0008_append_only'),
    ]

    operations = [
        migrations.AddField(
            model_name='rollup',
            name='initial_wagers_sq',
            field=models.DecimalField(decimal_places=4, default=0, help_text="Σ over the rounds of each round's initial wagers, squared.", max_digits=30, verbose_name='Σ initial wagers squared'),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
