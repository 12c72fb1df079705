"""One style for report figures, and the checks that keep them readable on an A4 page.

Game report modules draw their figures with matplotlib; this module gives them the shared pieces:

- :func:`axis_label` writes "quantity (unit)" so every axis names what it shows and in which unit;
- :func:`plot_series` draws a series as a line with markers, or as markers only when it has fewer than 3
  points (a line through two points suggests a curve nobody measured);
- :func:`place_legend` puts the legend where it covers no data (outside the axes if it must);
- :func:`reference_line` marks a two-point line (a diagonal, a fair share) as a reference, not data.

:func:`tidy_figure` is applied by the report to every figure before it is rendered (so the game modules
get it without a change): figures wider than the page are resized rather than shrunk, text is at least
:data:`MIN_FONT` points at the size the figure is printed, data lines through fewer than 3 points become
markers, and a legend that covers data moves outside the axes.  :func:`figure_problems` lists what is
still wrong with a figure (an axis without a label, ...), for tests.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> from pyradice_lab.engine.figures import axis_label, plot_series, figure_problems
>>> fig, ax = plt.subplots()
>>> _ = plot_series(ax, [1, 2], [0.4, 0.6], label="2 points: markers only")
>>> ax.get_lines()[0].get_linestyle()
'None'
>>> ax.set_xlabel(axis_label("players"))
Text(...)
>>> figure_problems(fig)
['axes 1: y axis has no label']
>>> plt.close(fig)
"""

from __future__ import annotations

import warnings

import numpy as np

__all__ = ["MIN_FONT", "PAGE_WIDTH_IN", "PAGE_HEIGHT_IN", "axis_label", "plot_series", "place_legend", "objectives_figure",
           "OBJECTIVE_ROWS",
           "reference_line", "tidy_figure", "figure_problems", "relayout", "text_overlaps", "STYLE"]

#: smallest font (points) of any text in a figure; the report may print a figure at 93% to fit a page,
#: so nothing is printed below 7 pt
MIN_FONT = 7.5
#: the width and height (inches) a figure may take on a portrait A4 page of the report
PAGE_WIDTH_IN = 6.7
PAGE_HEIGHT_IN = 2.3  # taller figures are laid out again at this height (their text keeps its size)

#: rcParams for report figures (``with matplotlib.rc_context(STYLE): ...``)
STYLE = {
    "font.size": 9.0,
    "axes.titlesize": 9.5,
    "axes.labelsize": 9.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 7.5,
    "legend.framealpha": 0.85,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "lines.markersize": 5.0,
    "svg.fonttype": "path",
}

_REFERENCE = "reference"


def axis_label(quantity: str, unit: str | None = None) -> str:
    """``"quantity (unit)"``; pass ``unit=None`` for counts and other unitless quantities.

    >>> axis_label("win share", "%")
    'win share (%)'
    """
    if not isinstance(quantity, str) or not quantity.strip():
        raise ValueError(f"quantity must be a non-empty string, got {quantity!r}")
    return f"{quantity} ({unit})" if unit else quantity


def plot_series(ax, x, y, *, yerr=None, label: str | None = None, marker: str = "o", **kwargs):
    """A data series: a line with markers through 3 or more points, markers alone through fewer.

    With ``yerr`` (symmetric, or ``[lower, upper]`` distances) the series is drawn with error bars.
    Returns what matplotlib returns (a list of lines, or an ErrorbarContainer).
    """
    xs = np.asarray(x)
    ls = kwargs.pop("ls", kwargs.pop("linestyle", "-"))
    if np.count_nonzero(np.isfinite(np.asarray(y, dtype=float))) < 3 or len(xs) < 3:
        ls = "none"
    if yerr is not None:
        return ax.errorbar(x, y, yerr=yerr, marker=marker, ls=ls, capsize=kwargs.pop("capsize", 3), label=label,
                           **kwargs)
    return ax.plot(x, y, marker=marker, ls=ls, label=label, **kwargs)


def reference_line(ax, x, y, **kwargs):
    """A line that is a reference (a diagonal, a target), not data: :func:`tidy_figure` leaves it alone."""
    kwargs.setdefault("color", "0.5")
    kwargs.setdefault("lw", 1.0)
    kwargs.setdefault("ls", "--")
    (line,) = ax.plot(x, y, **kwargs)
    line.set_gid(_REFERENCE)
    return line


