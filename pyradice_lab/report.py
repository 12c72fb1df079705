"""The PDF report: sections of findings, text, figures and tables laid out by a document engine.

A :class:`Section` holds items in order: plain text (``str`` or :class:`Text`), matplotlib figures
(:class:`FigureItem` or a bare ``Figure``), tables (:class:`Table` or a bare ``DataFrame``) and
:class:`ExperimentResult` (a named question: findings computed from the data, a reading, a figure and a
table, also saved as CSV + PNG under ``reports/<name>/`` by :func:`save_experiment`).  :func:`write_pdf`
lays them out with ReportLab (:mod:`pyradice_lab.report_pdf`): a title page listing the version, date,
seeds, trials and run time of every section and the sample size of every experiment; on page 2 the
summary of all findings (:mod:`pyradice_lab.findings`), those that may change a component first; a table
of contents; PDF bookmarks for every section and experiment; tables that wrap and split across pages; vector
figures.  The file is written to a temporary name and renamed, so an interrupted build never leaves a half
PDF behind.

:func:`build_report` is what ``make report`` and ``pyradice-lab report`` run: the overview section plus
the report section of every registered game, built in worker processes with ``n_jobs``.

Examples
--------
>>> import pandas as pd, tempfile, os
>>> from pyradice_lab.report import Section, write_pdf
>>> sec = Section("Demo", ["Some text.", pd.DataFrame({"a": [1, 2]})])
>>> path = write_pdf(os.path.join(tempfile.mkdtemp(), "demo.pdf"), [sec], meta={"seed": 0})
>>> path.suffix
'.pdf'
"""

from __future__ import annotations

import datetime as _dt
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .findings import MIN_CLAIM_N, Finding
from .report_items import (
    EXPERIMENT_TABLE_ROWS,
    ExperimentResult,
    FigureItem,
    RasterFigure,
    ReportContext,
    Section,
    Table,
    Text,
    figure_png,
    format_table,
    rasterise,
    render_figure,
)
from .sweep import replace_with_default_mode

__all__ = ["Text", "FigureItem", "Table", "ExperimentResult", "Section", "ReportContext", "write_pdf",
           "build_report", "save_experiment", "DEFAULT_REPORT", "format_table", "figure_png", "RasterFigure",
           "render_figure", "Finding", "MIN_CLAIM_N", "EXPERIMENT_TABLE_ROWS"]

DEFAULT_REPORT = Path("reports") / "pyradice_lab_report.pdf"


def save_experiment(result: ExperimentResult, root: str | os.PathLike = "reports") -> dict[str, Path]:
    """Write ``<root>/<name>/<name>.csv`` (and ``.png`` if there is a figure); return the paths.

    With findings, ``<name>_findings.csv`` lists them (one row each, with the rendered sentence).
    """
    folder = Path(root) / result.name
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"csv": folder / f"{result.name}.csv"}
    result.table.to_csv(paths["csv"], index=False)
    if result.findings:
        from .findings import findings_table

        paths["findings"] = folder / f"{result.name}_findings.csv"
        findings_table(result.findings).to_csv(paths["findings"], index=False)
    if result.figure is not None:
        paths["png"] = folder / f"{result.name}.png"
        paths["png"].write_bytes(figure_png(result.figure))
    return paths


def _build_section(name: str, builder, ctx: ReportContext) -> Section:
    t0 = time.perf_counter()
    sec = builder(ctx)
    rasterise(sec)
    sec.seconds = time.perf_counter() - t0
    if sec.seed is None:
        sec.seed = ctx.seed_label(name)
    return sec


def write_pdf(path: str | os.PathLike, sections: Sequence[Section], *, meta: dict | None = None) -> Path:
    """Write the title page, summary, contents and every section to ``path`` (atomically); return the path.

    ``meta``: ``title``, ``date``, ``mode`` ("quick" puts the quick-run banner on every page), ``seed``,
    ``n_jobs``, ``wall_seconds``; shown on the title page.
    """
    from .report_pdf import render_pdf

    meta = dict(meta or {})
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise ValueError(f"out must be a .pdf path, got {str(path)!r}")
    for s in sections:
        if not isinstance(s, Section):
            raise TypeError(f"sections must be Section objects, got {type(s).__name__}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pdf")
    os.close(fd)
    try:
        render_pdf(tmp, sections, meta)
        replace_with_default_mode(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def build_report(out: str | os.PathLike = DEFAULT_REPORT, *, quick: bool = False, seed: int = 0, n_jobs: int = 1,
                 games: Sequence[str] | None = None, progress: bool = True) -> Path:
    """Build the default report: overview plus every registered game's section.

    Parameters
    ----------
    out : path
        PDF to write (default ``reports/pyradice_lab_report.pdf``); experiment CSV/PNG files go in its folder.
    quick : bool
        Small trial counts (used by the tests; builds in well under a minute).
    seed : int
        Root seed; each section derives its own stream from it and its name.
    n_jobs : int
        Worker processes: sections are built in parallel (the numbers do not depend on it).
    games : list of str, optional
        Only these games (default: all registered).
    """
    from tqdm.auto import tqdm

    from . import registry

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or not (n_jobs >= 1 or n_jobs == -1):
        raise ValueError(f"n_jobs must be a positive integer or -1, got {n_jobs!r}")
    out = Path(out)
    if out.suffix.lower() != ".pdf":
        raise ValueError(f"out must be a .pdf path, got {str(out)!r}")
    known = registry.games()
    names = list(known) if games is None else list(games)
    for g in names:
        if g not in known:
            raise ValueError(f"games must be among {sorted(known)}, got {g!r}")
    n_jobs = (os.cpu_count() or 1) if n_jobs == -1 else int(n_jobs)
    started = time.perf_counter()
    # the overview is a section like the games' ones: named by its target, imported when built
    builders = [("overview", registry.lazy("pyradice_lab.overview:report_section"))] + [
        (g, known[g].report_section) for g in names if known[g].report_section is not None]
    bar = tqdm(total=len(builders), desc="report", unit="section", disable=not progress, leave=False)
    if n_jobs == 1:
        ctx = ReportContext(quick=quick, seed=int(seed), n_jobs=1, out_dir=out.parent)
        sections = []
        for name, builder in builders:
            sections.append(_build_section(name, builder, ctx))
            bar.update(1)
    else:
        # sections are independent (each seeds itself from the root seed and its name): build them in
        # parallel worker processes, one section per worker, with no nested parallelism inside
        from joblib import Parallel, delayed

        ctx = ReportContext(quick=quick, seed=int(seed), n_jobs=1, out_dir=out.parent)
        done: dict[int, Section] = {}
        tasks = (delayed(lambda i, n, b: (i, _build_section(n, b, ctx)))(i, n, b) for i, (n, b) in enumerate(builders))
        for i, sec in Parallel(n_jobs=min(n_jobs, len(builders)), backend="loky",
                               return_as="generator_unordered")(tasks):
            done[i] = sec
            bar.update(1)
        sections = [done[i] for i in range(len(builders))]
    bar.close()
    meta = {"seed": seed, "n_jobs": n_jobs, "mode": "quick" if quick else "full",
            "wall_seconds": time.perf_counter() - started,
            "date": _dt.datetime.now().strftime("%Y-%m-%d %H:%M")}
    return write_pdf(out, sections, meta=meta)
