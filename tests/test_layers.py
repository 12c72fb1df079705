"""The package's layers import one way: engine <- games <- design <- report <- cli/bench/web
(docs/architecture.md).

Every import of every module is checked, function-level and ``TYPE_CHECKING`` ones included, so a lazy
import cannot hide an upward arrow; so is every string import (``importlib.import_module("pyradice_lab.x")``,
``lazy("pyradice_lab.x:f")``, a ``"pyradice_lab.x:f"`` target handed to a bench helper), and an f-string that names a
game package (``f"pyradice_lab.{game}.sim"``) imports a game: only :mod:`pyradice_lab.engine.registry` reaches a game
by name (``spec.module(role)``, ``spec.part(role)``), and design/, report/, web/, the CLI and bench.py hold no game's
name outside docstrings and comments.  A game imports only :mod:`pyradice_lab.engine` (the result types, findings and
shared figure helpers live there: :mod:`~pyradice_lab.engine.results`, :mod:`~pyradice_lab.engine.findings`,
:mod:`~pyradice_lab.engine.figures`), never another game and never design/ or report/; :mod:`pyradice_lab.design` reaches the games only
through the registry.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pyradice_lab.engine.registry import BUILTIN_GAMES

PACKAGE = Path(__file__).resolve().parents[1] / "pyradice_lab"
GAMES = BUILTIN_GAMES
LAYERS = {"engine": 0, **dict.fromkeys(GAMES, 1), "design": 2, "report": 3, "cli": 4, "bench": 4, "web": 4, "": 4}
LAYER_NAMES = {0: "engine", 1: "games", 2: "design", 3: "report", 4: "cli/bench/web"}
#: the one module that imports a game by name (string imports of ``<package>.<role>``)
REGISTRY = "pyradice_lab.engine.registry"
#: calls whose first argument is a module (or a ``module:function`` target) imported by name
STRING_IMPORTERS = {"import_module", "__import__", "lazy", "jit_disabled", "cold_start", "warm_start", "peak_rss",
                    "fresh_process"}
#: a ``module:function`` target of the package (lazy, the bench helpers, sweep targets)
TARGET = re.compile(r"pyradice_lab(\.\w+)*:\w+(\.\w+)*")
#: what ``imports`` calls an f-string naming a game package (``f"pyradice_lab.{game}..."``)
ANY_GAME = "pyradice_lab.<game>"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """``(line, absolute module)`` of every import in ``path``, ``from . import x`` as the module ``pkg.x``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:  # a name may be a submodule: count it as one when its file exists
                sub = f"{mod}.{a.name}"
                is_sub = (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    PACKAGE.parent / Path(*sub.split(".")) / "__init__.py").exists()
                out.append((node.lineno, sub if is_sub else mod))
    return [(line, m) for line, m in out if m == "pyradice_lab" or m.startswith("pyradice_lab.")]


