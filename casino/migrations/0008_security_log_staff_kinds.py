"""The security log records the staff page's changes: people created, changed, deactivated and
reactivated, and second factors reset (casino/people)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0007_table_opened_at'),
    ]

    operations = [
        migrations.AlterField(
            model_name='securityevent',
            name='kind',
            field=models.CharField(choices=[('login', 'login'), ('logout', 'logout'), ('login_failed', 'login failed'), ('lockout', 'lockout'), ('unlock', 'unlock'), ('token_issued', 'token issued'), ('token_revoked', 'token revoked'), ('refusal', 'permission refused'), ('otp', 'second factor passed'), ('otp_failed', 'second factor failed'), ('otp_enrolled', 'second factor enrolled'), ('staff_created', 'staff member created'), ('staff_changed', 'staff member changed'), ('staff_deactivated', 'staff member deactivated'), ('staff_reactivated', 'staff member reactivated'), ('otp_reset', 'second factor reset')], db_index=True, max_length=20, verbose_name='kind'),
        ),
    ]
