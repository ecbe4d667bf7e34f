"""No module reaches for another module's private names (issue 30, item 4).

A leading underscore says "mine": a name only its own module uses. Every .py of the project (the
apps, bench, the tests, manage.py) is parsed with `ast` and these are refused when `_name` belongs
to another module of the project:

- `from x import _name` (relative imports included),
- `x._name` where `x` is a project module bound by an import (`import a.b`, `import a.b as x`,
  `from a import b`, at any depth of the file), also through a chain (`a.b._name`);
- `C._name` where `C` is a class imported from the module that defines it (`from a import C`);
- the same names given as strings: `setattr(x, "_name", ...)`, `getattr`, `hasattr`, `delattr`,
  `monkeypatch.setattr(x, "_name", ...)` and `monkeypatch.setattr("a.b._name", ...)` (a test
  patches what the module publishes as its seam, not its internals).

Dunder names (`__version__`, `__all__`) are public, and so are Django's documented `_meta`,
`_default_manager` and `_base_manager` of a model. What another module needs is made public in its
module (renamed without the underscore), or moved where both may import it; a test reads what the
code under test publishes. Names of other libraries are not this check's business.

`ALLOW` held the offences left while other changes rewrote their files (`file:name`, one a line);
it is empty now. An entry no longer found fails the test too, so it could only shrink.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "casino",
    "dealing",
    "audit",
    "drills",
    "ledger",
    "gamemath",
    "books",
    "bench",
    "notifications",
    "live",
    "witness",
    "tests",
)

ALLOW: set[str] = set()


# A model's options and managers: Django's public API despite the underscore.
DJANGO_PUBLIC = {"_meta", "_default_manager", "_base_manager"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


_classes: dict[str, set[str]] = {}


def _classes_of(module: str) -> set[str]:
    """The classes a project module defines at its top level."""
    if module not in _classes:
        base = ROOT.joinpath(*module.split("."))
        source = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        tree = ast.parse(source.read_text(encoding="utf-8")) if source.is_file() else ast.Module(body=[])
        _classes[module] = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    return _classes[module]


def _files() -> list[Path]:
    files = [ROOT / "manage.py"]
    for package in PACKAGES:
        files += sorted(p for p in (ROOT / package).rglob("*.py") if "node_modules" not in p.parts)
    return files


def _module_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _is_module(dotted: str) -> bool:
    """A module or package of the project (a file, or a folder of them)."""
    if dotted.split(".")[0] not in PACKAGES:
        return False
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or base.is_dir()


def _absolute(path: Path, node: ast.ImportFrom) -> str:
    """The module a `from ... import` reads from, relative imports resolved."""
    if node.level == 0:
        return node.module or ""
    package = _module_of(path) if path.name == "__init__.py" else _module_of(path)[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _dotted(node: ast.AST) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for anything but names and attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


ATTR_CALLS = {"setattr", "getattr", "hasattr", "delattr"}


def _string_arg(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def offences(path: Path, source: str | None = None) -> list[tuple[int, str, str]]:
    """(line, private name, what) for each private name of another project module that `path` uses
    (`source`: the file's text, read from `path` if not given)."""
    if source is None:
        source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    own = ".".join(_module_of(path))
    found: list[tuple[int, str, str]] = []
    modules: dict[str, str] = {}  # a name bound in this file -> the project module it is
    classes: dict[str, str] = {}  # a name bound in this file -> the project class it is (module.Class)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_module(alias.name):
                    if alias.asname:
                        modules[alias.asname] = alias.name
                    else:
                        modules[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(path, node)
            if not _is_module(source) or source == own:
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append((node.lineno, alias.name, f"from {source} import {alias.name}"))
                elif _is_module(f"{source}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{source}.{alias.name}"
                elif alias.name in _classes_of(source):
                    classes[alias.asname or alias.name] = f"{source}.{alias.name}"

    def module_of(chain: list[str] | None) -> str | None:
        """The project module a name or attribute chain is (`a.b` bound by an import), or None."""
        if not chain or chain[0] not in modules:
            return None
        module = modules[chain[0]]
        for part in chain[1:]:
            if not _is_module(f"{module}.{part}"):
                return None
            module = f"{module}.{part}"
        return module

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in ATTR_CALLS:
                target = _string_arg(node.args[0])
                if target is not None and "." in target:  # monkeypatch.setattr("a.b._name", value)
                    module, _, attr = target.rpartition(".")
                    if _private(attr) and _is_module(module) and module != own:
                        found.append((node.lineno, attr, target))
                elif len(node.args) > 1:
                    attr = _string_arg(node.args[1])
                    chain = _dotted(node.args[0])
                    module = module_of(chain)
                    if attr and _private(attr):
                        if module and module != own:
                            found.append((node.lineno, attr, f"{module}.{attr}"))
                        elif chain and len(chain) == 1 and chain[0] in classes and attr not in DJANGO_PUBLIC:
                            found.append((node.lineno, attr, f"{classes[chain[0]]}.{attr}"))
            continue
        if not isinstance(node, ast.Attribute) or not _private(node.attr):
            continue
        chain = _dotted(node.value)
        if chain and len(chain) == 1 and chain[0] in classes and node.attr not in DJANGO_PUBLIC:
            found.append((node.lineno, node.attr, f"{classes[chain[0]]}.{node.attr}"))
            continue
        module = module_of(chain)  # `a.b._x` reads `_x` of the module a.b
        if module and module != own:
            found.append((node.lineno, node.attr, f"{module}.{node.attr}"))
    return found


def _all_offences() -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        for line, name, what in offences(path):
            result.setdefault(f"{rel}:{name}", []).append(f"{rel}:{line}: {what}")
    return result


def test_the_check_sees_each_form_of_reaching_in():
    probe = ROOT / "tests" / "books" / "probe.py"  # never written: its text is given
    source = (
        "import dealing.engine\n"
        "import casino.db as db\n"
        "from dealing import engine\n"
        "from dealing.apis import common\n"
        "from dealing.apis.common import _raw_body, errors\n"
        "from . import conftest\n"
        "from .conftest import _helper\n"
        "from collections import _OrderedDictKeysView\n"
        "from dealing.models import Round\n"
        "from dealing.services.chain_link import Link\n"
        "x = dealing.engine._secret, db._lock, engine.__version__, common._user, conftest._private\n"
        "y = errors.__name__, db.one_of\n"
        "z = Round._meta, Round.objects, Link._NAME_AT\n"
        "monkeypatch.setattr(common, '_user', None)\n"
        "monkeypatch.setattr('dealing.hooks._subscribers', [])\n"
        "setattr(Link, '_rows', {}), getattr(db, 'one_of'), hasattr(engine, '__all__'), setattr(self, '_x', 1)\n"
    )
    seen = {(line, name) for line, name, _ in offences(probe, source)}
    assert seen == {
        (5, "_raw_body"),
        (7, "_helper"),
        (11, "_secret"),
        (11, "_lock"),
        (11, "_user"),
        (11, "_private"),
        (13, "_NAME_AT"),
        (14, "_user"),
        (15, "_subscribers"),
        (16, "_rows"),
    }


def test_no_module_uses_another_modules_private_names():
    found = _all_offences()
    new = {key: where for key, where in found.items() if key not in ALLOW}
    assert not new, "private names of another module (make them public or move them):\n" + "\n".join(
        line for lines in new.values() for line in lines
    )
    fixed = sorted(ALLOW - set(found))
    assert not fixed, "no longer found, strike them out of ALLOW: " + ", ".join(fixed)
