"""Every model change has its migration."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_models_and_migrations_agree():
    # Exits (SystemExit 1) when a migration is missing.
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())
