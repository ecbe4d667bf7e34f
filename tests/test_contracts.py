"""The layer contracts (pyproject.toml, [tool.importlinter]) hold, and they would catch a breach.

`make test` runs lint-imports before pytest; this runs it too, so a plain pytest run fails when
an import crosses a layer. The second breaks each contract on purpose, in a copy of the
project, and expects lint-imports to say which import broke which contract.
"""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _lint(root: Path) -> subprocess.CompletedProcess:
    # No cache: the graph of the whole project builds in well under a second.
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=root, capture_output=True, text=True, timeout=120
    )


def test_the_layer_contracts_hold():
    assert {c["id"] for c in CONFIG["contracts"]} == {"layers", "engine-pure", "engine-bottom", "witness-apart"}
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 kept, 0 broken" in done.stdout


# One breach of each kind: (module, the import added to it, what lint-imports then says).
BREACHES = [
    ("casino/selectors.py", "from dealing import services", "casino is not allowed to import dealing"),
    ("dealing/services/rounds.py", "import audit.tasks", "dealing is not allowed to import audit"),
    ("ledger/selectors.py", "import drills.models", "ledger is not allowed to import drills"),
    ("dealing/engine/cards.py", "import django.db", "dealing.engine is not allowed to import django"),
    ("dealing/engine/base.py", "from dealing import models", "dealing.engine is not allowed to import dealing.models"),
    ("witness/store.py", "import django.conf", "witness is not allowed to import django"),
    ("witness/app.py", "from dealing import checkpoint_log", "witness is not allowed to import dealing"),
]


def test_crossing_imports_break_the_contracts(tmp_path):
    """In a copy of the root packages (their Python files) and pyproject.toml, all the breaches at
    once: one lint-imports run names every one of them."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for package in CONFIG["root_packages"]:
        shutil.copytree(
            ROOT / package,
            tmp_path / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "static", "templates", "locale"),
        )
    for module, line, _said in BREACHES:
        path = tmp_path / module
        path.write_text(path.read_text() + f"\n{line}  # a breach, on purpose\n")
    done = _lint(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "0 kept, 4 broken" in done.stdout, done.stdout
    for _module, _line, said in BREACHES:
        assert said in done.stdout, said
