"""No code outside a game's own folders switches on a game's name (docs/games.md): what is
particular to a game is asked of the registries (`dealing.games.get(variant)` and its slots,
`dealing.engine.variant(name)`), so a fourth game is two folders, its templates and the registry
lines, and no shared module grows a branch for it.

The scan reads every module of the project (its syntax tree, not its text) and fails on
- a comparison with a game's name: `variant == "ochko"`, `!= Variant.BLACKJACK`, `in ("ochko", ...)`;
- a `match` case on a game's name;
- a dict keyed by games' names alone (`{"ochko": ..., "blackjack": ...}`), a switch by another name.
Where a game may be named: its two folders (dealing/games/<game>/ and dealing/engine/<game>/),
the variant choices (casino/choices.py), the registries, migrations and the tests. A game's name
as data (a demo floor's tables, an example document, a message) is not a switch and is not flagged.
"""

import ast
import re
from pathlib import Path

import pytest

from casino.choices import Variant
from dealing import games

ROOT = Path(__file__).resolve().parents[2]
APPS = ("audit", "bench", "books", "casino", "dealing", "drills", "gamemath", "ledger", "live")
REGISTRIES = {"dealing/games/__init__.py", "dealing/engine/games.py", "casino/choices.py"}

# Modules that still switch on a game, each with what takes it away; the test fails when one no
# longer does (take its line out then).
PENDING: dict[str, str] = {}


def game_names() -> set[str]:
    return set(Variant.values) | {g.variant for g in games.all_games()}


def _members() -> set[str]:
    return {name for name in Variant.names}


def _is_game(node, names, members) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in names
    if isinstance(node, ast.Attribute):
        return node.attr in members
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_game(e, names, members) for e in node.elts)
    return False


def switches(source: str, names: set[str], members: set[str]) -> list[tuple[int, str]]:
    """(line, code) of every switch on a game's name in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_is_game(x, names, members) for x in [node.left, *node.comparators]):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.match_case) and any(
            isinstance(p, ast.MatchValue) and _is_game(p.value, names, members) for p in ast.walk(node.pattern)
        ):
            found.append((node.pattern.lineno, ast.unparse(node.pattern)))
        elif (
            isinstance(node, ast.Dict)
            and len(node.keys) >= 2
            and all(k is not None and _is_game(k, names, members) for k in node.keys)
        ):
            found.append((node.lineno, ast.unparse(node)[:80]))
    return found


def _allowed(rel: str, names: set[str]) -> bool:
    parts = rel.split("/")
    if rel in REGISTRIES or "migrations" in parts:
        return True
    if parts[:2] == ["dealing", "games"] and len(parts) > 3 and parts[2] in names:
        return True  # a game's wing
    if parts[:2] == ["dealing", "engine"] and len(parts) > 3 and parts[2] in names:
        return True  # a game's engine package
    return False


def modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            yield path.relative_to(ROOT).as_posix(), path


def test_no_module_outside_the_wings_switches_on_a_game():
    names, members = game_names(), _members()
    found = {}
    for rel, path in modules():
        if _allowed(rel, names) or rel in PENDING:
            continue
        hits = switches(path.read_text(encoding="utf-8"), names, members)
        if hits:
            found[rel] = hits
    assert not found, "switches on a game's name outside its wing (ask the registry instead):\n" + "\n".join(
        f"  {rel}:{line}: {code}" for rel, hits in found.items() for line, code in hits
    )


@pytest.mark.parametrize("rel", sorted(PENDING))
def test_each_pending_module_still_switches(rel):
    """An entry of PENDING whose switch has gone is taken out of it, so the list only shrinks."""
    assert switches((ROOT / rel).read_text(encoding="utf-8"), game_names(), _members()), (
        f"{rel} no longer switches on a game: take it out of PENDING"
    )


@pytest.mark.parametrize(
    "source",
    [
        'if variant == "ochko":\n    pass\n',
        "x = table.variant != Variant.BLACKJACK\n",
        'ok = doc["variant"] in ("blackjack", "veintiuno")\n',
        'KEYS = {"blackjack": 1, "veintiuno": 2}\n',
        'match variant:\n    case "veintiuno":\n        pass\n',
    ],
)
def test_the_scan_finds_a_switch(source):
    assert switches(source, game_names(), _members())


@pytest.mark.parametrize(
    "source",
    [
        'TABLE = ("R-1", "ochko", 6)\n',  # data, not a switch
        'if found.tag == "blackjack_hand":\n    pass\n',
        'WORDS = {"blackjack": "a natural", "pair of aces": "two aces"}\n',  # a hand's words, not games
        "if strategy.house_rules_of(variant):\n    pass\n",
    ],
)
def test_the_scan_leaves_data_and_registry_questions_alone(source):
    assert not switches(source, game_names(), _members())


# --- templates ------------------------------------------------------------------------------------

TAG = re.compile(r"{%\s*(?:if|elif)\b(.*?)%}", re.S)


def template_switches(source: str, names: set[str]) -> list[str]:
    """The `{% if %}` / `{% elif %}` tags of a template that compare with a game's name."""
    quoted = "|".join(re.escape(n) for n in sorted(names))
    compare = re.compile(rf"""(?:==|!=|\bin)\s*\(?\s*["'](?:{quoted})["']|["'](?:{quoted})["']\s*(?:==|!=|\bin\b)""")
    return [tag.group(0) for tag in TAG.finditer(source) if compare.search(tag.group(1))]


def test_no_shared_template_switches_on_a_game():
    """A game's own templates carry its name in their path (round_form_<game>.html, gamemath/<game>…);
    every other template asks the registry (a game's words, its terminal keys) or the variant choices."""
    names = game_names()
    found = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        rel = path.relative_to(ROOT).as_posix()
        if any(name in rel for name in names):
            continue
        hits = template_switches(path.read_text(encoding="utf-8"), names)
        if hits:
            found[rel] = hits
    assert not found, "templates switching on a game's name (ask the registry instead):\n" + "\n".join(
        f"  {rel}: {hit}" for rel, hits in found.items() for hit in hits
    )


@pytest.mark.parametrize(
    "source",
    [
        '{% if table.variant == "ochko" %}x{% endif %}',
        "{% elif 'blackjack' == v %}",
        '{% if q.variant != "veintiuno" %}',
    ],
)
def test_the_template_scan_finds_a_switch(source):
    assert template_switches(source, game_names())


def test_the_template_scan_leaves_data_alone():
    assert not template_switches('<option value="ochko">21 Ochko</option>{% if q.variant == value %}', game_names())


def test_no_shared_script_switches_on_a_game():
    """The same for the project's scripts: a shared one reads what the game's form or page says
    (data attributes from its wing), never the game's name; vendored files are not ours."""
    names = game_names()
    quoted = "|".join(re.escape(n) for n in sorted(names))
    compare = re.compile(rf"""[!=]==?\s*["'](?:{quoted})["']|["'](?:{quoted})["']\s*[!=]==?""")
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("static/**/*.js")):
            rel = path.relative_to(ROOT).as_posix()
            if "vendor" in rel or any(name in path.name for name in names):
                continue
            hits = [m.group(0) for m in compare.finditer(path.read_text(encoding="utf-8"))]
            if hits:
                found[rel] = hits
    assert not found, f"scripts switching on a game's name: {found}"
