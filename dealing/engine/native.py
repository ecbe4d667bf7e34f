"""The engine compiled to C with mypyc, used only while it matches its Python source.

    python -m dealing.engine native build    # compile (make install does it); needs mypy and a C compiler
    python -m dealing.engine native status   # whether a new process would import it, and why
    python -m dealing.engine native clean    # remove the compiled modules

The Python source stays the engine's one definition: mypyc compiles the same files, typed as
they are, into extension modules next to them (about twice the rounds a second). The build
records the SHA-256 of every source it compiled; `guard()`, run by the package before it
imports anything, keeps the compiled modules only when every one of those sources is unchanged
— otherwise (or with ENGINE_PURE=1) every engine module is imported from its `.py`, so an edit
is never shadowed by a stale build. No module here imports Django or mypy at import time.
"""

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = "dealing.engine"
HERE = Path(__file__).resolve().parent
# The modules that replay, settle and audit rounds, by their names below the engine (a game's
# package and each of its modules); the CLI, the game registry and each game's simulator, odds and
# math (its wing's simulator/, odds.py, math/) stay Python.
MODULES = (
    "errors",
    "paths",
    "money",
    "cards",
    "findings",
    "sentences",
    "document",
    "base",
    "loop",
    "ochko",
    "ochko.rules",
    "ochko.table",
    "ochko.sentences",
    "ochko.events",
    "ochko.replay",
    "blackjack",
    "blackjack.rules",
    "blackjack.table",
    "blackjack.sentences",
    "blackjack.events",
    "blackjack.replay",
    "veintiuno",
    "veintiuno.rules",
    "veintiuno.sentences",
    "veintiuno.events",
    "veintiuno.replay",
    "shoe",
    # Game protection (issue 38): a player's year is evaluated on every page view and API call
    # and the nightly scan counts every shoe, so the count, the evaluation and each wing's part
    # of them are compiled too; the wings' game math they read stays Python.
    "protection",
    "evaluation",
    "blackjack.count",
    "blackjack.evaluation",
    "ochko.count",
    "ochko.evaluation",
)
GROUP = f"{PACKAGE}._native"  # mypyc's shared library: dealing/engine/_native__mypyc.*.so
MANIFEST = HERE / "_native.json"
PURE_ENV = "ENGINE_PURE"


class _State:
    checked = False
    compiled = False
    why = "not checked yet"


def _source(module: str) -> Path:
    """A module's source: "ochko.rules" -> ochko/rules.py; a package, "ochko" -> ochko/__init__.py."""
    path = HERE.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def source_digest(module: str) -> str:
    return hashlib.sha256(_source(module).read_bytes()).hexdigest()


def built_extension(module: str) -> Path | None:
    stem = str(_source(module).with_suffix(""))  # mypyc builds ochko/__init__.<tag>.so for a package
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = Path(stem + suffix)
        if path.exists():
            return path
    return None


def check() -> tuple[bool, str]:
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False, f"{PURE_ENV} is set"
    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, "not built (python -m dealing.engine native build)"
    if built.get("python") != sys.implementation.cache_tag:
        return False, f"built for {built.get('python')}, this is {sys.implementation.cache_tag}"
    for module in MODULES:
        if built_extension(module) is None:
            return False, f"{module}: no compiled module"
        if built.get("sources", {}).get(module) != source_digest(module):
            return False, f"{_source(module).relative_to(HERE).as_posix()} changed since the build"
    return True, "every source unchanged since the build"


class SourceFirst:
    """A meta path finder that imports the engine's modules (and game packages) from their .py files."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        module = fullname[len(PACKAGE) + 1 :] if fullname.startswith(PACKAGE + ".") else None
        if module not in MODULES:
            return None
        source = _source(module)
        if source.name == "__init__.py":
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[str(source.parent)]
            )
        return importlib.util.spec_from_file_location(fullname, source)


class _PythonBelowCompiled:
    """A meta path finder for the Python modules inside a compiled game package (a game's math,
    odds and simulator live in its folder, beside its compiled rules): mypyc gives a compiled
    package a `__path__` of its own making that the standard finder cannot search. For the same
    reason it finds a game package's compiled modules that its `__init__` does not import itself
    (the count and the evaluation, which the registry imports by name)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        module = fullname[len(PACKAGE) + 1 :] if fullname.startswith(PACKAGE + ".") else None
        if module is None or module.split(".")[0] not in MODULES:
            return None
        if module in MODULES:
            built = built_extension(module) if "." in module else None
            return importlib.util.spec_from_file_location(fullname, built) if built is not None else None
        source = HERE.joinpath(*module.split("."))
        if (source / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, source / "__init__.py", submodule_search_locations=[str(source)]
            )
        if source.with_suffix(".py").is_file():
            return importlib.util.spec_from_file_location(fullname, source.with_suffix(".py"))
        return None


def guard() -> bool:
    """Decide once, before the first engine module is imported: compiled, or all from source."""
    if not _State.checked:
        _State.compiled, _State.why = check()
        _State.checked = True
        finder = _PythonBelowCompiled if _State.compiled else SourceFirst
        if not any(isinstance(f, finder) for f in sys.meta_path):
            sys.meta_path.insert(0, finder())
    return _State.compiled


def implementation() -> str:
    """What the engine runs as, for benchmarks and `status`."""
    return ("compiled with mypyc" if _State.compiled else "pure Python") + f" ({_State.why})"


# --- the build ------------------------------------------------------------------------------------


def build() -> None:
    """Compile MODULES with mypyc in place and write the manifest of their sources."""
    import tempfile

    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    root = HERE.parent.parent
    clean()
    sources = {module: source_digest(module) for module in MODULES}
    with tempfile.TemporaryDirectory(prefix="engine-native-") as tmp:
        cwd = os.getcwd()
        os.chdir(root)  # mypyc names modules by their paths from the project root
        try:
            extensions = mypycify(
                [_source(m).relative_to(root).as_posix() for m in MODULES],
                opt_level="3",
                group_name=GROUP,
                target_dir=os.path.join(tmp, "c"),
            )
            setup(
                name="dealing-engine-native",
                ext_modules=extensions,
                packages=[],
                py_modules=[],
                script_args=[
                    "--quiet",
                    "build_ext",
                    "--inplace",
                    "--build-temp",
                    os.path.join(tmp, "temp"),
                    "--build-lib",
                    os.path.join(tmp, "lib"),
                ],
            )
        finally:
            os.chdir(cwd)
    if any(source_digest(m) != sources[m] for m in MODULES):
        raise SystemExit("an engine source changed during the build; build again")
    MANIFEST.write_text(
        json.dumps({"python": sys.implementation.cache_tag, "sources": sources}, indent=1) + "\n", encoding="utf-8"
    )


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in HERE.rglob(f"*{suffix}"):
            path.unlink()