def docstrings(tree: ast.AST) -> set[int]:
    """``id`` of every string constant that is a docstring (or any other bare string statement)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _fstring_module(node: ast.JoinedStr) -> str | None:
    """The module an f-string names: ``ANY_GAME`` for ``f"pyradice_lab.{game}..."``, ``pyradice_lab.x`` for
    ``f"pyradice_lab.x.{name}"``, None when it does not start with the package."""
    head = node.values[0] if node.values else None
    if not (isinstance(head, ast.Constant) and isinstance(head.value, str) and len(node.values) > 1):
        return None
    prefix = head.value
    if prefix == "pyradice_lab.":
        return ANY_GAME
    if prefix.startswith("pyradice_lab.") and ":" not in prefix:
        return prefix.rstrip(".")
    return None


def string_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every string import in ``path``: a string (or f-string) given to
    :data:`STRING_IMPORTERS`, a ``pyradice_lab...:function`` target anywhere but in a docstring, and an f-string
    naming a game package anywhere (module :data:`ANY_GAME`)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docs = docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in STRING_IMPORTERS and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append((node.lineno, arg.value.partition(":")[0]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if TARGET.fullmatch(node.value):
                out.append((node.lineno, node.value.partition(":")[0]))
        elif isinstance(node, ast.JoinedStr) and (mod := _fstring_module(node)) is not None:
            out.append((node.lineno, mod))
    return sorted({(line, m) for line, m in out if m == "pyradice_lab" or m.startswith("pyradice_lab.")})


def top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer(top_name: str) -> int:
    """The layer of a top-level module or package (the CLI's private ``_cli_*`` modules are the CLI's, the
    bench's ``_bench_*`` the bench's)."""
    return 4 if top_name.startswith(("_cli", "_bench")) else LAYERS[top_name]


def upward(importer: str, imported: str) -> str | None:
    """Why ``importer`` may not import ``imported``, or None when the arrow points down (or sideways)."""
    if imported == ANY_GAME:
        return None if importer == REGISTRY else "imports a game by a name built at run time (use the registry)"
    a, b = top(importer), top(imported)
    if imported == "pyradice_lab" and importer != "pyradice_lab":
        return "imports the top-level package (use pyradice_lab.engine._version for the version)"
    la, lb = layer(a), layer(b)
    if la == 1 and lb == 1 and a != b:
        return f"game {a} imports game {b}"
    if la == 1 and lb > 1:
        return f"a game imports the {LAYER_NAMES[lb]} layer"
    if la == 2 and lb == 1:
        return "design imports a game (reach it through pyradice_lab.engine.registry)"
    if lb > la:
        return f"{LAYER_NAMES[la]} imports the {LAYER_NAMES[lb]} layer above it"
    return None


def by_name(importer: str, imported: str) -> str | None:
    """Why the string import ``importer`` -> ``imported`` is refused (beyond :func:`upward`): a game is reached by
    name only by the registry and by its own package."""
    why = upward(importer, imported)
    if why is not None or imported == ANY_GAME:
        return why
    game = top(imported)
    if layer(game) == 1 and importer != REGISTRY and top(importer) != game:
        return "imports a game by name (reach it through pyradice_lab.engine.registry)"
    return None


def all_arrows(strings: bool = False):
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        for line, imported in (string_imports(path) if strings else imports(path)):
            yield path, line, importer, imported


def test_every_module_is_in_a_layer():
    tops = {top(module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert {t for t in tops if not t.startswith(("_cli", "_bench"))} <= set(LAYERS)


def test_no_import_runs_upward():
    bad = sorted({f"{importer} (line {line}) -> {imported}: {why}"
           for path, line, importer, imported in all_arrows()
           if (why := upward(importer, imported)) is not None})
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_no_string_import_runs_upward_or_reaches_a_game_by_name():
    bad = sorted({f"{importer} (line {line}) -> {imported}: {why}"
                  for path, line, importer, imported in all_arrows(strings=True)
                  if (why := by_name(importer, imported)) is not None})
    print("string imports refused:\n" + "\n".join(bad))
    assert not bad, "string imports refused:\n" + "\n".join(bad)


#: where no game is named (docstrings and comments aside): everything above the games
NAMELESS = ("design", "report", "web", "cli.py", "_cli*.py", "bench.py", "_bench*.py")
_LAB = re.compile(r"pyradice[-_]lab", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+")


def game_names(path: Path) -> list[tuple[int, str]]:
    """``(line, string)`` of every string constant in ``path`` that is not a docstring and names a game (one of its
    words, case aside, is a game's name; the package's own name ``pyradice_lab`` / ``pyradice-lab`` is not one)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docs = docstrings(tree)
    games = {g.lower() for g in GAMES}
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                  and games & {w.lower() for w in _WORD.findall(_LAB.sub(" ", node.value))})


def nameless_files() -> list[Path]:
    files = []
    for pattern in NAMELESS:
        hit = sorted(PACKAGE.glob(pattern))
        files += [f for p in hit for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]
    return files


def test_no_game_is_named_above_the_games():
    bad = [f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}" for path in nameless_files()
           for line, text in game_names(path)]
    print(f"{len(bad)} string constants naming a game:\n" + "\n".join(bad))
    assert not bad, f"{len(bad)} string constants naming a game:\n" + "\n".join(bad)


