"""Turn the experiments (jupytext percent-format scripts) into sphinx-gallery examples.

sphinx-gallery needs a module docstring with an rST title and reads ``# %%`` comment cells as rST; the
experiments open with a ``# %% [markdown]`` cell in markdown so that they read as notebooks.  This writes a copy
of each experiment to ``docs/gallery_src/`` (git-ignored) with that first cell as the docstring and the
markdown of every text cell turned into rST (headings, inline code, links).  The experiments themselves stay
untouched.

Each experiment page ends with its answers, read from ``docs/results/<experiment>/`` (written by
``docs/results.py``, which runs the experiment at its quick size): per result its figure, its finding sentences
and the first rows of its table (:func:`results_cell`).  The site itself executes nothing.

A renamed or deleted experiment or notebook leaves nothing behind: its copy is removed from ``docs/gallery_src/``
and :func:`prune_generated` removes the pages sphinx-gallery generated from it (``docs/gallery/``,
``docs/notebooks/pages/``) and the execution-time tables that list it (sphinx-gallery rewrites those only when
something ran, so a stale one would point at a page that is gone).  Everything else is kept, so unchanged
examples are not rebuilt or re-run.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

HEADER = """Gallery of experiments
======================

One script per question, each a page with its output, figure and a download as script and notebook.  They are
the files in ``experiments/`` (jupytext percent format: they open as notebooks in JupyterLab); run one with
``.venv/bin/python experiments/<name>.py`` (add ``--quick`` where the script accepts it) to write its CSV and
figure under ``reports/<name>/``.  Every page ends with the figure, findings and table of a quick run
(``docs/results.py``: fewer games than the report, so read the intervals).
"""

_GAMES = {"purramid": "Purramid", "pyradice": "Pyradice", "raft": "Rocking Raft", "meerkat": "Meerkat Kingdom"}


def md_to_rst(text: str) -> str:
    """The few markdown constructs the experiments use, as rST."""
    out: list[str] = []
    in_list = False
    for line in text.splitlines():
        item = re.match(r"^\s*(\d+\.|[-*+])\s", line)
        if in_list and line.strip() and not item and not line.startswith(" "):
            out.append("")  # markdown continues a list lazily; rST needs the blank line
        in_list = bool(item) or (in_list and line.startswith(" "))
        m = re.match(r"^(#{1,6})\s+(.*)$", line)
        if m:
            title = m.group(2).strip()
            title = _inline(title)
            char = "=" if len(m.group(1)) == 1 else "-"
            out += [title, char * max(len(title), 3), ""]
            continue
        out.append(_inline(line))
    return "\n".join(out)


def _inline(s: str) -> str:
    s = re.sub(r"(?<=/)\*", r"\\*", s)  # glob stars (reports/x/*.csv) are not emphasis
    s = re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", s)
    s = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"`\1 <\2>`__", s)
    return s


def _comment_block(lines: list[str]) -> list[str]:
    return [ln[2:] if ln.startswith("# ") else ln[1:] for ln in lines]


def convert(src: str) -> str:
    lines = src.splitlines()
    if lines and lines[0] == "# ---":  # jupytext's YAML header (kernelspec): not part of the page
        lines = lines[lines.index("# ---", 1) + 1:]
        while lines and not lines[0].strip():
            lines = lines[1:]
    if not lines or not lines[0].startswith("# %% [markdown]"):
        raise ValueError("an experiment must start with a '# %% [markdown]' cell holding its title")
    i = 1
    head = []
    while i < len(lines) and lines[i].startswith("#") and not lines[i].startswith("# %%"):
        head.append(lines[i])
        i += 1
    doc = md_to_rst("\n".join(_comment_block(head))).strip().replace('"""', "'''")
    body = []
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("# %% [markdown]"):
            body.append("# %%")
            i += 1
            block = []
            while i < len(lines) and lines[i].startswith("#") and not lines[i].startswith("# %%"):
                block.append(lines[i])
                i += 1
            body += ["# " + r if r else "#" for r in md_to_rst("\n".join(_comment_block(block))).splitlines()]
            continue
        body.append(ln)
        i += 1
    return f'r"""\n{doc}\n"""\n' + "\n".join(body) + "\n"


def _remove_stale_sources(folder: Path, written: list[Path]) -> None:
    """Delete the example copies in ``folder`` that were not written this time (renamed or deleted)."""
    keep = set(written)
    for path in folder.glob("*.py"):
        if path not in keep:
            path.unlink()


#: what sphinx-gallery writes per example beside its page (``<stem>.rst``, ``.py``, ``.ipynb``, ``.zip``,
#: ``.codeobj.json``, ``.py.md5``) and in ``images/`` (``sphx_glr_<stem>_001.png``, ``thumb/sphx_glr_<stem>_thumb.png``)
_GENERATED = {".rst", ".py", ".ipynb", ".zip", ".json", ".md5", ".pickle"}
_IMAGE = re.compile(r"^sphx_glr_(.+)_(\d+|thumb)\.\w+$")
_TIMES = "sg_execution_times.rst"
_TIMES_REF = re.compile(r":ref:`(sphx_glr_[^`]+)`")


