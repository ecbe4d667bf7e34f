"""The roles are Django groups; this creates them so every database has the same five."""

from django.db import migrations

# Spelled out rather than imported from casino.roles: a migration must keep meaning what it
# meant when it was written.
ROLE_GROUPS = ("dealer", "inspector", "pit_boss", "auditor", "trainee")


def create_role_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


def delete_role_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name__in=ROLE_GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("casino", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_role_groups, delete_role_groups),
    ]
