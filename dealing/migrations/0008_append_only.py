"""Append-only rounds (issue #16 item 1): a round and its stakes are written once and never updated.

The audit's verdict moves out of the round into `RoundAudit` (one row per round, written only by
audit/state.py), and an approved correction becomes a `Supersession` row appended with its approval;
a round's `status` is derived from those facts (dealing/models.py). The existing values move here:
each round's audit columns to its RoundAudit row, each superseded round to a Supersession naming
the approved correction that replaced it and the approval that approved it.
"""

import django.db.models.deletion
from django.db import migrations, models


def _move(apps, schema_editor):
    Round = apps.get_model("dealing", "Round")
    RoundAudit = apps.get_model("dealing", "RoundAudit")
    Supersession = apps.get_model("dealing", "Supersession")
    Approval = apps.get_model("dealing", "Approval")
    batch = []
    for pk, status, audited_at, version in (Round.objects.order_by("pk")
                                           .values_list("pk", "audit_status", "audited_at", "engine_version")
                                           .iterator(chunk_size=5000)):
        batch.append(RoundAudit(round_id=pk, status=status, audited_at=audited_at, engine_version=version or ""))
        if len(batch) == 5000:
            RoundAudit.objects.bulk_create(batch)
            batch = []
    RoundAudit.objects.bulk_create(batch)
    # An approved correction is one whose pit boss's approval says so (its status was recorded, or
    # superseded by a later one); the round it corrects is the one it superseded.
    for approval in (Approval.objects.filter(round__isnull=False, decision="approved").order_by("link")
                     .select_related("round")):
        amendment = approval.round
        if amendment.supersedes_id is None:
            continue
        Supersession.objects.create(superseded_id=amendment.supersedes_id, superseding_id=amendment.pk,
                                    approval=approval, at=approval.decided_at)


def _back(apps, schema_editor):
    Round = apps.get_model("dealing", "Round")
    RoundAudit = apps.get_model("dealing", "RoundAudit")
    Supersession = apps.get_model("dealing", "Supersession")
    Approval = apps.get_model("dealing", "Approval")
    for row in RoundAudit.objects.iterator(chunk_size=5000):
        Round.objects.filter(pk=row.round_id).update(audit_status=row.status, audited_at=row.audited_at,
                                                     engine_version=row.engine_version)
    Round.objects.filter(supersedes__isnull=False).update(status="pending")
    for approval in Approval.objects.filter(round__isnull=False, decision="rejected"):
        Round.objects.filter(pk=approval.round_id).update(status="rejected")
    for s in Supersession.objects.all():
        Round.objects.filter(pk=s.superseding_id).update(status="recorded")
    for s in Supersession.objects.all():
        Round.objects.filter(pk=s.superseded_id).update(status="superseded")


class Migration(migrations.Migration):

    dependencies = [
        ('dealing', '0007_round_table_round'),
        # The rollups are filled from the rounds' audit columns before this migration moves them.
        ('audit', '0005_rollups'),
    ]

    operations = [
        migrations.CreateModel(
            name='RoundAudit',
            fields=[
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='audit', serialize=False, to='dealing.round', verbose_name='round')),
                ('status', models.CharField(choices=[('pending', 'not audited yet'), ('clean', 'clean'), ('findings', 'findings'), ('error', 'error')], default='pending', max_length=20, verbose_name='audit')),
                ('audited_at', models.DateTimeField(blank=True, null=True, verbose_name='audited at')),
                ('engine_version', models.CharField(blank=True, max_length=20, verbose_name='engine version')),
            ],
            options={
                'verbose_name': 'round audit',
                'verbose_name_plural': 'round audits',
            },
        ),
        migrations.CreateModel(
            name='Supersession',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('at', models.DateTimeField(verbose_name='at')),
            ],
            options={
                'verbose_name': 'supersession',
                'verbose_name_plural': 'supersessions',
                'ordering': ['-at', '-id'],
            },
        ),
        migrations.AddIndex(
            model_name='roundaudit',
            index=models.Index(condition=models.Q(('status', 'pending')), fields=['round'], name='round_audit_pending'),
        ),
        migrations.AddField(
            model_name='supersession',
            name='approval',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='supersession', to='dealing.approval', verbose_name='approval'),
        ),
        migrations.AddField(
            model_name='supersession',
            name='superseded',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='superseded_by', to='dealing.round', verbose_name='superseded round'),
        ),
        migrations.AddField(
            model_name='supersession',
            name='superseding',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='supersession', to='dealing.round', verbose_name='correction in force'),
        ),
        migrations.RunPython(_move, _back),
        migrations.RemoveIndex(
            model_name='round',
            name='round_audit_status',
        ),
        migrations.RemoveField(
            model_name='round',
            name='audit_status',
        ),
        migrations.RemoveField(
            model_name='round',
            name='audited_at',
        ),
        migrations.RemoveField(
            model_name='round',
            name='engine_version',
        ),
        migrations.RemoveField(
            model_name='round',
            name='status',
        ),
    ]
