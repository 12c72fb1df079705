"""What a report is made of: sections of text, figures, tables and experiments (the data, not the layout).

These classes are re-exported by :mod:`pyradice_lab.report`, which game report modules import; the PDF
layout lives in :mod:`pyradice_lab.report.pdf`.  Figures are rendered here, once each: a one-page vector
PDF for the report (matplotlib's own PDF backend, embedded in the report as a form XObject) and a PNG for
the files beside the report, both after :func:`pyradice_lab.engine.figures.tidy_figure`.
"""

from __future__ import annotations

import dataclasses
import io
import math
import numbers
import os
import shutil
import sys
import tempfile
import weakref
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .figures import PAGE_HEIGHT_IN, PAGE_WIDTH_IN, relayout, tidy_figure
from .findings import MIN_CLAIM_N, Finding
from .sweep import remove_stale_temporaries, temporary_prefix

__all__ = ["Text", "FigureItem", "Table", "ExperimentResult", "Section", "ReportContext", "RasterFigure",
           "format_table", "figure_png", "render_figure", "EXPERIMENT_TABLE_ROWS", "MIN_CLAIM_N", "save_experiment"]

#: rows of an experiment's table shown in the PDF; the CSV beside the report holds all of them
EXPERIMENT_TABLE_ROWS = 10


@dataclass
class Text:
    """One or more paragraphs (separated by blank lines); ``heading`` printed in bold above.

    Lines starting with ``-``, ``*`` or ``1.`` are list items; ```code``` is set in a monospaced font.
    """

    text: str
    heading: str | None = None


@dataclass
class FigureItem:
    """A matplotlib figure with an optional title above and caption under it."""

    figure: Any
    caption: str = ""
    title: str | None = None


@dataclass
class Table:
    """A DataFrame rendered as a table that splits across pages with its header repeated.

    Columns that do not fit wrap (headers at ``_`` and spaces, text at words); a table too wide for a
    portrait page goes on landscape pages, and one too wide for those is split into column groups that
    repeat the leading label columns.  ``rows_per_page`` is kept for compatibility (pages now break
    where the page is full).  ``fold``: a long, narrow table is printed as this many blocks of rows side
    by side (each with the header), when they fit the page's width; otherwise as one block.
    """

    frame: pd.DataFrame
    caption: str = ""
    title: str | None = None
    rows_per_page: int = 40
    digits: int = 4
    index: bool = False
    fold: int = 1

    def __post_init__(self):
        if isinstance(self.fold, bool) or not isinstance(self.fold, numbers.Integral) or self.fold < 1:
            raise ValueError(f"fold must be a positive integer, got {self.fold!r}")


