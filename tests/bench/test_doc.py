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
