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


@pytest.mark.timeout(1200)  # ~60 pages timed twice, the shoe pages reading their whole shoe
def test_bench_scale_one_shape_puts_every_round_in_one_table_shoe_and_day(monkeypatch, tmp_path):
    """Shape `one` (issue #33 item 5): every round at one table, in one shoe, on one day, and every
    page it times answers 200 at both sizes."""
    if connection.vendor != "postgresql":
        pytest.skip("bench-scale measures PostgreSQL (DATABASE_URL); its import runs in another process")
    from bench.scale import ONE_TABLE
    from dealing.models import Shoe

    monkeypatch.setenv("DATABASE_URL", current_database_url())
    results = scale_run(rounds=160, compare=80, repeat=1, workdir=tmp_path, shape="one", log=lambda line: None)
    assert sorted(results) == [80, 160]
    assert {name: row["status"] for name, row in results[160]["pages"].items() if row["status"] != 200} == {}
    assert results[160]["shape"] == "one"
    assert set(Round.objects.values_list("table__name", flat=True)) == {ONE_TABLE[0]}
    assert Shoe.objects.count() == 1 and Round.objects.filter(shoe__number=1).count() == 160
    assert len({played.date() for played in Round.objects.values_list("played_at", flat=True)}) == 1
    for name in ("stakes API page 1 (a plain GET)", "table page (its shoe now)", "incidents page", "audit runs"):
        assert name in results[160]["pages"]


def test_over_budget_names_the_slow_and_the_growing_pages():
    def page(p95, status=200, **more):
        return {"p50_ms": p95, "p95_ms": p95, "status": status, **more}

    small = {"flat": page(100), "slow": page(200), "grows": page(20), "gone": page(10), "csv": page(50)}
    big = {
        "flat": page(140),
        "slow": page(310),
        "grows": page(31),
        "gone": page(10, status=500),
        # A streamed export is judged by its first rows.
        "csv": page(900, first_rows_p50_ms=12, first_rows_p95_ms=12),
    }
    small["csv"].update(first_rows_p50_ms=10, first_rows_p95_ms=10)
    from bench.scale import over_budget

    over = over_budget({20_000: {"pages": small}, 200_000: {"pages": big}})
    assert over == {"slow": "p95 310 ms, ×1.55 of 200 ms", "grows": "×1.55 of 20 ms", "gone": "HTTP 500"}
    assert "Over the budget at 200,000" in report(
        {
            k: {
                **v,
                "import": {},
                "audit": {},
                "storage": {"database_bytes": 1, "bytes_per_round": 1, "largest_tables_mb": {}},
            }
            for k, v in {20_000: {"pages": small}, 200_000: {"pages": big}}.items()
        }
    )
