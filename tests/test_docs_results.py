"""The gallery's stored answers (docs/results/, written by docs/results.py): one folder per experiment page,
small enough to commit, keyed on the code, rendered into the page by docs/gallery_source.py (issue 30)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

import gallery_source  # noqa: E402
import results  # noqa: E402


def test_the_key_follows_the_code_not_the_checkout(tmp_path):
    script = results.EXPERIMENTS / "raft_start_player.py"
    key = results.experiment_key(script)
    copy = tmp_path / script.name
    shutil.copy(script, copy)
    assert results.experiment_key(copy) == key  # another folder, the same code
    text = script.read_text(encoding="utf-8")
    copy.write_text("# a comment\n\n" + text.replace("\n\n", "\n\n\n") + "\n# edited\n", encoding="utf-8")
    assert results.experiment_key(copy) == key  # comments and blank lines are not code
    copy.write_text(text + "\nprint('edited')\n", encoding="utf-8")
    assert results.experiment_key(copy) != key
    assert results.experiment_key(results.EXPERIMENTS / "meerkat_hazards.py") != key


def _package(f: Path) -> str:
    from pyradice_lab.engine import _sources

    return f.relative_to(_sources.PACKAGE_DIR).parts[0] if _sources.in_package(f) else ""


def test_the_key_covers_what_the_experiment_uses_and_no_other_game():
    """An edit of one game's code marks only the pages that use that game stale (issue 45)."""
    for script in results.gallery_experiments():
        used = {_package(f) for f in results.dependency_files(script)}
        game = next(g for g in results.GAMES if script.stem.startswith(g + "_"))
        assert game in used, script.name
        others = set(results.GAMES) - results._named_games(script)  # games the experiment never names
        assert not others & used, (script.name, sorted(used))
    # a game reached through the registry (balance("meerkat", ...)), not an import, still counts its files
    files = results.dependency_files(results.EXPERIMENTS / "meerkat_tile_values_balance.py")
    assert any(f.name == "components.toml" and _package(f) == "meerkat" for f in files)


def test_the_stored_results_were_computed_by_the_current_code():
    """docs/results/ matches the code on every commit (issue 45: a fresh clone showed 39 pages as 'Computed
    by an earlier version of the code'): an edit of code an experiment or notebook uses must come with its
    results run again."""
    state = {**results.status(), **results.status("notebooks")}
    stale = sorted(n for n, s in state.items() if s != "fresh")
    only = "" if len(stale) == len(state) else f"; or `python docs/results.py --only {','.join(stale)}`"
    assert not stale, (
        f"{len(stale)} of {len(state)} gallery and notebook pages would say 'Computed by an earlier version of the "
        f"code': {', '.join(f'{n} ({state[n]})' for n in stale)}.  Their code changed since docs/results/ was "
        f"written: run `make docs` (`python docs/results.py` re-runs only the stale ones{only}) and commit "
        f"docs/results/.")


def test_every_gallery_experiment_has_small_stored_results():
    names = [p.stem for p in results.gallery_experiments()]
    assert len(names) >= 30
    missing = [n for n in names if results.load_manifest(n) is None]
    assert not missing, f"run `python docs/results.py` (missing: {missing})"
    total = 0
    for n in names:
        folder = results.RESULTS / n
        m = results.load_manifest(n)
        assert m["experiment"] == n and m["results"], n
        assert any(r["figure"] for r in m["results"]), f"{n}: no figure"
        for r in m["results"]:
            table = folder / f"{r['name']}.csv"
            assert table.is_file(), table
            assert len(table.read_text(encoding="utf-8").splitlines()) <= results.ROWS + 1, table
            assert (folder / f"{r['name']}.png").is_file() == r["figure"], (n, r["name"])
        total += sum(f.stat().st_size for f in folder.iterdir())
    assert total < 3_000_000, f"docs/results holds {total / 1e6:.1f} MB: keep it small"
    stray = {p.name for p in results.RESULTS.iterdir()} - set(names) - {results.NOTEBOOK_RESULTS.name}
    assert not stray, f"results of experiments that no longer exist: {sorted(stray)}"


