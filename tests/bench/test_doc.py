"""`make bench` rewrites docs/benchmarks.md above its marker and keeps the measurements made by hand below it."""

from bench.management.commands import bench


def test_the_hand_made_sections_survive_a_rewrite(tmp_path, monkeypatch):
    doc = tmp_path / "benchmarks.md"
    doc.write_text(f"# Benchmarks\nold figures\n\n{bench.KEPT}\n\n## Lists by key\nplans\n", encoding="utf-8")
    monkeypatch.setattr(bench, "DOC", doc)
    assert bench.kept_sections() == f"\n{bench.KEPT}\n\n## Lists by key\nplans\n"


def test_a_document_without_the_marker_gets_one(tmp_path, monkeypatch):
    monkeypatch.setattr(bench, "DOC", tmp_path / "missing.md")
    assert bench.kept_sections() == f"\n{bench.KEPT}\n"


def test_the_engine_figure_is_the_median_pass_with_its_spread():
    """docs/benchmarks.md never presents the best pass as typical: the median, with the slowest and fastest."""
    from dealing.engine import bench as engine_bench

    row = engine_bench.measure("ochko", rounds=60)
    slowest, fastest = row["spread_from_dicts"]
    assert row["passes"] == engine_bench.PASSES
    assert slowest <= row["rounds_per_s_from_dicts"] <= fastest
    table = bench.render({"engine": [dict(row, rounds_per_s_pure_python=None)]})
    assert f"{row['rounds_per_s_from_dicts']:,} ({slowest:,}–{fastest:,})" in table
    assert "best of" not in table
