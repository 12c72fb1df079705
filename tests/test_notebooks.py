"""The notebooks in docs/notebooks/ run in a real Jupyter kernel and produce their tables and figures.

Each percent-format source is converted with jupytext and executed by nbclient on an ipykernel kernel (the
``python3`` kernel of this interpreter), in a temporary working directory, with a per-cell time limit.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.py"))
CELL_TIMEOUT = 600  # seconds; a cold numba cache compiles the game kernels inside the first cells


def test_there_are_notebooks_and_each_is_percent_format_with_a_title():
    assert len(NOTEBOOKS) >= 2
    jupytext = pytest.importorskip("jupytext")
    for path in NOTEBOOKS:
        nb = jupytext.read(path)
        assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# "), path.name
        assert sum(c.cell_type == "code" for c in nb.cells) >= 2, path.name
        assert sum(c.cell_type == "markdown" for c in nb.cells) >= 2, f"{path.name}: explain the method and answer"
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert "set_xlabel(" in code and "set_ylabel(" in code, f"{path.name}: label the figure's axes"


def test_every_game_has_its_own_notebook():
    """Besides the cross-game ones, each registered game has a notebook of its own (named after it)."""
    from pyradice_lab.engine.registry import BUILTIN_GAMES

    own = {g: [p.name for p in NOTEBOOKS if p.stem.startswith(g + "_") or p.stem.endswith("_" + g)]
           for g in BUILTIN_GAMES}
    assert all(own.values()), f"games without a notebook in docs/notebooks: {[g for g, v in own.items() if not v]}"


def test_notebook_names_differ_from_the_experiments():
    """The site's gallery holds both folders: sphinx-gallery refuses two examples with one file name."""
    clash = {p.name for p in NOTEBOOKS} & {p.name for p in (ROOT / "experiments").glob("*.py")}
    assert not clash, f"rename these notebooks (an experiment has the name): {sorted(clash)}"


def test_the_notebooks_page_lists_every_notebook():
    index = (ROOT / "docs" / "notebooks" / "index.md").read_text(encoding="utf-8")
    missing = [p.name for p in NOTEBOOKS if f"]({p.name})" not in index]
    assert not missing, f"docs/notebooks/index.md does not list {missing}"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_a_real_kernel(path, tmp_path):
    jupytext = pytest.importorskip("jupytext")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = jupytext.read(path)
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError naming the cell on any error
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), f"{path.name}: no figure"
    assert any("text/html" in o.get("data", {}) and "<table" in o["data"]["text/html"] for o in outputs), (
        f"{path.name}: no table")


def _documented_execute_command() -> tuple[str, str]:
    """The page's ``jupytext --to ipynb --execute`` command: (the command as written, the notebook's name)."""
    index = (ROOT / "docs" / "notebooks" / "index.md").read_text(encoding="utf-8")
    m = re.search(r"`(\.venv/bin/jupytext --to ipynb --execute docs/notebooks/(\w+\.py))`", index)
    assert m, "docs/notebooks/index.md no longer shows the jupytext --execute command"
    return m.group(1), m.group(2)


@pytest.mark.slow
def test_the_documented_jupytext_execute_command_runs(tmp_path):
    """The command docs/notebooks/index.md gives, run as written (on a copy: it writes the .ipynb beside it)."""
    pytest.importorskip("nbconvert")  # the docs extra installs it; jupytext executes through it
    command, name = _documented_execute_command()
    jupytext = Path(sys.executable).with_name("jupytext")
    argv = [str(jupytext)] if jupytext.exists() else [sys.executable, "-m", "jupytext"]
    argv += command.split()[1:-1] + [f"docs/notebooks/{name}"]
    (tmp_path / "docs" / "notebooks").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "notebooks" / name, tmp_path / "docs" / "notebooks" / name)
    res = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    nb = json.loads((tmp_path / "docs" / "notebooks" / name).with_suffix(".ipynb").read_text(encoding="utf-8"))
    outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    assert outputs and not [o for o in outputs if o["output_type"] == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the executed notebook has no figure"