def prune_generated(docs: Path, galleries: list[tuple[Path, Path]]) -> list[Path]:
    """Remove what sphinx-gallery generated for examples that no longer exist; return the removed files.

    ``galleries``: (examples folder, gallery folder) pairs, as in ``sphinx_gallery_conf``; sub-galleries are
    the examples folder's sub-folders.  Removed: an example's page and downloads, its images and thumbnail, and
    every ``sg_execution_times.rst`` (in a gallery folder or in ``docs``) that does not list exactly the
    examples there are (it is written again by the build)."""
    removed: list[Path] = []
    every: set[str] = set()
    for src_root, out_root in galleries:
        for src in [src_root, *sorted(p for p in src_root.rglob("*") if p.is_dir())]:
            out = out_root / src.relative_to(src_root)
            stems = {p.stem for p in src.glob("*.py")}
            prefix = out.relative_to(docs).as_posix().replace("/", "_")
            labels = {f"sphx_glr_{prefix}_{stem}.py" for stem in stems}
            every |= labels
            if not out.is_dir():
                continue
            for f in out.iterdir():
                if f.is_file() and f.name not in ("index.rst", _TIMES) and f.suffix in _GENERATED \
                        and f.name.split(".")[0] not in stems:
                    removed.append(f)
            for images in (out / "images", out / "images" / "thumb"):
                for f in images.glob("sphx_glr_*") if images.is_dir() else []:
                    m = _IMAGE.match(f.name)
                    if m and f.is_file() and m.group(1) not in stems:
                        removed.append(f)
            removed += _stale_times(out / _TIMES, labels)
    removed += _stale_times(docs / _TIMES, every)
    for f in removed:
        f.unlink()
    return removed


def _stale_times(path: Path, labels: set[str]) -> list[Path]:
    if not path.is_file():
        return []
    listed = set(_TIMES_REF.findall(path.read_text(encoding="utf-8")))
    return [] if listed == labels else [path]


_ESCAPE = re.compile(r"([\\*`|_])")


def _rst_text(s: str) -> str:
    """Plain text as rST (markup characters escaped, one line)."""
    s = _ESCAPE.sub(r"\\\1", " ".join(str(s).split()))
    return "\\" + s if re.match(r"^(\d+|[A-Za-z#])[.)]$", s) else s


