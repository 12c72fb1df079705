"""Shared pieces of the Purramid report pages: a figure in the report style, table cells holding an
estimate with its interval, and an ExperimentResult built from an :class:`~.analysis.Answer`."""

from __future__ import annotations

import pandas as pd

from ..engine.figures import STYLE
from ..engine.findings import format_value
from ..engine.results import ExperimentResult
from .analysis import Answer

__all__ = ["figure", "interval_text", "ci_cells", "result_of"]


def figure(w=6.7, h=2.6, ncols=1, **kw):
    import matplotlib
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(STYLE):
        fig, ax = plt.subplots(1, ncols, figsize=(w, h), **kw)
    return fig, ax


def interval_text(value: float, low: float, high: float, *, pct: bool = False) -> str:
    """``"52.1 (48.0..56.2)"``: a table cell with the digits its 95% interval supports (``pct``: x 100)."""
    k = 100.0 if pct else 1.0
    spread = k * (high - low) / 2
    f = [format_value(k * v, spread=spread) for v in (value, low, high)]
    return f[0] if low == high else f"{f[0]} ({f[1]}..{f[2]})"


def result_of(name: str, title: str, answer: Answer, method: str, fig, display: pd.DataFrame,
              **meta) -> ExperimentResult:
    """An ExperimentResult from an :class:`~.analysis.Answer`: its data (the CSV), findings, question and
    sample size, with the method text, the figure and the compact table shown on the page."""
    meta = {"exact": answer.exact, **answer.info, **meta}
    return ExperimentResult(name, title, "", answer.data, fig, meta=meta, findings=answer.findings,
                            question=answer.question, sample_size=answer.sample_size, display=display,
                            method=method)


def ci_cells(df: pd.DataFrame, col: str, pct: bool = False) -> pd.Series:
    """:func:`interval_text` of the columns ``col``, ``col_ci_low``, ``col_ci_high`` of every row."""
    return pd.Series([interval_text(r[col], r[f"{col}_ci_low"], r[f"{col}_ci_high"], pct=pct)
                      for _, r in df.iterrows()], index=df.index)