def _fake(tmp_path, findings=("Tile 7 pays 1.5 points_per_piece *more*.",)):
    folder = tmp_path / "results" / "demo_exp"
    folder.mkdir(parents=True)
    (folder / "demo.csv").write_text("tile,paid_se\n1.,0.05\n-1,x|y\n", encoding="utf-8")
    (folder / "demo.png").write_bytes(b"")
    manifest = {"experiment": "demo_exp", "key": "k", "command": "python experiments/demo_exp.py --quick",
                "seconds": 3.2, "results": [{"name": "demo", "title": "A demo", "question": "Is it fair?",
                                             "method": "", "findings": list(findings), "rows": 40,
                                             "figure": True}]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path / "results"


def test_the_page_section_shows_figure_findings_and_table(tmp_path):
    lines, thumb = gallery_source.results_cell("demo_exp", _fake(tmp_path))
    text = "\n".join(lines)
    assert thumb == "results/demo_exp/demo.png"
    assert ".. image:: /results/demo_exp/demo.png" in text
    assert r"- Tile 7 pays 1.5 points\_per\_piece \*more\*." in text
    assert ".. csv-table:: ``demo.csv``, the first 2 of 40 rows" in text
    assert '"\\1.","0.05"' in text and r'"-1","x\|y"' in text  # no list item, no substitution
    assert "note::" not in text
    stale, _ = gallery_source.results_cell("demo_exp", _fake(tmp_path / "b"), "stale")
    assert ".. note::" in stale
    none, thumb = gallery_source.results_cell("other", tmp_path / "results")
    assert thumb is None and "Not computed yet" in "\n".join(none)


def test_the_rst_of_a_section_parses_without_warnings(tmp_path):
    core = pytest.importorskip("docutils.core")
    from docutils.writers.html5_polyglot import Writer

    lines, _ = gallery_source.results_cell("demo_exp", _fake(tmp_path))
    rst = "Title\n=====\n\n" + "\n".join(ln for ln in lines if not ln.startswith(".. image::")
                                        and not ln.startswith("   :alt:"))
    html = core.publish_string(rst, writer=Writer(), settings_overrides={"report_level": 2, "halt_level": 2})
    assert b"<table" in html and b"points_per_piece" in html


def test_every_notebook_has_stored_outputs_with_a_figure_and_a_table():
    books = [p.stem for p in results.notebooks()]
    assert len(books) >= 2
    for n in books:
        m = results.load_manifest(n, results.NOTEBOOK_RESULTS)
        assert m is not None, f"run `python docs/results.py --only {n}`"
        outs = [o for cell in m["cells"] for o in cell]
        assert any(o["kind"] == "image" for o in outs) and any(o["kind"] == "html" for o in outs), n
        for o in outs:
            if o["kind"] == "image":
                assert (results.NOTEBOOK_RESULTS / n / o["file"]).is_file()
            if o["kind"] == "text":
                assert len(o["text"].splitlines()) <= results.TEXT_LINES + 1
    size = sum(f.stat().st_size for f in results.NOTEBOOK_RESULTS.rglob("*") if f.is_file())
    assert size < 500_000


def test_a_notebook_page_shows_each_cells_output_under_it(tmp_path):
    folder = tmp_path / "results" / "notebooks" / "nb"
    folder.mkdir(parents=True)
    manifest = {"notebook": "nb", "key": "k", "command": "c", "seconds": 1.0,
                "cells": [[], [{"kind": "text", "text": "hello"}, {"kind": "image", "file": "nb_1_1.png"}],
                          [{"kind": "html", "html": "<table>\n<tr><td>1</td></tr>\n</table>"}]]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    src = 'r"""\nT\n=\n"""\n# %%\nimport x\n# %%\n# Some text.\n# %%\nprint("hello")\n# %%\ntable\n'
    text, thumb = gallery_source.with_outputs(src, "nb", tmp_path / "results")
    assert thumb == "results/notebooks/nb/nb_1_1.png"
    first = text.index('print("hello")')
    assert text.index("#    hello") > first and text.index(".. image:: /results/notebooks/nb/nb_1_1.png") > first
    assert text.index("# .. raw:: html") > text.index("\ntable\n")
    assert text.count("# Output:") == 2  # the first code cell printed nothing
    assert gallery_source.with_outputs(src, "other", tmp_path / "results") == (src, None)