def _csv_table(path: Path, caption: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    buf = io.StringIO()
    csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(
        [[_rst_text(c) for c in row] for row in rows])
    out = [f".. csv-table:: {caption}", "   :header-rows: 1", "   :class: results-table", ""]
    return out + ["   " + ln for ln in buf.getvalue().splitlines()] + [""]


def results_cell(name: str, results: Path, state: str = "fresh") -> tuple[list[str], str | None]:
    """The rST lines of an experiment's "Results" section from ``results/<name>/`` and the path (relative to
    the docs folder) of its first figure, for the thumbnail.  ``state``: ``fresh``, ``stale`` or ``missing``
    (see ``docs/results.py``)."""
    folder = results / name
    manifest = folder / "manifest.json"
    lines = ["Results (quick run)", "-------------------", ""]
    if not manifest.is_file():
        return lines + [f"Not computed yet: ``python docs/results.py --only {name}`` runs it.", ""], None
    m = json.loads(manifest.read_text(encoding="utf-8"))
    lines += [f"From ``{m['command']}`` ({m['seconds']:.0f} s; stored by ``docs/results.py``): fewer games than "
              f"the full run (``python experiments/{name}.py``, the report's size), so read the intervals; a "
              "finding on fewer than 100 games draws no conclusion.", ""]
    if state != "fresh":
        lines += [".. note::", "", "   Computed by an earlier version of the code: ``make docs`` (or "
                  f"``python docs/results.py --only {name}``) runs it again.", ""]
    thumb = None
    rel = folder.relative_to(results.parent).as_posix()
    several = len(m["results"]) > 1
    for r in m["results"]:
        if several:
            title = _rst_text(r["title"])
            lines += [title, "~" * max(len(title), 3), ""]
        if r.get("question"):
            lines += [f"*{_rst_text(r['question'])}*", ""]
        if r.get("method"):
            lines += [_rst_text(r["method"]), ""]
        if r["figure"] and (folder / f"{r['name']}.png").is_file():
            thumb = thumb or f"{rel}/{r['name']}.png"
            lines += [f".. image:: /{rel}/{r['name']}.png", f"   :alt: {_rst_text(r['title'])}", ""]
        if r["findings"]:
            lines += ["Findings:", ""] + [f"- {_rst_text(f)}" for f in r["findings"]] + [""]
        table = folder / f"{r['name']}.csv"
        if table.is_file():
            shown = sum(1 for _ in csv.reader(io.StringIO(table.read_text(encoding="utf-8")))) - 1
            what = f"all {r['rows']} rows" if shown >= r["rows"] else f"the first {shown} of {r['rows']} rows"
            lines += _csv_table(table, f"``{r['name']}.csv``, {what}")
    return lines, thumb


def write_gallery_source(experiments: Path, out: Path, results: Path | None = None,
                         states: dict[str, str] | None = None) -> list[Path]:
    """Write the converted experiments (one sub-gallery per game) and the gallery header; return the files.

    With ``results`` (``docs/results``), each page ends with the experiment's stored results
    (:func:`results_cell`; ``states``: experiment -> ``fresh``/``stale``/``missing``).  Copies of experiments
    that no longer exist are removed."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "GALLERY_HEADER.rst").write_text(HEADER, encoding="utf-8")
    written = []
    for key, title in _GAMES.items():
        sub = out / key
        sub.mkdir(exist_ok=True)
        (sub / "GALLERY_HEADER.rst").write_text(f"{title}\n{'-' * len(title)}\n", encoding="utf-8")
        for path in sorted(experiments.glob(f"{key}_*.py")):
            target = sub / path.name
            text = convert(path.read_text(encoding="utf-8"))
            if results is not None:
                cell, thumb = results_cell(path.stem, results, (states or {}).get(path.stem, "fresh"))
                text += "\n# %%\n" + "\n".join("# " + ln if ln else "#" for ln in cell) + "\n"
                if thumb:
                    text += f"\n# sphinx_gallery_thumbnail_path = {thumb!r}\n"
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")  # unchanged files keep their mtime (no re-run)
            written.append(target)
        _remove_stale_sources(sub, written)
    return written


NOTEBOOKS_HEADER = """Notebook pages
==============

The notebooks of ``docs/notebooks/`` (jupytext percent format), each with a download as script and as
``.ipynb``; every code cell shows the output it gave when ``docs/results.py`` ran the notebook.  How to open them in JupyterLab: :doc:`/notebooks/index`.
"""


def _output_lines(o: dict, rel: str) -> list[str]:
    """One stored notebook output as rST lines."""
    if o["kind"] == "image":
        return [f".. image:: /{rel}/{o['file']}", "   :alt: figure", ""]
    if o["kind"] == "html":
        return [".. raw:: html", ""] + ["   " + ln if ln.strip() else "" for ln in o["html"].splitlines()] + [""]
    return ["::", ""] + ["   " + ln for ln in o["text"].splitlines()] + [""]


def with_outputs(text: str, name: str, results: Path, state: str = "fresh") -> tuple[str, str | None]:
    """A converted notebook with its stored outputs (``results/notebooks/<name>/``) as a text block after each
    code cell; and the first figure's path (relative to the docs folder), for the thumbnail."""
    folder = results / "notebooks" / name
    manifest = folder / "manifest.json"
    if not manifest.is_file():
        return text, None
    m = json.loads(manifest.read_text(encoding="utf-8"))
    rel = folder.relative_to(results.parent).as_posix()
    lines = text.splitlines()
    cuts = [i for i, ln in enumerate(lines) if ln == "# %%"] + [len(lines)]
    out, k, thumb = lines[:cuts[0]], 0, None
    for a, b in zip(cuts, cuts[1:]):
        cell = lines[a:b]
        out += cell
        body = [ln for ln in cell[1:] if ln.strip()]
        if body and not all(ln.startswith("#") for ln in body):  # a code cell
            outs = m["cells"][k] if k < len(m["cells"]) else []
            k += 1
            if outs:
                rst = ["Output:", ""]
                for o in outs:
                    rst += _output_lines(o, rel)
                    if o["kind"] == "image" and thumb is None:
                        thumb = f"{rel}/{o['file']}"
                out += ["", "# %%"] + ["# " + ln if ln else "#" for ln in rst] + [""]
    if state != "fresh":
        out += ["", "# %%", "# .. note::", "#", "#    The outputs above were computed by an earlier version of the "
                "code: ``make docs`` runs the notebook again.", ""]
    if thumb:
        out += ["", f"# sphinx_gallery_thumbnail_path = {thumb!r}"]
    return "\n".join(out) + "\n", thumb


def write_notebook_source(notebooks: Path, out: Path, results: Path | None = None,
                          states: dict[str, str] | None = None) -> list[Path]:
    """Write the converted notebooks and their header to ``out``; return the files (copies of notebooks that no
    longer exist are removed).  With ``results``, each code cell is followed by its stored outputs
    (:func:`with_outputs`)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "GALLERY_HEADER.rst").write_text(NOTEBOOKS_HEADER, encoding="utf-8")
    written = []
    for path in sorted(notebooks.glob("*.py")):
        target = out / path.name
        text = convert(path.read_text(encoding="utf-8"))
        if results is not None:
            text = with_outputs(text, path.stem, results, (states or {}).get(path.stem, "fresh"))[0]
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        written.append(target)
    _remove_stale_sources(out, written)
    return written