@dataclass
class ExperimentResult:
    """The answer to one question: findings computed from the data, a reading, a figure and the table.

    Parameters
    ----------
    name : str
        File-safe id; the CSV goes to ``<out>/<name>/<name>.csv``.
    title : str
        Heading (and PDF bookmark) of the experiment.
    reading : str
        How the experiment was run and how to read it.  Claims belong in ``findings``: when the sample
        is smaller than :data:`~pyradice_lab.engine.findings.MIN_CLAIM_N` and there are no findings, the report
        withholds the reading and shows the numbers only.
    table : DataFrame
        The data (the PDF shows at most ``max_rows`` rows; the CSV has all).
    figure : matplotlib Figure, optional
    meta : dict
        Free-form; ``games``/``n_games``/``n``/``sample_size`` give the sample size, ``exact=True``
        marks an experiment without sampling.
    findings : sequence of Finding
        Structured conclusions (see :mod:`pyradice_lab.engine.findings`); rendered as sentences and collected
        on the report's summary page.
    question : str
        The designer's question in one line.
    sample_size : int, optional
        Games (units) per compared group; otherwise taken from the findings, ``meta`` or the table.
    max_rows : int
        Rows of ``table`` shown in the PDF (default :data:`EXPERIMENT_TABLE_ROWS`).
    method : str
        How the numbers were measured (players, sizes, the interval used), without conclusions: shown
        under the question whatever the sample size, unlike ``reading``.
    display : DataFrame, optional
        A compact table shown in the PDF instead of ``table`` (e.g. estimates with their intervals, one
        row per compared group); the CSV beside the report always holds ``table``, every row.
    pdf_figure : bool
        Print the figure in the PDF (default).  False for a figure that only repeats a small table: it is
        still saved as ``<name>.png`` beside the report, and the page names that file.
    """

    name: str
    title: str
    reading: str
    table: pd.DataFrame
    figure: Any = None
    meta: dict = field(default_factory=dict)
    findings: tuple = ()
    question: str = ""
    sample_size: int | None = None
    max_rows: int = EXPERIMENT_TABLE_ROWS
    display: Any = None
    method: str = ""
    pdf_figure: bool = True

    def __post_init__(self):
        if not isinstance(self.pdf_figure, bool):
            raise TypeError(f"pdf_figure must be True or False, got {type(self.pdf_figure).__name__}")
        if not isinstance(self.method, str):
            raise TypeError(f"method must be a string, got {type(self.method).__name__}")
        if self.display is not None and not isinstance(self.display, pd.DataFrame):
            raise TypeError(f"display must be a DataFrame or None, got {type(self.display).__name__}")
        self.findings = tuple(self.findings)
        for f in self.findings:
            if not isinstance(f, Finding):
                raise TypeError(f"findings must be Finding objects, got {type(f).__name__}")
        if self.sample_size is not None and (isinstance(self.sample_size, bool) or
                                             not isinstance(self.sample_size, numbers.Integral) or
                                             self.sample_size < 0):
            raise ValueError(f"sample_size must be a non-negative integer or None, got {self.sample_size!r}")
        if isinstance(self.max_rows, bool) or not isinstance(self.max_rows, numbers.Integral) or self.max_rows < 1:
            raise ValueError(f"max_rows must be a positive integer, got {self.max_rows!r}")

    @property
    def exact(self) -> bool:
        """Whether the experiment has no sampling error (``meta["exact"]``, or only exact findings)."""
        if self.meta.get("exact"):
            return True
        return bool(self.findings) and all(f.kind == "exact" for f in self.findings)

    def resolved_sample_size(self) -> int | None:
        """The sample size the experiment's numbers rest on (smallest compared group), if known.

        In order: ``sample_size``; the smallest ``n`` of the sampled findings; ``meta`` keys
        ``sample_size``, ``games``, ``n_games``, ``n`` (a dict of sizes gives its smallest); the smallest
        positive value of a ``games``, ``n_games`` or ``n`` column of the table.
        """
        if self.sample_size is not None:
            return int(self.sample_size)
        ns = [f.n for f in self.findings if f.kind != "exact"]
        if ns:
            return min(ns)
        for key in ("sample_size", "games", "n_games", "n"):
            if key in self.meta:
                n = _smallest(self.meta[key])
                if n is not None:
                    return n
        if isinstance(self.table, pd.DataFrame):
            for col in ("games", "n_games", "n"):
                if col in self.table.columns:
                    n = _smallest(self.table[col].tolist())
                    if n is not None:
                        return n
        return None

    @property
    def sample_unit(self) -> str:
        """What the sample size counts: the findings' unit (e.g. "cells"), else "games"."""
        units = [f.sample_unit for f in self.findings if f.kind != "exact"]
        return units[0] if units else "games"

    def claims_allowed(self) -> bool:
        """Whether the experiment may state conclusions: its findings each have enough data (their own
        ``min_n``); without findings, its sample is unknown or at least :data:`MIN_CLAIM_N`.  When False
        the report shows the numbers and withholds the reading."""
        if self.exact:
            return True
        if self.findings:
            return all(f.enough_data and not f.no_claim for f in self.findings)
        n = self.resolved_sample_size()
        return n is None or n >= MIN_CLAIM_N


