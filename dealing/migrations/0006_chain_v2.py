"""The chain's version 2 (dealing/chain.py, docs/chain.md): every link becomes an HMAC under
CHAIN_KEY that covers the stake rows (`stakes_hmac`), the shoe place, the floats and the reason of
a correction; approvals get a chain of their own; ChainCheck records checkpoints and verifications.

The existing links (version 1, a plain SHA-256) are recomputed here under the current key, table
by table in chain order: after this migration a version-1 link anywhere is a break, never a pass.
"""

import django.utils.timezone
from django.db import migrations, models


def _relink(apps, schema_editor):
    from dealing import chain

    Round = apps.get_model("dealing", "Round")
    Stake = apps.get_model("dealing", "Stake")
    Approval = apps.get_model("dealing", "Approval")
    superseded = set(Round.objects.filter(supersedes__isnull=False).values_list("supersedes_id", flat=True))
    links: dict[int, str] = {}
    for table_id in Round.objects.values_list("table_id", flat=True).distinct().order_by("table_id"):
        prev, batch = "", []
        for record in Round.objects.filter(table_id=table_id).order_by("chain_index").iterator(chunk_size=500):
            stakes = list(Stake.objects.filter(round_id=record.pk))
            record.prev_sha256 = prev
            chain.seal_round(record, stakes, supersedes_sha256=links.get(record.supersedes_id))
            if record.pk in superseded:
                links[record.pk] = record.sha256
            prev = record.sha256
            batch.append(record)
            if len(batch) == 500:
                Round.objects.bulk_update(batch, ["prev_sha256", "sha256", "stakes_hmac", "chain_key"])
                batch = []
        Round.objects.bulk_update(batch, ["prev_sha256", "sha256", "stakes_hmac", "chain_key"])
    prev = ""
    for link, approval in enumerate(Approval.objects.order_by("decided_at", "id").select_related("round")):
        approval.link, approval.prev_hmac = link, prev
        prev = chain.seal_approval(approval, round_sha256=approval.round.sha256 if approval.round_id else None)
        approval.save(update_fields=["link", "prev_hmac", "hmac", "chain_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("dealing", "0005_round_list_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="chain_key",
            field=models.CharField(blank=True, max_length=20, verbose_name="chain key"),
        ),
        migrations.AddField(
            model_name="round",
            name="stakes_hmac",
            field=models.CharField(blank=True, max_length=64, verbose_name="stakes hash"),
        ),
        migrations.AddField(
            model_name="approval",
            name="link",
            field=models.PositiveIntegerField(null=True, verbose_name="link"),
        ),
        migrations.AddField(
            model_name="approval",
            name="prev_hmac",
            field=models.CharField(blank=True, max_length=64, verbose_name="previous hash"),
        ),
        migrations.AddField(
            model_name="approval",
            name="hmac",
            field=models.CharField(default="", max_length=64, verbose_name="hash"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="approval",
            name="chain_key",
            field=models.CharField(default="", max_length=20, verbose_name="chain key"),
            preserve_default=False,
        ),
        migrations.RunPython(_relink, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="approval",
            name="link",
            field=models.PositiveIntegerField(verbose_name="link"),
        ),
        migrations.AddConstraint(
            model_name="approval",
            constraint=models.UniqueConstraint(fields=("link",), name="approval_chain_link"),
        ),
        migrations.CreateModel(
            name="ChainCheck",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("kind", models.CharField(choices=[("checkpoint", "checkpoint"), ("verification", "verification")],
                                          max_length=20, verbose_name="kind")),
                ("at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="at")),
                ("ok", models.BooleanField(verbose_name="ok")),
                ("message", models.TextField(blank=True, verbose_name="message")),
                ("records", models.PositiveBigIntegerField(default=0, verbose_name="records")),
                ("seq", models.PositiveIntegerField(blank=True, null=True, verbose_name="checkpoint line")),
                ("digest", models.CharField(blank=True, max_length=64, verbose_name="checkpoint line hash")),
                ("breaks", models.JSONField(blank=True, default=list, verbose_name="breaks")),
            ],
            options={
                "verbose_name": "chain check",
                "verbose_name_plural": "chain checks",
                "ordering": ["-at", "-id"],
                "indexes": [models.Index(fields=["kind", "ok", "at"], name="chain_check_kind_time")],
            },
        ),
    ]
