"""One shape for every game package (DESIGN.md), visible lazy names, and no import cycles."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

import pyradice_lab
from pyradice_lab.engine import registry
from pyradice_lab.engine._lazy import ROLE_MODULES

PACKAGE = Path(pyradice_lab.__file__).parent


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_every_game_has_the_shared_role_modules(game):
    root = PACKAGE / game
    missing = [f"{m}.py" for m in ROLE_MODULES if not (root / f"{m}.py").is_file()]
    assert not missing, f"{game} lacks {missing}"
    assert sorted((root / "data").glob("*.toml")), f"{game} has no data/*.toml components"


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_public_names_are_listed_resolve_and_never_become_a_submodule(game):
    pkg = importlib.import_module(f"pyradice_lab.{game}")
    public = set(pkg.__all__)
    assert {"simulate_games", "play_game"} <= public <= set(dir(pkg))
    submodules = {p.stem for p in (PACKAGE / game).glob("*.py")} - {"__init__"}
    objects = {name for name in public if not isinstance(getattr(pkg, name), ModuleType)}  # every name resolves
    assert not objects & submodules, "a public function or class shares its name with a submodule"
    for m in sorted(submodules):  # importing a submodule binds it on the package: it must not replace a name
        importlib.import_module(f"pyradice_lab.{game}.{m}")
    assert [n for n in sorted(objects) if isinstance(getattr(pkg, n), ModuleType)] == []


def test_raft_calibrate_stays_a_function_after_its_module_is_imported():
    from pyradice_lab import raft
    from pyradice_lab.raft import calibration  # noqa: F401

    assert callable(raft.calibrate) and raft.calibrate.__name__ == "calibrate"


@pytest.mark.parametrize("game", registry.BUILTIN_GAMES)
def test_sweep_targets_live_in_the_games_sweeps_module(game):
    spec = registry.get_game(game)
    assert spec.sweeps
    for target in spec.sweeps.values():
        assert target.fn.target.startswith(f"pyradice_lab.{game}.sweeps:")


def import_graph() -> dict[str, set[str]]:
    """module -> package modules it imports (anywhere in the file, TYPE_CHECKING blocks included)."""
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    graph = {}
    for name, path in mods.items():
        pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                for alias in node.names:
                    if f"{mod}.{alias.name}" in mods:
                        deps.add(f"{mod}.{alias.name}")
                    elif mod in mods:
                        deps.add(mod)
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in mods}
        # a package's own __init__ is loaded before its modules: importing the parent is not an edge back
        graph[name] = {d for d in deps if d != name and not name.startswith(d + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
