"""The package's layers import one way: engine <- games <- design <- report <- cli/bench/web
(docs/architecture.md).

Every import of every module is checked, function-level and ``TYPE_CHECKING`` ones included, so a lazy
import cannot hide an upward arrow.  A game imports only :mod:`pyradice_lab.engine` (the result types, findings and
shared figure helpers live there: :mod:`~pyradice_lab.engine.results`, :mod:`~pyradice_lab.engine.findings`,
:mod:`~pyradice_lab.engine.figures`), never another game and never design/ or report/; :mod:`pyradice_lab.design` reaches the games only
through the registry.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pyradice_lab"
GAMES = ("purramid", "pyradice", "raft", "meerkat")
LAYERS = {"engine": 0, **dict.fromkeys(GAMES, 1), "design": 2, "report": 3, "cli": 4, "bench": 4, "web": 4, "": 4}
LAYER_NAMES = {0: "engine", 1: "games", 2: "design", 3: "report", 4: "cli/bench/web"}


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


def top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def upward(importer: str, imported: str) -> str | None:
    """Why ``importer`` may not import ``imported``, or None when the arrow points down (or sideways)."""
    a, b = top(importer), top(imported)
    if imported == "pyradice_lab" and importer != "pyradice_lab":
        return "imports the top-level package (use pyradice_lab.engine._version for the version)"
    la, lb = LAYERS[a], LAYERS[b]
    if la == 1 and lb == 1 and a != b:
        return f"game {a} imports game {b}"
    if la == 1 and lb > 1:
        return f"a game imports the {LAYER_NAMES[lb]} layer"
    if la == 2 and lb == 1:
        return "design imports a game (reach it through pyradice_lab.engine.registry)"
    if lb > la:
        return f"{LAYER_NAMES[la]} imports the {LAYER_NAMES[lb]} layer above it"
    return None


def all_arrows():
    for path in sorted(PACKAGE.rglob("*.py")):
        importer = module_name(path)
        for line, imported in imports(path):
            yield path, line, importer, imported


def test_every_module_is_in_a_layer():
    assert {top(module_name(p)) for p in PACKAGE.rglob("*.py")} <= set(LAYERS)


def test_no_import_runs_upward():
    bad = sorted({f"{importer} (line {line}) -> {imported}: {why}"
           for path, line, importer, imported in all_arrows()
           if (why := upward(importer, imported)) is not None})
    assert not bad, "upward imports:\n" + "\n".join(bad)


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
])
def test_the_rule_itself(importer, imported, allowed):
    assert (upward(importer, imported) is None) is allowed


def test_function_level_imports_are_seen(tmp_path, monkeypatch):
    src = "def f():\n    from ..report import build\n"
    fake = PACKAGE / "raft" / "_layer_probe.py"
    monkeypatch.setattr("pathlib.Path.read_text", lambda self, *a, **k: src)
    assert (2, "pyradice_lab.report.build") in imports(fake)
