"""Table and pit names are checked by casino.validators.FloorNameValidator (forms, the admin).

No change to the database: validators live in Python only, so every name stored before, even one
the validator now refuses, is kept as it is and its pages still render (dealing.converters); the
admin asks for a plain name the next time such a table or pit is edited.
"""

import casino.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('casino', '0002_role_groups'),
    ]

    operations = [
        migrations.AlterField(
            model_name='pit',
            name='name',
            field=models.CharField(max_length=60, unique=True, validators=[casino.validators.FloorNameValidator()],
                                   verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='table',
            name='name',
            field=models.CharField(max_length=60, unique=True, validators=[casino.validators.FloorNameValidator()],
                                   verbose_name='name'),
        ),
    ]
