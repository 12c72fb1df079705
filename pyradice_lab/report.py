"""Multi-page PDF reports built from ordered sections of text, figures and tables.

A :class:`Section` holds items in order: plain text (``str`` or :class:`Text`), matplotlib figures
(:class:`FigureItem` or a bare ``Figure``), tables (:class:`Table` or a bare ``DataFrame``, paginated)
and :class:`ExperimentResult` (a named question: reading, figure and table, also saved as CSV + PNG
under ``reports/<name>/`` by :func:`save_experiment`).  :func:`write_pdf` lays them out on A4 pages
after a title page listing the version, date, seeds, trials and run time of every section; the file is
written to a temporary name and renamed, so an interrupted build never leaves a half PDF behind.

:func:`build_report` is what ``make report`` and ``pyradice-lab report`` run: the overview section plus
the report section of every registered game.

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

import dataclasses
import datetime as _dt
import io
import os
import re
import shutil
import tempfile
import textwrap
import time
import weakref
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from . import __version__  # noqa: E402
from .sweep import (  # noqa: E402
    loky_config,
    remove_stale_temporaries,
    replace_with_default_mode,
    stop_worker_processes,
    temporary_prefix,
    watch_parent,
)

__all__ = ["Text", "FigureItem", "Table", "ExperimentResult", "Section", "ReportContext", "write_pdf",
           "build_report", "save_experiment", "DEFAULT_REPORT", "format_table", "figure_png", "RasterFigure"]

A4 = (8.27, 11.69)
DEFAULT_REPORT = Path("reports") / "pyradice_lab_report.pdf"
_WRAP = 98  # characters per text line on an A4 page at 9.5 pt
_LINES_PER_PAGE = 62


@dataclass
class Text:
    """One or more paragraphs (separated by blank lines); ``heading`` printed in bold above."""

    text: str
    heading: str | None = None


@dataclass
class FigureItem:
    """A matplotlib figure placed on its own page with an optional caption under it."""

    figure: Figure
    caption: str = ""
    title: str | None = None


@dataclass
class Table:
    """A DataFrame rendered as a readable table, split over pages of ``rows_per_page`` rows."""

    frame: pd.DataFrame
    caption: str = ""
    title: str | None = None
    rows_per_page: int = 40
    digits: int = 4
    index: bool = False


@dataclass
class ExperimentResult:
    """The answer to one question: a reading in plain words, a figure and the table behind it."""

    name: str
    title: str
    reading: str
    table: pd.DataFrame
    figure: Figure | None = None
    meta: dict = field(default_factory=dict)


@dataclass
class Section:
    """An ordered group of report items with the seed and trials that produced them."""

    title: str
    items: list = field(default_factory=list)
    seed: Any = None
    trials: Any = None
    seconds: float | None = None


@dataclass(frozen=True)
class ReportContext:
    """What a game's report section receives.

    ``quick`` asks for a small, fast version (the quick report must build in under 45 s in total);
    ``seed_for(name)`` gives the section's reproducible SeedSequence; ``out_dir`` is where experiment
    CSV/PNG files go (``reports/``); ``n_jobs`` is for sweeps.
    """

    quick: bool = False
    seed: int = 0
    n_jobs: int = 1
    out_dir: Path = Path("reports")
    progress: bool = False

    def seed_for(self, name: str) -> np.random.SeedSequence:
        """A SeedSequence for ``name`` that depends only on the root seed and the name."""
        return np.random.SeedSequence(self.seed, spawn_key=(zlib.crc32(name.encode()),))

    def seed_label(self, name: str) -> str:
        return f"{self.seed}/{zlib.crc32(name.encode())}"


# ----------------------------------------------------------------------------------------- formatting
def format_table(df: pd.DataFrame, digits: int = 4, index: bool = False) -> pd.DataFrame:
    """Strings for display: floats to ``digits`` significant digits, tuples joined, NaN blank."""
    out = df.reset_index() if index else df.copy()

    def fmt(v):
        if isinstance(v, (float, np.floating)):
            if np.isnan(v):
                return ""
            return f"{v:.{digits}g}"
        if isinstance(v, tuple):
            return ",".join(str(x) for x in v)
        return str(v)

    return out.apply(lambda col: col.map(fmt)).astype(str)


def save_experiment(result: ExperimentResult, root: str | os.PathLike = "reports") -> dict[str, Path]:
    """Write ``<root>/<name>/<name>.csv`` (and ``.png`` if there is a figure); return the paths.

    The folder is written under a temporary name and swapped in whole: it never mixes the files of two
    runs, and an interrupted write leaves the previous folder as it was.
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(root)
    folder = root / result.name
    stage = Path(tempfile.mkdtemp(prefix=temporary_prefix(), dir=root))
    try:
        result.table.to_csv(stage / f"{result.name}.csv", index=False)
        if result.figure is not None:
            (stage / f"{result.name}.png").write_bytes(figure_png(result.figure))
        _swap_in(stage, folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    paths = {"csv": folder / f"{result.name}.csv"}
    if result.figure is not None:
        paths["png"] = folder / f"{result.name}.png"
    return paths


def _swap_in(new: Path, target: Path) -> None:
    """Put file or folder ``new`` at ``target`` (same file system), replacing what is there."""
    if new.is_dir():
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(new, 0o777 & ~umask)  # mkdtemp folders are owner-only
    if not new.is_dir() or not (target.exists() or target.is_symlink()):
        os.replace(new, target)
        return
    if not target.is_dir() or target.is_symlink():
        raise ValueError(f"cannot write the experiment folder {target}: something else has that name")
    old = target.with_name(f"{temporary_prefix()}old-{os.urandom(4).hex()}")
    os.rename(target, old)
    os.rename(new, target)
    shutil.rmtree(old, ignore_errors=True)


# ----------------------------------------------------------------------------------------- page layout
class _Pager:
    """Writes A4 pages with a running header into a PdfPages."""

    def __init__(self, pdf: PdfPages, header: str):
        self.pdf = pdf
        self.header = header
        self.count = 0

    def new_page(self, section: str, landscape: bool = False) -> Figure:
        fig = plt.figure(figsize=A4[::-1] if landscape else A4)
        fig.text(0.06, 0.975, section, fontsize=8, color="0.4", va="top")
        fig.text(0.94, 0.975, self.header, fontsize=8, color="0.4", va="top", ha="right")
        return fig

    def save(self, fig: Figure) -> None:
        self.count += 1
        fig.text(0.5, 0.015, str(self.count), fontsize=8, color="0.4", ha="center")
        self.pdf.savefig(fig)
        plt.close(fig)


_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")


def _wrap(text: str) -> list[str]:
    """Wrap text for a page: blank lines separate paragraphs, lines of a paragraph flow together,
    except list items (``-``, ``*``, ``1.``), which start a new line with a hanging indent."""
    lines: list[str] = []
    for para in textwrap.dedent(text).strip().split("\n\n"):
        items: list[str] = []
        for raw in para.split("\n"):
            if not items or _LIST_ITEM.match(raw):
                items.append(raw.strip())
            else:
                items[-1] += " " + raw.strip()
        for item in items:
            m = _LIST_ITEM.match(item)
            indent = " " * (len(m.group(0)) + 1) if m else ""
            lines.extend(textwrap.wrap(" ".join(item.split()), _WRAP, subsequent_indent=indent) or [""])
        lines.append("")
    return lines


def _text_pages(pager: _Pager, section: str, blocks: list[tuple[str | None, str]]) -> None:
    """Flow (heading, text) blocks over as many pages as needed."""
    lines: list[tuple[str, str]] = []
    for heading, text in blocks:
        if heading:
            lines.append(("h", heading))
        if text.strip():
            lines.extend(("t", ln) for ln in _wrap(text))
    for start in range(0, len(lines), _LINES_PER_PAGE):
        fig = pager.new_page(section)
        y = 0.94
        for kind, ln in lines[start:start + _LINES_PER_PAGE]:
            if kind == "h":
                fig.text(0.06, y, ln, fontsize=12, weight="bold", va="top")
                y -= 0.022
            else:
                fig.text(0.06, y, ln, fontsize=9.5, va="top", family="DejaVu Sans")
                y -= 0.0145
        pager.save(fig)


_PNG_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PNG_DPI = 150


@dataclass(frozen=True)
class RasterFigure:
    """A figure already rendered to PNG (what sections built in worker processes send back)."""

    png: bytes


def figure_png(figure: Figure | RasterFigure) -> bytes:
    """The figure rendered once as PNG bytes (reused by :func:`save_experiment` and the PDF page)."""
    if isinstance(figure, RasterFigure):
        return figure.png
    png = _PNG_CACHE.get(figure)
    if png is None:
        buf = io.BytesIO()
        figure.savefig(buf, format="png", dpi=_PNG_DPI, bbox_inches="tight")
        png = _PNG_CACHE[figure] = buf.getvalue()
    return png


def _figure_page(pager: _Pager, section: str, figure: Figure | RasterFigure, title: str | None,
                 text: str = "") -> None:
    img = plt.imread(io.BytesIO(figure_png(figure)), format="png")
    if isinstance(figure, Figure):
        plt.close(figure)
    fig = pager.new_page(section)
    top = 0.945
    if title:
        fig.text(0.06, top, title, fontsize=13, weight="bold", va="top")
        top -= 0.03
    lines = _wrap(text) if text else []
    for ln in lines[:24]:
        fig.text(0.06, top, ln, fontsize=9.5, va="top")
        top -= 0.0145
    h, w = img.shape[:2]
    avail_h = top - 0.04
    box_w = 0.88
    box_h = min(avail_h, box_w * (h / w) * (A4[0] / A4[1]))
    ax = fig.add_axes((0.06, top - 0.01 - box_h, box_w, box_h))
    ax.imshow(img, interpolation="antialiased")
    ax.axis("off")
    pager.save(fig)
    if len(lines) > 24:
        _text_pages(pager, section, [(None, "\n".join(lines[24:]))])


_CELL_CHARS = 24  # cells never wrap narrower than this
_LINE_CHARS = 110  # characters across a table row before cells wrap


def _table_pages(pager: _Pager, section: str, table: Table) -> None:
    shown = format_table(table.frame, table.digits, table.index)
    source = table.frame.reset_index() if table.index else table.frame
    numeric = [pd.api.types.is_numeric_dtype(source[c]) or pd.api.types.is_bool_dtype(source[c])
               for c in source.columns]
    columns = [str(c) for c in shown.columns]
    natural = [max([len(c)] + [len(v) for v in shown[c0].tolist()]) for c, c0 in zip(columns, shown.columns)]
    # wide tables go on landscape pages
    landscape = sum(min(w, _CELL_CHARS) + 2 for w in natural) > _LINE_CHARS * 1.2
    line_chars = _LINE_CHARS * (A4[1] / A4[0] if landscape else 1.0)
    # water-filling: the widest columns wrap at the largest cap that keeps a line within line_chars
    cap = max(natural, default=1)
    while cap > _CELL_CHARS and sum(min(w, cap) for w in natural) > line_chars:
        cap -= 1
    widths = [min(w, cap) for w in natural]
    total_chars = sum(widths) + 2 * max(1, len(widths))
    fontsize = float(np.clip(950 * (A4[1] / A4[0] if landscape else 1.0) / max(total_chars, 1), 5.0, 9.0))

    def wrap_cell(v: str, width: int) -> str:
        return "\n".join(textwrap.wrap(v, width)) if len(v) > width else v

    body = [[wrap_cell(v, w) for v, w in zip(row, widths)] for row in shown.to_numpy().tolist()]
    header = [wrap_cell(c, w) for c, w in zip(columns, widths)]
    heights = [max(1, *(v.count("\n") + 1 for v in row)) if row else 1 for row in body]
    head_h = max(v.count("\n") + 1 for v in header) if header else 1
    line_h = 0.0148 * fontsize / 8 * (A4[1] / A4[0] if landscape else 1.0)  # page fraction per text line
    pad = 0.45  # lines of padding per row
    wrap_at = int(_WRAP * (A4[1] / A4[0] if landscape else 1.0))
    step = 0.014 * (A4[1] / A4[0] if landscape else 1.0)
    caption = textwrap.wrap(" ".join(table.caption.split()), wrap_at)[:8] if table.caption else []
    y_top = 0.915 - (step * len(caption) + 0.006 if caption else 0.0)
    # pages: at most rows_per_page rows, and rows (with padding) that fit under the caption
    budget = (y_top - 0.045) / line_h - (head_h + pad)
    pages: list[list[int]] = [[]]
    used = 0.0
    for i, h in enumerate(heights):
        if pages[-1] and (used + h + pad > budget or len(pages[-1]) >= max(5, table.rows_per_page)):
            pages.append([])
            used = 0.0
        pages[-1].append(i)
        used += h + pad
    for p, rows in enumerate(pages):
        fig = pager.new_page(section, landscape=landscape)
        title = table.title or "Table"
        if len(pages) > 1:
            title += f" ({p + 1}/{len(pages)})"
        fig.text(0.06, 0.945, title, fontsize=12, weight="bold", va="top")
        y = 0.915
        for ln in caption:
            fig.text(0.06, y, ln, fontsize=9, va="top", color="0.2")
            y -= step
        row_lines = [head_h] + [heights[i] for i in rows]
        height = min(y_top - 0.04, line_h * sum(n + pad for n in row_lines))
        ax = fig.add_axes((0.04, y_top - height, 0.92, height))
        ax.axis("off")
        if rows:
            colw = np.array([w + 2 for w in widths], dtype=float)
            tab = ax.table(cellText=[body[i] for i in rows], colLabels=header, bbox=(0, 0, 1, 1),
                           cellLoc="right", colLoc="right", colWidths=list(colw / colw.sum()))
            tab.auto_set_font_size(False)
            tab.set_fontsize(fontsize)
            unit = 1.0 / sum(n + pad for n in row_lines)
            for (r, c), cell in tab.get_celld().items():
                cell.set_height(unit * (row_lines[r] + pad))
                loc = "right" if numeric[c] else "left"  # numbers right, text left
                cell._loc = loc
                cell.get_text().set_horizontalalignment(loc)
                cell.set_linewidth(0.3)
                if r == 0:
                    cell.set_facecolor("#dde6f0")
                    cell.set_text_props(weight="bold")
                elif r % 2 == 0:
                    cell.set_facecolor("#f5f7fa")
        else:
            ax.text(0, 1, "(empty table)", va="top")
        pager.save(fig)


def _title_page(pager: _Pager, sections: Sequence[Section], meta: dict) -> None:
    fig = plt.figure(figsize=A4)
    fig.text(0.5, 0.86, meta.get("title", "pyradice_lab report"), fontsize=26, weight="bold", ha="center")
    fig.text(0.5, 0.82, "Exact probability and Monte Carlo for Purramid, Pyradice, Rocking Raft and Meerkat Kingdom",
             fontsize=10.5, ha="center", color="0.25")
    info = [
        ("version", f"pyradice_lab {__version__}"),
        ("date", meta.get("date", _dt.datetime.now().strftime("%Y-%m-%d %H:%M"))),
        ("mode", meta.get("mode", "")),
        ("root seed", str(meta.get("seed", ""))),
        ("jobs", str(meta.get("n_jobs", ""))),
        ("run time", (f"{meta['wall_seconds']:.1f} s wall; " if "wall_seconds" in meta else "")
         + f"{sum(s.seconds or 0 for s in sections):.1f} s in sections"),
    ]
    y = 0.75
    for k, v in info:
        fig.text(0.22, y, k, fontsize=11, ha="right", color="0.35")
        fig.text(0.25, y, v, fontsize=11)
        y -= 0.026
    y -= 0.02
    fig.text(0.08, y, "Sections", fontsize=13, weight="bold")
    y -= 0.012
    rows = [[s.title, str(s.seed if s.seed is not None else "-"), "\n".join(textwrap.wrap(_fmt_trials(s.trials), 34)),
             f"{s.seconds:.1f} s" if s.seconds is not None else "-"] for s in sections]
    if rows:
        lines = [1] + [max(1, r[2].count("\n") + 1) for r in rows]
        units = [n + 0.6 for n in lines]
        height = 0.0145 * sum(units)
        ax = fig.add_axes((0.08, y - height, 0.84, height))
        ax.axis("off")
        tab = ax.table(cellText=rows, colLabels=["section", "seed (root/key)", "trials", "run time"],
                       loc="upper center", cellLoc="left", colLoc="left", bbox=(0, 0, 1, 1),
                       colWidths=[0.27, 0.2, 0.4, 0.13])
        tab.auto_set_font_size(False)
        tab.set_fontsize(9.5)
        for (r, _c), cell in tab.get_celld().items():
            cell.set_height(units[r] / sum(units))
            cell.set_linewidth(0.3)
            if r == 0:
                cell.set_facecolor("#dde6f0")
    fig.text(0.5, 0.05, "Every Monte Carlo number carries its standard error and a 95% confidence interval; "
             "the same seed reproduces every number.", fontsize=8.5, ha="center", color="0.35")
    pager.count += 1
    pager.pdf.savefig(fig)
    plt.close(fig)


def _fmt_trials(trials) -> str:
    if trials is None:
        return "-"
    if isinstance(trials, (int, np.integer)):
        return f"{int(trials):,}"
    if isinstance(trials, dict):
        return ", ".join(f"{k} {_fmt_trials(v)}" for k, v in trials.items())
    return str(trials)


def _render_section(pager: _Pager, section: Section) -> None:
    pending_text: list[tuple[str | None, str]] = []
    first = True

    def flush():
        """Text pages for the pending text; a section that opens with text opens with its title."""
        nonlocal first
        if pending_text:
            blocks = list(pending_text)
            if first:
                blocks[0] = (section.title if blocks[0][0] is None else blocks[0][0], blocks[0][1])
                if blocks[0][0] != section.title:
                    blocks.insert(0, (section.title, ""))
            _text_pages(pager, section.title, blocks)
            pending_text.clear()
            first = False

    for item in section.items:
        if isinstance(item, str):
            pending_text.append((None, item))
            continue
        if isinstance(item, Text):
            pending_text.append((item.heading, item.text))
            continue
        if isinstance(item, (Figure, RasterFigure, FigureItem)):
            flush()
            fi = item if isinstance(item, FigureItem) else FigureItem(item)
            _figure_page(pager, section.title, fi.figure, fi.title, fi.caption)
        elif isinstance(item, (pd.DataFrame, Table)):
            flush()
            _table_pages(pager, section.title, item if isinstance(item, Table) else Table(item))
        elif isinstance(item, ExperimentResult):
            flush()
            if item.figure is not None:
                _figure_page(pager, section.title, item.figure, item.title, item.reading)
                _table_pages(pager, section.title, Table(item.table, title=f"{item.title}: data", rows_per_page=40))
            else:
                _table_pages(pager, section.title, Table(item.table, title=item.title, caption=item.reading))
        else:
            raise TypeError(f"report items must be str, Text, Figure, FigureItem, DataFrame, Table or "
                            f"ExperimentResult, got {type(item).__name__}")
        first = False  # the section has begun with a page of its own: no title heading later
    flush()


def _rasterise(section: Section) -> None:
    """Render the section's figures to PNG now, close them (pyplot keeps open figures alive) and keep
    only the PNG, so the section is small and can travel back from a worker process."""
    items = []
    for item in section.items:
        if isinstance(item, Figure):
            item = RasterFigure(figure_png(item))
            plt.close(item)
        elif isinstance(item, (FigureItem, ExperimentResult)) and isinstance(item.figure, Figure):
            fig = item.figure
            item = dataclasses.replace(item, figure=RasterFigure(figure_png(fig)))
            plt.close(fig)
        items.append(item)
    section.items = items


def _build_section(name: str, builder, ctx: ReportContext, parent_pid: int | None = None) -> Section:
    if parent_pid is not None:
        watch_parent(parent_pid)  # a worker process: exit if the report is killed
    t0 = time.perf_counter()
    sec = builder(ctx)
    sec.seconds = time.perf_counter() - t0
    _rasterise(sec)
    if sec.seed is None:
        sec.seed = ctx.seed_label(name)
    return sec


def write_pdf(path: str | os.PathLike, sections: Sequence[Section], *, meta: dict | None = None) -> Path:
    """Write the title page and every section to ``path`` (atomically); return the path."""
    meta = dict(meta or {})
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise ValueError(f"out must be a .pdf path, got {str(path)!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    now = _dt.datetime.now(_dt.UTC)
    pdf_meta = {"Title": meta.get("title", "pyradice_lab report"), "Author": "pyradice_lab",
                "Subject": "Strategy and balance analysis of Purramid, Pyradice, Rocking Raft and Meerkat Kingdom",
                "Creator": f"pyradice_lab {__version__}", "CreationDate": now}
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(), suffix=".pdf")
    os.close(fd)
    try:
        with PdfPages(tmp, metadata=pdf_meta) as pdf:
            pager = _Pager(pdf, f"pyradice_lab {__version__}")
            _title_page(pager, sections, meta)
            for section in sections:
                _render_section(pager, section)
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
    if out.is_dir():
        raise ValueError(f"out {str(out)!r} is a directory, not a .pdf file path")
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
    # one run, one set of files: experiments are written into a run folder beside the PDF, and the PDF and
    # the experiment folders replace the previous ones only once everything is built (a killed run leaves
    # the previous report and its files as they were; its run folder is removed by the next run)
    root = out.parent
    root.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(root)
    stage = Path(tempfile.mkdtemp(prefix=temporary_prefix() + "run-", dir=root))
    ctx = ReportContext(quick=quick, seed=int(seed), n_jobs=1, out_dir=stage)
    bar = tqdm(total=len(builders), desc="report", unit="section", disable=not progress, leave=False)
    try:
        if n_jobs == 1:
            sections = []
            for name, builder in builders:
                sections.append(_build_section(name, builder, ctx))
                bar.update(1)
        else:
            # sections are independent (each seeds itself from the root seed and its name): build them in
            # parallel worker processes, one section per worker, with no nested parallelism inside
            from joblib import Parallel, delayed

            parent = os.getpid()
            done: dict[int, Section] = {}
            tasks = (delayed(lambda i, n, b: (i, _build_section(n, b, ctx, parent)))(i, n, b)
                     for i, (n, b) in enumerate(builders))
            try:
                with loky_config(min(n_jobs, len(builders))):
                    for i, sec in Parallel(return_as="generator_unordered")(tasks):
                        done[i] = sec
                        bar.update(1)
            except BaseException:
                stop_worker_processes()
                raise
            sections = [done[i] for i in range(len(builders))]
        bar.close()
        meta = {"seed": seed, "n_jobs": n_jobs, "mode": "quick" if quick else "full",
                "wall_seconds": time.perf_counter() - started,
                "date": _dt.datetime.now().strftime("%Y-%m-%d %H:%M")}
        staged_pdf = write_pdf(stage / out.name, sections, meta=meta)
        for item in sorted(stage.iterdir()):
            if item != staged_pdf:
                _swap_in(item, root / item.name)
        os.replace(staged_pdf, out)
    finally:
        bar.close()
        shutil.rmtree(stage, ignore_errors=True)
    return out
