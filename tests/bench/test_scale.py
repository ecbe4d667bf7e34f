"""`make bench-scale` small (ROUNDS=200 after 100): the floor's rounds generated, imported by
`import_rounds` in a process of its own, audited, and every page it times answers 200 at both sizes."""

import pytest
from django.db import connection

from bench.scale import DEALERS, TABLES, report, scale_run
from dealing import services
from dealing.chain import CHECKPOINTS
from dealing.models import Round, Stake
from tests.conftest import current_database_url

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_bench_scale_small_imports_audits_and_times_every_page(monkeypatch, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("bench-scale measures PostgreSQL (DATABASE_URL); its import runs in another process")
    from audit.models import Finding

    monkeypatch.setenv("DATABASE_URL", current_database_url())
    lines = []
    results = scale_run(rounds=200, compare=100, repeat=1, workdir=tmp_path, log=lines.append)
    assert sorted(results) == [100, 200]
    for size, result in results.items():
        assert result["import"]["summary"] == "100 stored, 0 already stored, 0 refused", result["import"]
        assert result["storage"]["rounds"] == size and result["storage"]["bytes_per_round"] > 0
        assert {name: row["status"] for name, row in result["pages"].items() if row["status"] != 200} == {}
    assert Round.objects.count() == 200 and Stake.objects.count() > 200
    assert {r.table.name for r in Round.objects.select_related("table")} == {name for name, *_ in TABLES}
    assert {r.dealer.username for r in Round.objects.select_related("dealer")} <= set(DEALERS)
    assert Round.objects.filter(shoe__isnull=True).count() == 0
    assert Finding.objects.exists()  # audited (5% of the rounds carry a mistake)
    # Every link verifies. (The import process signed its checkpoints in a directory of its own:
    # tests/settings.py gives each process a temporary CHECKPOINT_DIR, so this one finds none.)
    report_ = services.chain_verify()
    assert report_.records == 200
    assert [b for b in report_.breaks if b.relation != CHECKPOINTS] == []
    table = report(results)
    assert "| findings page 1 |" in table and "bytes per round" in table
    assert "| shift report (400 rounds) |" in table and "| a dealer's performance and pace (365 days) |" in table
    # A streamed download is timed to its first rows too.
    assert "first_rows_p95_ms" in results[200]["pages"]["findings CSV export (streamed, whole)"]


def test_bench_scale_clone_reaches_n_with_consistent_rollups(monkeypatch, tmp_path):
    """`--clone`: 100 imported and audited rounds copied in SQL to 300; the rollups are what a
    rebuild gives for the copied rounds, every sequence stays unique, and the pages answer."""
    if connection.vendor != "postgresql":
        pytest.skip("the clone is PostgreSQL SQL")
    from audit import rollups
    from audit.models import Finding, Rollup

    monkeypatch.setenv("DATABASE_URL", current_database_url())
    results = scale_run(rounds=300, compare=100, repeat=1, workdir=tmp_path, clone=True, log=lambda line: None)
    assert results[300]["clone"]["copies"] == 3
    assert Round.objects.count() == 300 and Finding.objects.filter(round__isnull=False).count() % 3 == 0
    assert rollups.differences() == []
    assert len(set(Round.objects.values_list("uid", flat=True))) == 300
    assert len({r.document["id"] for r in Round.objects.all()}) == 300
    for name, *_ in TABLES:
        rows = list(
            Round.objects.filter(table__name=name)
            .order_by("logged_at", "pk")
            .values_list("pk", "table_round", "chain_index")
        )
        assert [r[1] for r in rows] == sorted({r[1] for r in rows})  # increasing with time, no repeat
        assert [r[0] for r in rows] == sorted(r[0] for r in rows)  # ids grow with time, as logged
    days = sorted(set(Rollup.objects.values_list("day", flat=True)))
    assert len(days) == 3 and (days[1] - days[0]).days == 3
    assert {name: row["status"] for name, row in results[300]["pages"].items() if row["status"] != 200} == {}
    # Only each table's newest shoe is open.
    from dealing.models import Shoe

    assert Shoe.objects.filter(ended_at__isnull=True).values("table").distinct().count() <= len(TABLES)
    assert Shoe.objects.filter(ended_at__isnull=True).count() <= len(TABLES)
