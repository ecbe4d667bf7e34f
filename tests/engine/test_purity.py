"""The engine is a library: no Django, no database, no I/O of its own."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "dealing" / "engine"
FORBIDDEN = ("django", "rest_framework", "celery", "psycopg", "requests", "socket", "sqlite3")


def test_no_module_of_the_engine_imports_django_or_services():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(ENGINE)}:{node.lineno} imports {name}")
    assert offenders == []


def test_the_engine_and_its_cli_load_without_django():
    code = (
        "import sys; import dealing.engine as e; import dealing.engine.__main__; "
        "import dealing.engine.simulators, dealing.engine.shoe, dealing.engine.odds; "
        "[e.variant(v) for v in ('ochko',)]; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django was imported'"
    )
    root = ENGINE.parents[1]
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})
    assert result.returncode == 0, result.stderr
