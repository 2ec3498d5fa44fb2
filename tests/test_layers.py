"""The layers hold: the core is pure rules, the services have no web, no module imports itself
round a cycle, and only ``dealer_assist/games/`` knows which games there are.

The imports are read from each module's syntax tree (``ast``), not by importing it, so a test
fails on the line that breaks a layer whether or not that line runs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dealer_assist.games.registry import all_games

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dealer_assist"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, *, type_checking: bool = False) -> set[str]:
    """Every module ``name`` imports when it runs (an ``if TYPE_CHECKING:`` block never
    does), at the top or inside a function, as absolute names; with ``type_checking``, also
    those it imports only for its types."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            found.add(base)
            # ``from dealer_assist.games import registry`` imports a module, not a name
            found.update(f"{base}.{alias.name}" for alias in node.names
                         if f"{base}.{alias.name}" in MODULES)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def internal_graph(*, type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (importing ``a.b.c`` runs ``a`` and ``a.b``
    first, but those are packages whose ``__init__`` the graph holds as their own nodes);
    with ``type_checking``, also those it imports only for its types."""
    return {name: {m for m in imports(name, type_checking=type_checking)
                   if m in MODULES and m != name} for name in MODULES}


def test_the_core_imports_no_web_storage_or_services() -> None:
    banned = ("dealer_assist.web", "dealer_assist.services", "flask", "flask_socketio",
              "sqlite3", "sqlite_utils", "socketio")
    wrong = sorted(
        (name, m) for name in MODULES if name.startswith("dealer_assist.core")
        for m in imports(name) if any(m == b or m.startswith(b + ".") for b in banned))
    assert not wrong, wrong


def test_the_core_imports_no_game() -> None:
    """Issue 21: the game interface (``core/game.py``) is the core's; the games plug in, and
    the table is given them by the services (a ``Catalogue``), as python-chess's core never
    imports its variants."""
    wrong = sorted(
        (name, m) for name in MODULES if name.startswith("dealer_assist.core")
        for m in imports(name)
        if m == "dealer_assist.games" or m.startswith("dealer_assist.games."))
    assert not wrong, wrong


def test_the_games_and_services_import_no_web() -> None:
    banned = ("dealer_assist.web", "flask", "flask_socketio", "socketio")
    wrong = sorted(
        (name, m) for name in MODULES
        if name.startswith(("dealer_assist.services", "dealer_assist.games"))
        for m in imports(name) if any(m == b or m.startswith(b + ".") for b in banned))
    assert not wrong, wrong


def test_storage_knows_no_rules_and_only_the_engines_know_their_drivers() -> None:
    """Issue 11: storage is rows and transactions (acting on a table is services/tables.py);
    issue 16: only storage (and backup, which copies a SQLite file) names a database driver,
    so the web and the CLI catch storage's own errors."""
    storage = {m for name in MODULES if name.startswith("dealer_assist.services.storage")
               for m in imports(name)}
    assert not {m for m in storage if m.startswith(("dealer_assist.core.table",
                                                    "dealer_assist.games"))}, storage
    assert "dealer_assist.core.table" in imports("dealer_assist.services.tables")
    drivers = ("sqlite3", "sqlite_utils", "psycopg")
    wrong = sorted(
        (name, m) for name in MODULES
        if not name.startswith(("dealer_assist.services.storage", "dealer_assist.services.backup"))
        for m in imports(name) if any(m == d or m.startswith(d + ".") for d in drivers))
    assert not wrong, wrong


def test_the_import_checker_sees_a_banned_import(tmp_path: Path) -> None:
    """The checks above can fail: a core module importing flask inside a function is found."""
    path = PACKAGE / "core" / "_layer_probe.py"
    path.write_text("def f():\n    import flask\n    from ..web import state\n", "utf-8")
    try:
        MODULES["dealer_assist.core._layer_probe"] = path
        assert imports("dealer_assist.core._layer_probe") == {
            "flask", "dealer_assist.web", "dealer_assist.web.state"}
    finally:
        del MODULES["dealer_assist.core._layer_probe"]
        path.unlink()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_the_modules() -> None:
    assert cycles(internal_graph()) == []


def test_no_import_cycles_even_through_imports_for_types() -> None:
    """Issue 29: no module imports a module that imports it back, directly or through others,
    even only for its types (``if TYPE_CHECKING:``): such a circle is modules that cannot be
    read, typed or changed one without the others, as the core's deal, game, phases, betting,
    blinds and setup were."""
    assert cycles(internal_graph(type_checking=True)) == []


def test_the_import_checker_sees_an_import_for_types() -> None:
    """The check above can fail: an import under ``if TYPE_CHECKING:`` counts there (and only
    there)."""
    path = PACKAGE / "core" / "_type_probe.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from dealer_assist.core import table\n", "utf-8")
    try:
        MODULES["dealer_assist.core._type_probe"] = path
        name = "dealer_assist.core._type_probe"
        assert imports(name) == {"typing"}
        assert imports(name, type_checking=True) == {
            "typing", "dealer_assist.core", "dealer_assist.core.table"}
    finally:
        del MODULES["dealer_assist.core._type_probe"]
        path.unlink()