def test_the_name_rule_itself(tmp_path, monkeypatch):
    src = ('"""Docstrings may name purramid."""\n'
           'X = {"meerkat": 1}  # a comment may name raft\n'
           'def f():\n    """pyradice too."""\n    return "pyradice-lab games", "Rocking Raft", "pyradice_lab.raft.sim"\n')
    monkeypatch.setattr("pathlib.Path.read_text", lambda self, *a, **k: src)
    assert game_names(PACKAGE / "report" / "_probe.py") == [(2, "meerkat"), (5, "Rocking Raft"),
                                                            (5, "pyradice_lab.raft.sim")]
    assert {p.name for p in nameless_files()} >= {"cli.py", "bench.py", "build.py", "strength.py"}


def test_string_imports_are_seen(monkeypatch):
    src = ('import importlib\n'
           'def f(game, spec):\n'
           '    importlib.import_module(f"pyradice_lab.{game}.sim")\n'
           '    importlib.import_module("pyradice_lab.meerkat.kernel")\n'
           '    lazy("pyradice_lab.report.strength:game_part")\n'
           '    T = {"x": ("pyradice_lab.design.strength:ladder", 1)}\n'
           '    importlib.import_module(f"{spec.package}.sim")\n'
           '    return "pyradice_lab.compile"\n')
    monkeypatch.setattr("pathlib.Path.read_text", lambda self, *a, **k: src)
    assert string_imports(PACKAGE / "report" / "_probe.py") == [
        (3, ANY_GAME), (4, "pyradice_lab.meerkat.kernel"), (5, "pyradice_lab.report.strength"),
        (6, "pyradice_lab.design.strength")]


@pytest.mark.parametrize(("importer", "imported", "allowed"), [
    ("pyradice_lab.engine.registry", ANY_GAME, True),
    ("pyradice_lab.design.compare", ANY_GAME, False),
    ("pyradice_lab.report.build", "pyradice_lab.report.strength", True),
    ("pyradice_lab.report.proposals", "pyradice_lab.meerkat.components", False),
    ("pyradice_lab.meerkat.bench", "pyradice_lab.meerkat.kernel", True),
    ("pyradice_lab.engine.assumptions", "pyradice_lab.raft.sim", False),
])
def test_the_string_rule_itself(importer, imported, allowed):
    assert (by_name(importer, imported) is None) is allowed


@pytest.mark.parametrize(("importer", "imported", "allowed"), [
    ("pyradice_lab.meerkat.analysis", "pyradice_lab.engine.results", True),
    ("pyradice_lab.meerkat.analysis", "pyradice_lab.report.build", False),
    ("pyradice_lab.raft.cli", "pyradice_lab.cli", False),
    ("pyradice_lab.raft.sim", "pyradice_lab.meerkat.rules", False),
    ("pyradice_lab.design.compare", "pyradice_lab.raft.sim", False),
    ("pyradice_lab.design.compare", "pyradice_lab.engine.registry", True),
    ("pyradice_lab.engine.sweep", "pyradice_lab", False),
    ("pyradice_lab.engine.sweep", "pyradice_lab.design.balance", False),
    ("pyradice_lab.report.checks", "pyradice_lab.design.robustness", True),
    ("pyradice_lab.cli", "pyradice_lab.report.build", True),
    ("pyradice_lab._cli_strength", "pyradice_lab.design.strength", True),
    ("pyradice_lab.report.strength", "pyradice_lab._cli_designer", False),
])
def test_the_rule_itself(importer, imported, allowed):
    assert (upward(importer, imported) is None) is allowed


def test_function_level_imports_are_seen(tmp_path, monkeypatch):
    src = "def f():\n    from ..report import build\n"
    fake = PACKAGE / "raft" / "_layer_probe.py"
    monkeypatch.setattr("pathlib.Path.read_text", lambda self, *a, **k: src)
    assert (2, "pyradice_lab.report.build") in imports(fake)