def _smallest(v) -> int | None:
    vals = list(v.values()) if isinstance(v, dict) else list(v) if isinstance(v, (list, tuple)) else [v]
    out = []
    for x in vals:
        if isinstance(x, (dict, list, tuple)):
            x = _smallest(x)
        if isinstance(x, bool) or not isinstance(x, (numbers.Real, np.integer, np.floating)) or x is None:
            continue
        if math.isfinite(float(x)) and float(x) > 0:
            out.append(int(x))
    return min(out) if out else None


@dataclass
class Section:
    """An ordered group of report items with the seed and trials that produced them."""

    title: str
    items: list = field(default_factory=list)
    seed: Any = None
    trials: Any = None
    seconds: float | None = None
    cpu_seconds: float | None = None  # CPU time of the process that built it (the machine may be shared)


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
def _cell(v, digits: int) -> str:
    if v is None or v is pd.NA or v is pd.NaT:
        return "–"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return "–"
        if np.isinf(v):
            return "∞" if v > 0 else "−∞"
        s = f"{v:.{digits}g}"
        return "0" if s == "-0" else s
    if isinstance(v, tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def format_table(df: pd.DataFrame, digits: int = 4, index: bool = False) -> pd.DataFrame:
    """Strings for display: floats to ``digits`` significant digits, tuples joined, booleans yes/no,
    missing values (NaN, None) as "–", never "nan" or "None"."""
    out = df.reset_index() if index else df.copy()
    out.columns = [str(c) for c in out.columns]
    return out.apply(lambda col: col.map(lambda v: _cell(v, digits))).astype(str)


# ----------------------------------------------------------------------------------------- figures
@dataclass(frozen=True)
class RasterFigure:
    """A figure already rendered (what sections built in worker processes send back).

    ``pdf``: the figure as a one-page vector PDF (matplotlib's PDF backend, fonts embedded, so its text
    stays text); ``png``: PNG bytes (may be empty when only the PDF was needed); ``size``: (width,
    height) in points as rendered.  ``RasterFigure(png)`` alone still works: the PDF then shows the PNG.
    """

    png: bytes = b""
    pdf: bytes = b""
    size: tuple[float, float] | None = None


def _is_figure(obj) -> bool:
    """Whether ``obj`` is a matplotlib Figure, without importing matplotlib (no figure exists before it is
    imported): importing this module must not import matplotlib nor choose its backend (a notebook keeps its
    inline backend; the report's worker processes choose Agg in :mod:`pyradice_lab.report.build`)."""
    mod = sys.modules.get("matplotlib.figure")
    return mod is not None and isinstance(obj, mod.Figure)


_PNG_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PNG_DPI = 150


def figure_png(figure, dpi: int = _PNG_DPI) -> bytes:
    """The figure (tidied for the page) rendered once as PNG bytes (reused by save_experiment and the PDF)."""
    if isinstance(figure, RasterFigure):
        if not figure.png:
            raise ValueError("figure was rendered without a PNG")
        return figure.png
    cached = _PNG_CACHE.get(figure)
    if cached is not None and dpi in cached:
        return cached[dpi]
    tidy_figure(figure)
    buf = io.BytesIO()
    figure.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    _PNG_CACHE.setdefault(figure, {})[dpi] = buf.getvalue()
    return buf.getvalue()


def _png_size(png: bytes, dpi: float = _PNG_DPI) -> tuple[float, float]:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        return im.width * 72 / dpi, im.height * 72 / dpi


def render_figure(figure, *, close: bool = True) -> RasterFigure:
    """Render ``figure`` for the PDF: tidied (:func:`~pyradice_lab.engine.figures.tidy_figure`), as a vector
    one-page PDF with embedded TrueType fonts, plus any PNG already made for the files beside the report.
    Closes the figure (pyplot keeps open figures alive) unless ``close=False``."""
    if isinstance(figure, RasterFigure):
        if figure.size is None and figure.png:
            return dataclasses.replace(figure, size=_png_size(figure.png))
        return figure
    if not _is_figure(figure):
        raise TypeError(f"figure must be a matplotlib Figure, got {type(figure).__name__}")
    import matplotlib
    import matplotlib.pyplot as plt

    tidy_figure(figure)
    png = (_PNG_CACHE.get(figure) or {}).get(_PNG_DPI, b"")
    max_w, max_h = PAGE_WIDTH_IN * 72, PAGE_HEIGHT_IN * 72
    prev = None
    for _ in range(5):
        buf = io.BytesIO()
        with matplotlib.rc_context({"pdf.fonttype": 42}):
            figure.savefig(buf, format="pdf", bbox_inches="tight", metadata={"Creator": None, "Producer": None,
                                                                              "CreationDate": None})
        pdf = buf.getvalue()
        w, h = _pdf_size(pdf)
        if w <= max_w * 1.005 and h <= max_h * 1.005:
            break
        # something reaches out of the figure (a legend, a note): narrow the figure until the saved page fits,
        # so the report prints it at full size instead of shrinking its text (secant steps: the saved size
        # grows with the figure size at a rate below 72 pt per inch)
        fw, fh = figure.get_size_inches()
        rate_w = rate_h = 72.0
        if prev is not None:
            pfw, pfh, pw, ph = prev
            rate_w = min(72.0, max(8.0, (pw - w) / (pfw - fw))) if pfw != fw else 72.0
            rate_h = min(72.0, max(8.0, (ph - h) / (pfh - fh))) if pfh != fh else 72.0
        prev = (fw, fh, w, h)
        figure.set_size_inches(max(1.0, fw - max(0.0, w - max_w + 1) / rate_w),
                               max(1.0, fh - max(0.0, h - max_h + 1) / rate_h))
        relayout(figure)
    if close:
        plt.close(figure)
    return RasterFigure(png, pdf, _pdf_size(pdf))


def _pdf_size(pdf: bytes) -> tuple[float, float]:
    from pypdf import PdfReader

    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return float(box.width), float(box.height)


def rasterise(section: Section) -> Section:
    """Render every figure of ``section`` now (see :func:`render_figure`) and keep only the result, so the
    section is small, picklable and can travel back from a worker process.  In place; returns it."""
    items = []
    for item in section.items:
        if _is_figure(item):
            item = render_figure(item)
        elif isinstance(item, (FigureItem, ExperimentResult)) and _is_figure(item.figure):
            item = dataclasses.replace(item, figure=render_figure(item.figure))
        items.append(item)
    section.items = items
    return section


# ------------------------------------------------------------------------ saving an experiment's files
def save_experiment(result: ExperimentResult, root: str | os.PathLike = "reports") -> dict[str, Path]:
    """Write ``<root>/<name>/<name>.csv`` (and ``.png`` if there is a figure); return the paths.

    With findings, ``<name>_findings.csv`` lists them (one row each, with the rendered sentence).  The folder
    is written under a temporary name and swapped in whole: it never mixes the files of two runs, and an
    interrupted write leaves the previous folder as it was.
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(root)
    folder = root / result.name
    stage = Path(tempfile.mkdtemp(prefix=temporary_prefix(), dir=root))
    names = {"csv": f"{result.name}.csv"}
    try:
        result.table.to_csv(stage / names["csv"], index=False)
        if result.findings:
            from .findings import findings_table

            names["findings"] = f"{result.name}_findings.csv"
            findings_table(result.findings).to_csv(stage / names["findings"], index=False)
        if result.figure is not None:
            names["png"] = f"{result.name}.png"
            (stage / names["png"]).write_bytes(figure_png(result.figure))
        swap_in(stage, folder)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return {k: folder / v for k, v in names.items()}


def swap_in(new: Path, target: Path) -> None:
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
