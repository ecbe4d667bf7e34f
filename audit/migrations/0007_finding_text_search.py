"""The findings' text filter served by a trigram index on PostgreSQL (audit/filters.py, SearchText).

`UPPER((message || ' ' || code || ' ' || stake)::text)` is what the filter's `icontains` compiles
to on PostgreSQL, so the index matches it; ANALYZE then keeps statistics of the expression, which
the planner needs to choose between walking the newest findings (a common word) and reading the
index (a rare one). Built CONCURRENTLY (outside a transaction): the audit keeps writing findings
while a large table is indexed. pg_trgm is a trusted extension: the database's owner may create it. SQLite has
neither; there the filter scans, as it always did.
"""

from django.db import migrations

INDEX = ("CREATE INDEX CONCURRENTLY IF NOT EXISTS finding_text_trgm ON audit_finding USING gin "
         "(UPPER((message || ' ' || code || ' ' || stake)::text) gin_trgm_ops)")


def _create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(INDEX)


def _drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX CONCURRENTLY IF EXISTS finding_text_trgm")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('audit', '0006_rollup_initial_wagers_sq'),
    ]

    operations = [migrations.RunPython(_create, _drop, elidable=False)]
