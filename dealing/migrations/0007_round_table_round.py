"""One number per round (issue #20 item 2): `Round.table_round`, the round's number at its table
(1, 2, 3, … in the order its rounds were first logged; a correction keeps the number of the round
it corrects). The rounds already stored are numbered here, table by table in chain order."""

from django.db import migrations, models


def _number(apps, schema_editor):
    Round = apps.get_model("dealing", "Round")
    for table_id in Round.objects.values_list("table_id", flat=True).distinct().order_by("table_id"):
        numbers: dict[int, int] = {}
        n, batch = 0, []
        rows = Round.objects.filter(table_id=table_id).order_by("chain_index").only("pk", "supersedes_id")
        for record in rows.iterator(chunk_size=2000):
            if record.supersedes_id is None or record.supersedes_id not in numbers:
                n += 1
                record.table_round = n
            else:
                record.table_round = numbers[record.supersedes_id]
            numbers[record.pk] = record.table_round
            batch.append(record)
            if len(batch) == 2000:
                Round.objects.bulk_update(batch, ["table_round"])
                batch = []
        Round.objects.bulk_update(batch, ["table_round"])


class Migration(migrations.Migration):

    dependencies = [
        ("dealing", "0006_chain_v2"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="table_round",
            field=models.PositiveIntegerField(blank=True, help_text="1, 2, … on this table; a correction keeps it.",
                                              null=True, verbose_name="round"),
        ),
        migrations.RunPython(_number, migrations.RunPython.noop, elidable=True),
    ]
