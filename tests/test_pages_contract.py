"""One experiment/page split in every game: ``<game>/analysis.py`` (and its private ``_analysis_*.py`` modules) runs
the experiments and returns data and findings, never a figure; ``<game>/pages.py`` draws them and builds the report
section, the only module of a game package that imports matplotlib."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from pyradice_lab.engine import registry

GAMES = sorted(registry.games())


def _package_dir(game: str) -> Path:
    return Path(importlib.import_module(registry.get_game(game).package).__file__).parent


def _imports_matplotlib(path: Path) -> list[int]:
    """Lines of ``path`` importing matplotlib (at module or function level)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        if any(n == "matplotlib" or n.startswith("matplotlib.") for n in names):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("game", GAMES)
def test_analysis_modules_import_no_matplotlib(game):
    root = _package_dir(game)
    modules = [root / "analysis.py", *sorted(root.glob("_analysis_*.py"))]
    assert modules[0].is_file(), f"{game} has no analysis.py"
    found = {m.name: _imports_matplotlib(m) for m in modules}
    assert not any(found.values()), f"{game}: matplotlib imported by {found}"


@pytest.mark.parametrize("game", GAMES)
def test_only_the_pages_module_draws(game):
    root = _package_dir(game)
    drawing = sorted(p.name for p in root.glob("*.py") if p.name != "pages.py" and _imports_matplotlib(p))
    assert drawing == [], f"{game}: only pages.py may import matplotlib, also {drawing}"


@pytest.mark.parametrize("game", GAMES)
def test_pages_module_builds_the_section(game):
    spec = registry.get_game(game)
    pages = spec.module("pages")
    assert callable(pages.report_section)
    assert spec.report_section.target == f"{spec.package}.pages:report_section"
    if spec.report_parts:
        assert callable(pages.join_parts)
        assert spec.report_join.target == f"{spec.package}.pages:join_parts"
    old = importlib.import_module(f"{spec.package}.report")  # the old module name: the same module object
    assert old is pages


@pytest.mark.parametrize("game", GAMES)
def test_running_the_experiments_loads_no_matplotlib(game):
    """At run time too: importing a game's analysis (and the result types it returns) neither imports matplotlib
    nor chooses its backend, so a notebook that imports it keeps its inline figures (the stored Meerkat tile-pay
    notebook lost its figure when engine/results.py forced the Agg backend on import)."""
    import subprocess
    import sys

    package = registry.get_game(game).package
    code = (f"import sys, importlib; importlib.import_module({package + '.analysis'!r}); "
            "import pyradice_lab.engine.results; print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False", f"{package}.analysis imports matplotlib"
