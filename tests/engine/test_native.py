"""The engine compiled with mypyc answers exactly as its Python source does, and is never stale.

`make install` builds the compiled modules (`python -m dealing.engine native build`); the rest
of the suite then runs on them, and this file compares them, byte for byte, with the pure-Python
engine (ENGINE_PURE=1) on clean, mistaken and randomly broken logs of every variant.
"""

import copy
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from dealing import engine
from dealing.engine import native
from dealing.engine.__main__ import to_json
from dealing.engine.simulators import simulate

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"

COMPILED, WHY = native.check()
needs_build = pytest.mark.skipif(
    not COMPILED, reason=f"the compiled engine is not built here ({WHY}); make install builds it"
)


def _settle_lines(lines: list[str], *, pure: bool) -> list[str]:
    env = dict(os.environ)
    env.pop(native.PURE_ENV, None)
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "dealing.engine", "settle", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=600,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines()


def _break(doc: dict, rng: random.Random) -> dict:
    """One random edit of the kinds a careless or dishonest log has."""
    doc = copy.deepcopy(doc)
    events = doc["events"]
    k = rng.randrange(len(events))
    how = rng.choice(("drop", "swap", "repeat", "amount", "card", "result", "box", "field"))
    if how == "drop":
        del events[k]
    elif how == "swap":
        k = min(k, len(events) - 2)
        events[k], events[k + 1] = events[k + 1], events[k]
    elif how == "repeat":
        events.insert(k, copy.deepcopy(events[k]))
    else:
        with_key = {"amount": "amount", "card": "card", "result": "e", "box": "box", "field": "stake"}[how]
        candidates = [ev for ev in events if with_key in ev]
        if candidates:
            ev = rng.choice(candidates)
            ev[with_key] = rng.choice(
                {
                    "amount": [100, 250, "7.5", 0, -100, "1e2", True],
                    "card": ["AS", "TH", "6C", "XX", "as", 7],
                    "e": ["pay", "take", "leave", "hit", "stand", "nope"],
                    "box": [1, 2, 6, 9, "3", None],
                    "stake": ["1a", "2a", "zz", 3],
                }[with_key]
            )
    return doc


def _corpus(per_variant: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for variant in engine.VARIANTS:
        for sim in simulate(variant, per_variant, seed=seed):
            lines.append(to_json(sim.doc))
            lines.append(to_json(_break(sim.doc, rng)))
        for sim in simulate(variant, per_variant, seed=seed + 1, mistake_rate=1.0):
            lines.append(to_json(sim.doc))
    for path in sorted(GOLDEN.rglob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(case, dict) and isinstance(case.get("round"), dict):
            lines.append(json.dumps(case["round"], ensure_ascii=False))
    return lines


@needs_build
@pytest.mark.slow
def test_compiled_and_pure_engines_give_the_same_answers():
    lines = _corpus(per_variant=400, seed=7)
    assert len(lines) > 3000
    compiled = _settle_lines(lines, pure=False)
    pure = _settle_lines(lines, pure=True)
    assert len(compiled) == len(pure) == len(lines)
    differ = [k for k, (a, b) in enumerate(zip(compiled, pure)) if a != b]
    assert not differ, (
        f"{len(differ)} rounds differ, e.g. line {differ[0]}:\n{lines[differ[0]]}\n"
        f"compiled: {compiled[differ[0]]}\npure: {pure[differ[0]]}"
    )
    # The corpus exercises both outcomes: settled rounds with findings and refused documents.
    assert any('"findings":[{' in line for line in pure)
    assert any('"error"' in line for line in pure)


@needs_build
def test_this_process_runs_the_compiled_engine():
    from dealing.engine import ochko

    assert native.guard() is True
    assert Path(ochko.__file__).suffix != ".py"
    assert native.implementation().startswith("compiled")


@needs_build
def test_a_compiled_game_package_still_imports_the_python_modules_of_its_folder():
    # mypyc gives a compiled package a __path__ the standard finder cannot search; a game's math,
    # odds and simulator are plain Python beside its compiled rules.
    code = (
        "from pathlib import Path; from dealing.engine import games, native;"
        "print(native.implementation());"
        "print(*sorted({Path(getattr(games, slot)(name).__file__).suffix"
        " for name in ('ochko', 'blackjack', 'veintiuno') for slot in ('math', 'simulator')}))"
    )
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    first, second = done.stdout.splitlines()
    assert first.startswith("compiled")
    assert second == ".py"


def test_pure_mode_imports_every_module_from_its_source():
    code = (
        "from pathlib import Path; import dealing.engine as e; from dealing.engine import native, ochko, base;"
        "print(native.implementation()); print(Path(ochko.__file__).suffix, Path(base.__file__).suffix)"
    )
    env = dict(os.environ, **{native.PURE_ENV: "1"})
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    first, second = done.stdout.splitlines()
    assert first.startswith("pure Python") and native.PURE_ENV in first
    assert second == ".py .py"


def test_a_changed_source_is_never_shadowed_by_its_stale_build(monkeypatch, tmp_path):
    manifest = tmp_path / "_native.json"
    sources = {module: native.source_digest(module) for module in native.MODULES}
    manifest.write_text(json.dumps({"python": sys.implementation.cache_tag, "sources": sources}))
    monkeypatch.setattr(native, "MANIFEST", manifest)
    monkeypatch.setattr(native, "built_extension", lambda module: Path(f"/built/{module}.so"))
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.check() == (True, "every source unchanged since the build")

    sources["ochko"] = "0" * 64  # what the build saw is not what is on disk now
    manifest.write_text(json.dumps({"python": sys.implementation.cache_tag, "sources": sources}))
    assert native.check() == (False, "ochko/__init__.py changed since the build")

    manifest.write_text(json.dumps({"python": "cpython-99", "sources": sources}))
    assert native.check()[0] is False
    manifest.unlink()
    assert native.check()[0] is False


def test_source_first_finder_serves_only_the_compiled_modules():
    finder = native.SourceFirst()
    spec = finder.find_spec("dealing.engine.ochko")
    assert spec is not None and spec.origin.endswith("ochko/__init__.py")
    assert spec.submodule_search_locations  # a game's package: its modules are served from source too
    spec = finder.find_spec("dealing.engine.ochko.events")
    assert spec is not None and spec.origin.endswith("ochko/events.py")
    assert finder.find_spec("dealing.engine.simulators") is None
    assert finder.find_spec("dealing.models") is None
