"""The gallery's answers: every experiment run once at its quick size, kept in ``docs/results/<experiment>/``.

The gallery pages show each experiment's figure, findings and table without running anything while the site
builds: this script runs ``experiments/<name>.py --quick`` (in a fresh interpreter each) and keeps what the
page needs, small enough to commit:

- ``<result>.png`` -- the figure, reduced to a 128-colour palette (a few tens of kB);
- ``<result>.csv`` -- the table the report prints (its compact ``display`` table where it has one), the first
  :data:`ROWS` rows, numbers to 4 significant digits;
- ``manifest.json`` -- the key, the command, the seconds it took, and per result its title, question,
  method, finding sentences and the number of rows the full table had.

An experiment's key is a SHA-256 over the code of the script and of every file it depends on
(:func:`dependency_files`): the files of ``pyradice_lab`` it reaches through imports
(:func:`pyradice_lab.engine._sources.dependency_files`, the dependency walk behind the sweep cache and numba's
cache) and, for a game it names but reaches through the registry (``balance("meerkat", ...)``), that game's
files.  Each file counts by :func:`~pyradice_lab.engine._sources.code_digest`: comments, the module docstring
and blank lines are not code, so editing them marks no page stale; an edit of one game's code marks only the
pages that use that game.  Names are relative to the checkout, so every clone of a commit has the same keys
(no path, modification time or cache state enters them).  ``make docs`` runs this script first: it re-runs
only the experiments whose key changed (all 34 experiments and 5 notebooks from nothing: about 5 minutes on
idle cores, the sum of the ``seconds`` the manifests record).  ``tests/test_docs_results.py`` fails when a
stored key differs from the current code's, naming the pages, so every commit of ``main`` shows current pages.

The notebooks (``docs/notebooks/*.py``) are executed the same way, in a real Jupyter kernel (jupytext +
nbclient, as ``tests/test_notebooks.py`` does): ``docs/results/notebooks/<notebook>/`` keeps each code cell's
figures (palette PNG), HTML tables and printed text (at most :data:`TEXT_LINES` lines), and their notebook
pages show them under the cell.

Usage::

    python docs/results.py             # re-run the stale experiments
    python docs/results.py --check     # list the stale ones, exit 1 if any (runs nothing)
    python docs/results.py --only raft_start_player --force

Examples
--------
>>> import results
>>> len(results.experiment_key(results.EXPERIMENTS / "raft_start_player.py"))
64
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
EXPERIMENTS = ROOT / "experiments"
RESULTS = DOCS / "results"
#: rows of each table kept for the page
ROWS = 8
#: lines of a notebook cell's printed text kept for the page
TEXT_LINES = 30
NOTEBOOKS = DOCS / "notebooks"
NOTEBOOK_RESULTS = RESULTS / "notebooks"
#: the games whose experiments are gallery pages (docs/gallery_source.py groups them by this prefix)
GAMES = ("purramid", "pyradice", "raft", "meerkat")
_KEY_VERSION = "pyradice_lab-docs-results/2"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def gallery_experiments() -> list[Path]:
    """The experiment scripts that are gallery pages (``experiments/<game>_*.py``), sorted."""
    return sorted(p for g in GAMES for p in EXPERIMENTS.glob(f"{g}_*.py"))


def _named_games(script: Path) -> set[str]:
    """The games an experiment names: its file-name prefix (``raft_...``) and every game name written as a
    string in it (``balance("meerkat", ...)`` reaches the game through the registry, not an import)."""
    text = script.read_text(encoding="utf-8", errors="replace")
    named = {g for g in GAMES if script.stem.startswith(g + "_")}
    return named | {g for g in GAMES if f'"{g}"' in text or f"'{g}'" in text}


def dependency_files(script: str | os.PathLike) -> list[Path]:
    """The files an experiment's results depend on: the script, every file of ``pyradice_lab`` it reaches
    through imports (:func:`pyradice_lab.engine._sources.dependency_files`: the files of the modules it
    imports, followed recursively, and the ``data/`` files of their packages), and, for each game it names but
    does not import (it reaches it through the registry), that game package's files and what they import.
    Only an experiment that reaches no game either way depends on every file of the package."""
    from pyradice_lab.engine import _sources

    script = Path(script).resolve()
    package = _sources.PACKAGE_DIR
    files = set(_sources.dependency_files(script))
    reached = {g for g in GAMES if any((package / g) in f.parents for f in files)}
    missing = _named_games(script) - reached
    for g in sorted(missing):
        for module in sorted((package / g).rglob("*.py")):
            if "__pycache__" not in module.parts:
                files.update(_sources.dependency_files(module))
    if not reached and not missing:
        files |= {f for f in package.rglob("*") if f.is_file() and "__pycache__" not in f.parts
                  and f.suffix in (".py", ".toml")}
    return sorted(files)


def experiment_key(script: str | os.PathLike) -> str:
    """SHA-256 (hex) of the code of the script and of every file it depends on (:func:`dependency_files`):
    each file's :func:`~pyradice_lab.engine._sources.code_digest` (comments, module docstrings and blank
    lines do not count) under its name relative to the checkout (see the module docstring)."""
    from pyradice_lab.engine import _sources

    script = Path(script).resolve()
    entries = []
    for f in dependency_files(script):
        if _sources.in_package(f):
            name = "pyradice_lab/" + f.relative_to(_sources.PACKAGE_DIR).as_posix()
        else:  # the script itself: its name, wherever the checkout is
            name = f.name
        entries.append((name, _sources.code_digest(f)))
    h = hashlib.sha256(_KEY_VERSION.encode() + b"\n")
    for name, digest in sorted(entries):  # by name, not by absolute path: the same key in every checkout
        h.update(name.encode() + b"\0" + digest.encode() + b"\n")
    return h.hexdigest()


def notebooks() -> list[Path]:
    """The notebooks (``docs/notebooks/*.py``), sorted."""
    return sorted(NOTEBOOKS.glob("*.py"))


def load_manifest(name: str, root: Path = RESULTS) -> dict | None:
    """The stored ``manifest.json`` of experiment (or, with ``root=NOTEBOOK_RESULTS``, notebook) ``name``
    (None if it has not been run)."""
    path = root / name / "manifest.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def status(kind: str = "experiments") -> dict[str, str]:
    """experiment (``kind="notebooks"``: notebook) name -> ``"fresh"`` (stored under the current key),
    ``"stale"`` or ``"missing"``."""
    out = {}
    scripts, root = (gallery_experiments(), RESULTS) if kind == "experiments" else (notebooks(), NOTEBOOK_RESULTS)
    for script in scripts:
        m = load_manifest(script.stem, root)
        out[script.stem] = "missing" if m is None else ("fresh" if m.get("key") == experiment_key(script)
                                                        else "stale")
    return out


def _publish(stage: Path, manifest: dict, target: Path) -> None:
    """Write ``manifest.json`` into the staging folder and swap it in for ``target`` (readers never see a
    half-written result folder)."""
    (stage / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    os.chmod(stage, 0o755)  # mkdtemp folders are owner-only
    if target.exists():
        shutil.rmtree(target)
    os.replace(stage, target)


# ------------------------------------------------------------------------ the child: one experiment
def _child(script: str, out: str) -> None:
    """Run ``script --quick --out out`` in this interpreter and write ``out/records.json``: what each saved
    result looked like (title, question, method, findings, the shown table)."""
    import runpy

    import matplotlib

    matplotlib.use("Agg")
    from pyradice_lab.engine.findings import render
    from pyradice_lab.report import runner

    records = []
    save = runner.save_experiment

    def recording_save(result, root="reports"):
        paths = save(result, root)
        shown = result.display if getattr(result, "display", None) is not None else result.table
        folder = Path(root) / result.name
        shown.head(ROWS).to_csv(folder / "_shown.csv", index=False, float_format="%.4g")
        records.append({"name": result.name, "title": result.title, "question": result.question or "",
                        "method": result.method or "", "findings": [render(f) for f in result.findings],
                        "rows": int(len(shown)), "figure": "png" in paths})
        return paths

    runner.save_experiment = recording_save
    sys.argv = [script, "--quick", "--out", out]
    runpy.run_path(script, run_name="__main__")
    (Path(out) / "records.json").write_text(json.dumps(records), encoding="utf-8")


def _small_png(src: Path, dst: Path) -> None:
    """The figure as a 128-colour palette PNG on white (the same pixels, a third of the bytes or less)."""
    from PIL import Image

    im = Image.open(src)
    if im.mode in ("RGBA", "LA"):
        back = Image.new("RGB", im.size, "white")
        back.paste(im, mask=im.split()[-1])
        im = back
    buf = io.BytesIO()
    im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(buf, "PNG", optimize=True)
    dst.write_bytes(buf.getvalue())


def run_one(script: Path) -> dict:
    """Run one experiment at its quick size and store its page material; return the manifest."""
    key = experiment_key(script)
    with tempfile.TemporaryDirectory(prefix="pyradice_docs_results_") as tmp:
        env = dict(os.environ, MPLBACKEND="Agg")
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(script), tmp],
                           env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - t0
        if p.returncode != 0:
            raise RuntimeError(f"{script.name} --quick failed:\n{p.stderr[-3000:]}")
        records = json.loads((Path(tmp) / "records.json").read_text(encoding="utf-8"))
        stage = Path(tempfile.mkdtemp(prefix=f".{script.stem}-", dir=RESULTS))
        try:
            for r in records:
                folder = Path(tmp) / r["name"]
                shutil.copy(folder / "_shown.csv", stage / f"{r['name']}.csv")
                if r["figure"]:
                    _small_png(folder / f"{r['name']}.png", stage / f"{r['name']}.png")
            manifest = {"experiment": script.stem, "key": key,
                        "command": f"python experiments/{script.name} --quick",
                        "seconds": round(seconds, 1), "results": records}
            _publish(stage, manifest, RESULTS / script.stem)
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
    return manifest


def run_notebook(path: Path) -> dict:
    """Execute one notebook in a Jupyter kernel and store its cells' outputs; return the manifest."""
    import base64

    import jupytext
    import nbclient

    key = experiment_key(path)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    NOTEBOOK_RESULTS.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{path.stem}-", dir=NOTEBOOK_RESULTS))
    try:
        with tempfile.TemporaryDirectory(prefix="pyradice_docs_nb_") as tmp:
            nb = jupytext.read(path)
            t0 = time.perf_counter()
            nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                    resources={"metadata": {"path": tmp}}).execute()
            seconds = time.perf_counter() - t0
        cells = []
        for k, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
            outs = []
            for j, o in enumerate(cell.get("outputs", [])):
                data = o.get("data", {})
                if "image/png" in data:
                    name = f"{path.stem}_{k}_{j}.png"
                    raw = stage / "_raw.png"
                    raw.write_bytes(base64.b64decode(data["image/png"]))
                    _small_png(raw, stage / name)
                    raw.unlink()
                    outs.append({"kind": "image", "file": name})
                elif "<table" in data.get("text/html", ""):
                    outs.append({"kind": "html", "html": "".join(data["text/html"])})
                elif o.get("output_type") == "stream" and o.get("name") == "stderr":
                    continue  # warnings of the machine that ran it, not the notebook's answer
                elif o.get("output_type") == "stream" or "text/plain" in data:
                    text = "".join(o.get("text", "") or data.get("text/plain", ""))
                    lines = text.rstrip("\n").splitlines()
                    if len(lines) > TEXT_LINES:
                        lines = lines[:TEXT_LINES] + [f"... ({len(lines) - TEXT_LINES} more lines)"]
                    if lines:
                        outs.append({"kind": "text", "text": "\n".join(lines)})
            cells.append(outs)
        manifest = {"notebook": path.stem, "key": key, "command": f"docs/notebooks/{path.name} in a Jupyter kernel",
                    "seconds": round(seconds, 1), "cells": cells}
        _publish(stage, manifest, NOTEBOOK_RESULTS / path.stem)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return manifest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run the gallery's experiments at their quick size and the notebooks "
                                             "(only those whose code changed) into docs/results/.")
    ap.add_argument("--check", action="store_true", help="list stale or missing results, exit 1 if any")
    ap.add_argument("--only", default=None, help="comma-separated experiment or notebook names")
    ap.add_argument("--force", action="store_true", help="re-run even if the stored key matches")
    ap.add_argument("--child", nargs=2, metavar=("SCRIPT", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        _child(*a.child)
        return 0
    scripts = {p.stem: p for p in gallery_experiments()}
    books = {p.stem: p for p in notebooks()}
    names = [*scripts, *books] if a.only is None else [n.strip() for n in a.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in scripts and n not in books]
    if unknown:
        print(f"results.py: error: --only must name experiments of {EXPERIMENTS} or notebooks of {NOTEBOOKS}, "
              f"got {unknown}", file=sys.stderr)
        return 2
    state = {**status(), **status("notebooks")}
    todo = [n for n in names if a.force or state[n] != "fresh"]
    if a.check:
        for n in todo:
            print(f"{n}: {state[n]}")
        return 1 if todo else 0
    RESULTS.mkdir(exist_ok=True)
    for stale in [p for p in RESULTS.iterdir() if p.is_dir() and p.name not in scripts and p != NOTEBOOK_RESULTS]:
        shutil.rmtree(stale)  # a renamed or deleted experiment
    if NOTEBOOK_RESULTS.is_dir():
        for stale in [p for p in NOTEBOOK_RESULTS.iterdir() if p.is_dir() and p.name not in books]:
            shutil.rmtree(stale)
    t_all = time.perf_counter()
    for i, n in enumerate(todo, 1):
        if n in scripts:
            m = run_one(scripts[n])
            what = f"{len(m['results'])} result(s)"
        else:
            m = run_notebook(books[n])
            what = f"{sum(len(c) for c in m['cells'])} output(s)"
        print(f"[{i}/{len(todo)}] {n}: {what}, {m['seconds']:.1f} s", flush=True)
    print(f"docs/results: {len(todo)} experiment(s) and notebook(s) run, {len(names) - len(todo)} up to date "
          f"({time.perf_counter() - t_all:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