def place_legend(ax, **kwargs):
    """A legend that covers no data: "best" inside the axes when a free spot exists, else outside right."""
    kwargs.setdefault("fontsize", STYLE["legend.fontsize"])
    leg = ax.legend(**kwargs)
    fig = ax.figure
    if leg is not None and _legend_covers_data(ax, leg, fig.canvas.get_renderer()):
        leg = _legend_outside(ax, leg)
    return leg


# ----------------------------------------------------------------------------------------- checks
def _data_lines(ax):
    for line in ax.get_lines():
        if line.get_gid() == _REFERENCE or line.get_transform() != ax.transData:
            continue  # axhline / axvline live in axes coordinates
        yield line


def _n_points(line) -> int:
    x = np.asarray(line.get_xdata(), dtype=object)
    y = np.asarray(line.get_ydata(), dtype=object)
    try:
        return int(np.count_nonzero(np.isfinite(np.asarray(y, dtype=float))))
    except (TypeError, ValueError):
        return len(x)


def _has_line(line) -> bool:
    return line.get_linestyle() not in ("None", "none", "", " ") and line.get_linewidth() > 0


def _data_paths_display(ax) -> list:
    """The data drawn in ``ax`` as display-space paths (lines, error bars) and boxes (bars, markers)."""
    from matplotlib.path import Path as MPath

    paths, boxes = [], []
    for line in _data_lines(ax):
        try:
            xy = np.asarray(line.get_xydata(), dtype=float)
        except (TypeError, ValueError):
            continue
        xy = xy[np.all(np.isfinite(xy), axis=1)]
        if not len(xy):
            continue
        d = ax.transData.transform(xy)
        if _has_line(line) and len(d) > 1:
            paths.append(MPath(d))
        if line.get_marker() not in (None, "None", "none", "", " "):
            r = line.get_markersize() / 2 * ax.figure.dpi / 72
            boxes += [(x - r, y - r, x + r, y + r) for x, y in d]
    for coll in ax.collections:
        if coll.get_offset_transform() == ax.transData:
            try:
                off = np.asarray(coll.get_offsets(), dtype=float)
            except (TypeError, ValueError):
                off = np.zeros((0, 2))
            if off.ndim == 2 and len(off):
                off = ax.transData.transform(off[np.all(np.isfinite(off), axis=1)])
                boxes += [(x - 3, y - 3, x + 3, y + 3) for x, y in off]
        if coll.get_transform() == ax.transData and hasattr(coll, "get_segments"):
            for seg in coll.get_segments():
                seg = np.asarray(seg, dtype=float)
                if len(seg) > 1 and np.all(np.isfinite(seg)):
                    paths.append(MPath(ax.transData.transform(seg)))
    for patch in ax.patches:
        try:
            bb = patch.get_window_extent()
        except Exception:  # noqa: BLE001 - a patch without extent covers nothing
            continue
        if bb.width > 0 and bb.height > 0:
            boxes.append((bb.x0, bb.y0, bb.x1, bb.y1))
    return [paths, boxes]


def _legend_covers_data(ax, leg, renderer) -> bool:
    from matplotlib.transforms import Bbox

    bb = leg.get_window_extent(renderer)
    paths, boxes = _data_paths_display(ax)
    for x0, y0, x1, y1 in boxes:
        if x0 < bb.x1 and x1 > bb.x0 and y0 < bb.y1 and y1 > bb.y0:
            return True
    box = Bbox.from_extents(bb.x0, bb.y0, bb.x1, bb.y1)
    return any(path.intersects_bbox(box, filled=False) for path in paths)


def _legend_outside(ax, leg):
    import textwrap

    handles = leg.legend_handles
    labels = ["\n".join(textwrap.wrap(t.get_text(), 28)) or t.get_text() for t in leg.get_texts()]
    size = leg.get_texts()[0].get_fontsize() if leg.get_texts() else STYLE["legend.fontsize"]
    title = leg.get_title().get_text() or None
    leg.remove()
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                     fontsize=size, title=title, frameon=False)


