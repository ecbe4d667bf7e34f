"""The engine is a library: no Django, no database, no I/O of its own."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "dealing" / "engine"
ROOT = ENGINE.parents[1]
PACKAGE = "dealing.engine"
FORBIDDEN = ("django", "rest_framework", "celery", "psycopg", "requests", "socket", "sqlite3")


def _package_of(path: Path) -> list[str]:
    """The package a module's relative imports start from: dealing/engine/ochko/replay.py -> dealing.engine.ochko."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1]  # a package's __init__ is in its own package, a module in its parent's


def _imported(path: Path, node: ast.AST) -> list[str]:
    """The absolute names an import statement brings in (relative ones resolved)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level == 0:
        return [node.module or ""]
    package = _package_of(path)
    base = package[: len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
    head = ".".join(base + ([node.module] if node.module else []))
    # `from . import x` may import the module `x`: name it too, so that it is checked like the rest.
    return [head] + [f"{head}.{a.name}" for a in node.names] if not node.module else [head]


def _engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_walk_sees_every_engine_module_and_subpackage():
    found = {p.relative_to(ENGINE).as_posix() for p in _engine_modules()}
    assert {
        "__init__.py",
        "loop.py",
        "games.py",
        "simulators/__init__.py",
        "simulators/injection.py",
        "odds/__init__.py",
    } <= found
    for directory in {p.parent for p in _engine_modules()}:
        assert (directory / "__init__.py").exists(), f"{directory} is not a package"


def test_no_module_of_the_engine_imports_django_or_services():
    offenders = []
    for path in _engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for name in _imported(path, node):
                where = f"{path.relative_to(ENGINE)}:{getattr(node, 'lineno', '?')} imports {name}"
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(where)
                elif (
                    isinstance(node, ast.ImportFrom)
                    and node.level
                    and not (name == PACKAGE or name.startswith(PACKAGE + "."))
                ):
                    offenders.append(where + " (a relative import that leaves the engine)")
                elif name.startswith("dealing.") and not name.startswith(PACKAGE + ".") and name != PACKAGE:
                    offenders.append(where + " (the Django side of the project)")
    assert offenders == []


def test_a_relative_import_out_of_the_engine_is_seen():
    path = ENGINE / "ochko" / "replay.py"  # where it would be; the file itself is not read here
    node = ast.parse("from ...services import round_record").body[0]
    assert _imported(path, node) == ["dealing.services"]
    node = ast.parse("from .. import loop").body[0]
    assert _imported(path, node) == ["dealing.engine", "dealing.engine.loop"]
    node = ast.parse("from . import hands").body[0]
    assert _imported(ENGINE / "ochko" / "__init__.py", node) == ["dealing.engine.ochko", "dealing.engine.ochko.hands"]


def test_the_engine_and_its_cli_load_without_django():
    # Every module of the engine (subpackages included) and every registered game's modules.
    code = (
        "import importlib, pkgutil, sys; import dealing.engine as e; from dealing.engine import games; "
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(e.__path__, 'dealing.engine.')]; "
        "[(e.variant(g), games.simulator(g), games.get(g).odds and games.odds(g)) for g in e.VARIANTS]; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django was imported'"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