def test_the_blueprints_never_import_the_web_factory() -> None:
    """flaskr's pattern: what the blueprints share is in ``web.extensions``; only the CLI
    (and the tests) import ``web.app``."""
    wrong = sorted(name for name in MODULES if name.startswith("dealer_assist.web.")
                   and name != "dealer_assist.web.app"
                   and "dealer_assist.web.app" in imports(name))
    assert wrong == []


# ------------------------------------------------------------------ only games/ names a game
SOURCES = sorted(
    [p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts[:1]]
    + list((ROOT / "static" / "js").glob("*.js"))
    + list((ROOT / "templates").glob("*.html"))
    + [p for p in PACKAGE.rglob("*") if p.suffix in (".js", ".html")]
)


def game_words() -> list[tuple[str, re.Pattern[str]]]:
    """What names a game: its display name anywhere (comments too), and its id as a quoted
    string. An id that is also the name of a state field a game declares (``kings_pot``, the
    API's name of that pot) is a field wherever it is quoted alone, so it counts only where it
    is compared with a variant."""
    fields = {f for game in all_games() for f in game.state_fields}
    words: list[tuple[str, re.Pattern[str]]] = []
    for game in all_games():
        words.append((game.name, re.compile(re.escape(game.name))))
        quoted = rf"""["']{re.escape(game.variant)}["']"""
        if game.variant in fields:
            words.append((game.variant, re.compile(rf"variant\W[^\n]*{quoted}")))
        else:
            words.append((game.variant, re.compile(quoted)))
    return words


def test_the_scan_covers_every_layer() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SOURCES}
    assert {"dealer_assist/core/table.py", "dealer_assist/web/state.py",
            "dealer_assist/services/history/view.py", "static/js/tablet.js",
            "templates/index.html"} <= names
    assert not any(n.startswith("dealer_assist/games/") for n in names)


# What a game carries of its own (issue 21): the king's pot, its king's hand, and the bank of
# 21 Hand Hold'em, by their words and by the keys the game gives them; outside games/ they are
# data (a place, a carried pot) that no file spells.
GAME_OWN = re.compile(r"""king'?s[ _-]?(pot|hand)|["']bank["']|\bbank_after\b""", re.I)
def names_a_game(text: str) -> list[str]:
    found = [f"line {text.count(chr(10), 0, m.start()) + 1}: {word}"
             for word, pattern in game_words() for m in pattern.finditer(text)]
    return found + [f"line {text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                    for m in GAME_OWN.finditer(text)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_outside_games_names_a_game(path: Path) -> None:
    found = names_a_game(path.read_text(encoding="utf-8"))
    assert not found, found


def test_the_scan_finds_what_a_game_carries() -> None:
    assert names_a_game('state.kings_pot_words; s["bank"]; "King\'s hand"; bank_after')
    assert not names_a_game("the banker holds what the table keeps; a bank of chips")


def test_the_game_scan_finds_a_name() -> None:
    sample = 'if state.variant === "kings_pot_optional" || variant == "kings_pot": // King\'s Pot'
    hits = [word for word, pattern in game_words() if pattern.search(sample)]
    assert {"kings_pot_optional", "kings_pot", "King's Pot"} <= set(hits)
    assert not [w for w, p in game_words() if p.search('state["kings_pot"] = 3')]