def _text_boxes(fig, renderer) -> list:
    """(text, display bbox) of every visible horizontal text of the figure."""
    out = []
    for t in _texts(fig):
        if abs(t.get_rotation() % 180) > 1e-6:
            continue
        try:
            out.append((t, t.get_window_extent(renderer)))
        except (RuntimeError, ValueError):
            continue
    return out


def text_overlaps(fig, tol: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of horizontal texts of the figure that overlap by more than ``tol`` points each way."""
    renderer = fig.canvas.get_renderer()
    boxes = _text_boxes(fig, renderer)
    px = tol * fig.dpi / 72
    pairs = []
    for i in range(len(boxes)):
        ti, bi = boxes[i]
        for j in range(i + 1, len(boxes)):
            tj, bj = boxes[j]
            if ti is tj:
                continue
            ox = min(bi.x1, bj.x1) - max(bi.x0, bj.x0)
            oy = min(bi.y1, bj.y1) - max(bi.y0, bj.y0)
            if ox > px and oy > px:
                pairs.append((ti.get_text(), tj.get_text()))
    return pairs


def figure_problems(fig) -> list[str]:
    """What breaks the report's figure rules: unlabelled axes, data lines through fewer than 3 points,
    text smaller than :data:`MIN_FONT` at the figure's size, legends covering data.  Empty when none."""
    problems = []
    renderer = fig.canvas.get_renderer()
    for i, ax in enumerate(fig.axes, 1):
        if not ax.get_visible() or not ax.axison or _is_colorbar(ax):
            continue
        for name, axis, label in (("x", ax.xaxis, ax.get_xlabel()), ("y", ax.yaxis, ax.get_ylabel())):
            if axis.get_visible() and not label.strip() and not _shares_label(ax, name):
                problems.append(f"axes {i}: {name} axis has no label")
        for line in _data_lines(ax):
            if _has_line(line) and _n_points(line) < 3:
                problems.append(f"axes {i}: a line is drawn through {_n_points(line)} points ({line.get_label()})")
        leg = ax.get_legend()
        if leg is not None and leg.get_visible() and _legend_covers_data(ax, leg, renderer):
            problems.append(f"axes {i}: the legend covers data")
    fig.canvas.draw()
    problems += [f"texts overlap: {a!r} and {b!r}" for a, b in text_overlaps(fig)]
    small = sorted({round(t.get_fontsize(), 1) for t in _texts(fig) if t.get_fontsize() < MIN_FONT - 1e-6})
    if small:
        problems.append(f"text smaller than {MIN_FONT:g} pt: {small}")
    return problems


def _is_colorbar(ax) -> bool:
    return hasattr(ax, "_colorbar") or ax.get_label() == "<colorbar>"


def _shares_label(ax, name: str) -> bool:
    """A subplot in a row/column of subplots sharing one label (set on the first) counts as labelled."""
    group = ax.get_shared_x_axes() if name == "x" else ax.get_shared_y_axes()
    siblings = [a for a in group.get_siblings(ax) if a is not ax]
    return any((a.get_xlabel() if name == "x" else a.get_ylabel()).strip() for a in siblings)


def _texts(fig):
    """Visible, non-empty texts that are drawn (tick labels of ticks outside the view limits are not)."""
    from matplotlib.text import Text

    hidden = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                loc = tick.get_loc()
                if loc is None or not (lo - 1e-9 * max(1.0, abs(hi - lo)) <= loc <= hi + 1e-9 * max(1.0, abs(hi - lo))):
                    hidden.update((id(tick.label1), id(tick.label2)))
    for t in fig.findobj(Text):
        if t.get_visible() and t.get_text().strip() and id(t) not in hidden:
            yield t


# ----------------------------------------------------------------------------------------- tidy
def tidy_figure(fig, *, max_width_in: float = PAGE_WIDTH_IN, max_height_in: float = PAGE_HEIGHT_IN,
                min_font: float = MIN_FONT):
    """Make ``fig`` follow the report's figure rules, in place (idempotent); returns ``fig``.

    - a figure wider (taller) than ``max_width_in`` (``max_height_in``) is resized to fit and laid out
      again, so it is printed at full size and its text keeps its size;
    - text smaller than ``min_font`` grows to it;
    - a data line through fewer than 3 points is drawn as markers only;
    - an axis label or title longer than its axes wraps onto more lines;
    - tick labels that run into each other are turned by 30 degrees (45 when they have several lines);
    - of data labels (annotations) that run into each other, the first drawn stays, the others go;
    - a legend that covers data moves outside the axes, to the right, its labels wrapped.
    """
    if getattr(fig, "_pyradice_tidy", False):
        return fig
    changed = False
    for ax in fig.axes:
        fixed = False
        for line in _data_lines(ax):
            if _has_line(line) and _n_points(line) < 3:
                line.set_linestyle("None")
                if line.get_marker() in (None, "None", "none", "", " "):
                    line.set_marker("o")
                fixed = True
        if fixed:
            _refresh_legend(ax)
    for t in _texts(fig):
        if t.get_fontsize() < min_font:
            t.set_fontsize(min_font)
            changed = True
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = axis.get_ticklabels()
            if labels and min(lab.get_fontsize() for lab in labels) < min_font:
                axis.set_tick_params(labelsize=min_font)
                changed = True
    w, h = fig.get_size_inches()
    if w > max_width_in or h > max_height_in:  # narrower, not smaller: text keeps its printed size
        fig.set_size_inches(min(w, max_width_in), min(h, max_height_in))
        changed = True
    if changed:
        relayout(fig)
    else:
        fig.canvas.draw()
    if _wrap_long_labels(fig) | _turn_crowded_ticks(fig) | _drop_overlapping_annotations(fig):
        relayout(fig)
    renderer = fig.canvas.get_renderer()
    moved = False
    for ax in fig.axes:
        leg = ax.get_legend()
        if leg is not None and leg.get_visible() and _legend_covers_data(ax, leg, renderer):
            _legend_outside(ax, leg)
            moved = True
    if moved:  # the axes got narrower: labels may now be too long or crowded
        relayout(fig)
        if _wrap_long_labels(fig) | _turn_crowded_ticks(fig) | _drop_overlapping_annotations(fig):
            relayout(fig)
    fig._pyradice_tidy = True
    return fig


def _wrap_long_labels(fig) -> bool:
    """Wrap axis labels and titles longer than their axes; True if any changed."""
    import textwrap

    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        if not ax.get_visible() or _is_colorbar(ax):
            continue
        box = ax.get_window_extent(renderer)
        for text, room in ((ax.xaxis.label, box.width), (ax.title, box.width), (ax.yaxis.label, box.height)):
            s = text.get_text()
            if not s.strip() or "\n" in s or "$" in s:
                continue
            size = text.get_window_extent(renderer)
            length = size.height if text is ax.yaxis.label else size.width
            if length > 1.02 * room and len(s) > 8:
                chars = max(8, int(len(s) * room / length))
                text.set_text("\n".join(textwrap.wrap(s, chars)))
                changed = True
    return changed


def _drop_overlapping_annotations(fig) -> bool:
    """Hide annotations that overlap an earlier one (draw the most important labels first)."""
    from matplotlib.text import Annotation

    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        kept = []
        for t in ax.texts:
            if not isinstance(t, Annotation) or not t.get_visible():
                continue
            bb = t.get_window_extent(renderer)
            if any(bb.x0 < k.x1 and bb.x1 > k.x0 and bb.y0 < k.y1 and bb.y1 > k.y0 for k in kept):
                t.set_visible(False)
                changed = True
            else:
                kept.append(bb)
    return changed


def _turn_crowded_ticks(fig) -> bool:
    """Turn the x tick labels of an axes by 30 degrees when neighbours overlap; True if any turned."""
    renderer = fig.canvas.get_renderer()
    changed = False
    for ax in fig.axes:
        labels = [t for t in ax.get_xticklabels() if t.get_visible() and t.get_text().strip()]
        boxes = sorted((t.get_window_extent(renderer) for t in labels), key=lambda b: b.x0)
        if any(b.x0 < a.x1 - 1 for a, b in zip(boxes, boxes[1:])):
            angle = 45 if any("\n" in t.get_text() for t in labels) else 30
            for t in labels:
                t.set_rotation(angle)
                t.set_horizontalalignment("right")
                t.set_rotation_mode("anchor")
            changed = True
    return changed


def _refresh_legend(ax) -> None:
    """Redraw an automatic legend so its handles show the lines as they are now drawn."""
    leg = ax.get_legend()
    if leg is None:
        return
    handles, labels = ax.get_legend_handles_labels()
    if labels != [t.get_text() for t in leg.get_texts()]:
        return  # a hand-made legend: leave it
    size = leg.get_texts()[0].get_fontsize() if leg.get_texts() else None
    title = leg.get_title().get_text() or None
    loc = leg._loc
    leg.remove()
    ax.legend(handles, labels, loc=loc, fontsize=size, title=title, ncols=leg._ncols)


def relayout(fig) -> None:
    """Lay the figure out again after a change of size, fonts or legend (tight layout unless the figure
    has its own layout engine)."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = fig.get_layout_engine()  # a figure once laid out by tight_layout() keeps a placeholder engine
    if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
        fig.canvas.draw()  # constrained or tight layout engine: it lays the figure out when drawn
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fig.tight_layout()
        except (ValueError, RuntimeError, np.linalg.LinAlgError):
            pass
    fig.canvas.draw()



#: most rows :func:`objectives_figure` draws (a report figure is at most PAGE_HEIGHT_IN tall: more rows' labels
#: would overlap at MIN_FONT)
OBJECTIVE_ROWS = 12


def objectives_figure(objectives, *, unit: str | None = None, label: str = "metric", max_rows: int = OBJECTIVE_ROWS):
    """Before and after of a balance proposal: every objective's excess over its target with its 95% CI.

    ``objectives`` is :attr:`pyradice_lab.design.balance.BalanceResult.objectives` (``metric``, ``target``,
    ``before``/``after`` and their ``_ci_low``/``_ci_high``); one row of markers per metric (``"m:3"`` is shown as
    ``"<label> 3"``), the target at 0.  With more than ``max_rows`` objectives only the ``max_rows`` farthest from
    their target before (or after, whichever is farther) are drawn, in their order, and the title says how many
    of how many are shown (the proposal's table lists them all).

    >>> import pandas as pd
    >>> t = pd.DataFrame({"metric": ["m:1", "m:2"], "target": [0.0, 0.0], "before": [1.0, -0.5],
    ...                   "before_ci_low": [0.8, -0.7], "before_ci_high": [1.2, -0.3], "after": [0.2, 0.1],
    ...                   "after_ci_low": [0.0, -0.1], "after_ci_high": [0.4, 0.3]})
    >>> fig = objectives_figure(t, unit="points")
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['metric 1', 'metric 2']
    """
    import matplotlib.pyplot as plt

    if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or max_rows < 1:
        raise ValueError(f"max_rows must be a positive integer, got {max_rows!r}")
    t = objectives.reset_index(drop=True)
    n_all = len(t)
    if n_all > max_rows:
        far = np.maximum((t["before"] - t["target"]).abs(), (t["after"] - t["target"]).abs()).to_numpy(float)
        keep = np.sort(np.argsort(-far, kind="stable")[:max_rows])
        t = t.iloc[keep].reset_index(drop=True)
    y = np.arange(len(t))
    fig, ax = plt.subplots(figsize=(PAGE_WIDTH_IN * 0.8, min(PAGE_HEIGHT_IN * 0.85, max(2.4, 0.22 * len(t) + 1.2))))
    for side, dy, marker in (("before", 0.15, "o"), ("after", -0.15, "s")):
        est = (t[side] - t["target"]).to_numpy(float)
        lo = est - (t[f"{side}_ci_low"] - t["target"]).to_numpy(float)
        hi = (t[f"{side}_ci_high"] - t["target"]).to_numpy(float) - est
        ax.errorbar(est, y + dy, xerr=[lo, hi], marker=marker, ls="none", capsize=2, label=side)
    ax.axvline(0, color="0.4", lw=1, ls="--")
    names = [f"{label} {m.partition(':')[2]}" if ":" in str(m) else str(m) for m in t["metric"]]
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.set_xlabel(axis_label("excess over the target (95% CI)", unit))
    ax.set_ylabel(label)
    if n_all > len(t):
        ax.set_title(f"the {len(t)} of {n_all} {label}s farthest from their target", fontsize=MIN_FONT + 0.5)
    place_legend(ax)
    return fig
