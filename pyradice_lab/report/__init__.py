"""The document: above the designer's tools, below the CLI.

- the data types an experiment returns (:class:`ExperimentResult`, :class:`Section`, :class:`Finding`) and the
  shared matplotlib style live below the games, in :mod:`~pyradice_lab.engine.results`,
  :mod:`~pyradice_lab.engine.findings` and :mod:`~pyradice_lab.engine.figures`; they are re-exported here
  (``report.items``, ``report.findings`` and ``report.figures`` are the same module objects, kept for old imports).
- :mod:`~pyradice_lab.report.build`: :func:`build_report` (the sections in worker processes) and
  :func:`write_pdf`; :mod:`~pyradice_lab.report.pdf`, :mod:`~pyradice_lab.report.tables` and
  :mod:`~pyradice_lab.report.style`: the ReportLab layout.
- ``report.checks`` is :mod:`pyradice_lab.design.checks` (the robustness checks run there; kept for old imports).
- :mod:`~pyradice_lab.report.strength`: the strength part; :mod:`~pyradice_lab.report.overview`: the overview.
- :mod:`~pyradice_lab.report.runner`: :func:`run_experiment`, the one runner of the ``experiments/`` scripts.

The document builder's names load on first use (``from pyradice_lab.report import Section, write_pdf``), so a
game importing :mod:`~pyradice_lab.engine.results` never loads the PDF engine.

>>> from pyradice_lab.report import Section
>>> Section("Demo", ["Some text."]).title
'Demo'
"""

from typing import TYPE_CHECKING

from ..engine._lazy import attach

__getattr__, __dir__, __all__ = attach(globals(), {
    "items": ["Text", "FigureItem", "Table", "ExperimentResult", "Section", "ReportContext", "RasterFigure",
              "EXPERIMENT_TABLE_ROWS"],
    "findings": ["Finding", "MIN_CLAIM_N"],
    "build": ["write_pdf", "build_report", "DEFAULT_REPORT", "MAX_PAGES", "ReportLengthWarning"],
    "runner": ["run_experiment"],
}, submodules=["build", "pdf", "tables", "style", "checks", "strength", "overview"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see
    from ..engine.findings import MIN_CLAIM_N as MIN_CLAIM_N, Finding as Finding
    from ..engine.results import (
        EXPERIMENT_TABLE_ROWS as EXPERIMENT_TABLE_ROWS,
        ExperimentResult as ExperimentResult,
        FigureItem as FigureItem,
        RasterFigure as RasterFigure,
        ReportContext as ReportContext,
        Section as Section,
        Table as Table,
        Text as Text,
    )
    from .build import (
        DEFAULT_REPORT as DEFAULT_REPORT,
        MAX_PAGES as MAX_PAGES,
        ReportLengthWarning as ReportLengthWarning,
        build_report as build_report,
        write_pdf as write_pdf,
    )
    from .runner import run_experiment as run_experiment
