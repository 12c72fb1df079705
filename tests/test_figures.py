"""The shared figure rules: markers for fewer than 3 points, labels that fit, legends off the data, text
large enough at the printed size; tidy_figure applies them, figure_problems reports what is left."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pyradice_lab.engine.figures import (
    MIN_FONT,
    PAGE_WIDTH_IN,
    axis_label,
    figure_problems,
    place_legend,
    plot_series,
    reference_line,
    text_overlaps,
    tidy_figure,
)


def labelled(ax):
    ax.set_xlabel("players")
    ax.set_ylabel(axis_label("win share", "%"))


def test_a_line_through_two_points_becomes_markers_but_a_reference_line_stays():
    fig, ax = plt.subplots()
    ax.plot([1, 2], [0.4, 0.6], label="data")
    ref = reference_line(ax, [0, 1], [0, 1])
    ax.plot([1, 2, 3], [1, 2, 3], label="three points")
    ax.legend()
    labelled(ax)
    assert any("line is drawn through 2 points" in p for p in figure_problems(fig))
    tidy_figure(fig)
    data, _, three = ax.get_lines()
    assert data.get_linestyle() == "None" and data.get_marker() == "o"
    assert ref.get_linestyle() == "--" and three.get_linestyle() == "-"
    assert ax.get_legend().legend_handles[0].get_linestyle() == "None"  # the legend shows what is drawn
    assert figure_problems(fig) == []


def test_plot_series_draws_markers_only_below_three_points():
    fig, ax = plt.subplots()
    plot_series(ax, [1, 2], [1, 2])
    plot_series(ax, [1, 2, 3], [1, 2, 3])
    plot_series(ax, [1, 2], [1, 2], yerr=[0.1, 0.1])
    lines = ax.get_lines()
    assert [ln.get_linestyle() for ln in lines[:2]] == ["None", "-"]


def test_wide_figures_are_narrowed_not_shrunk_and_small_text_grows():
    fig, axes = plt.subplots(1, 3, figsize=(11, 3))
    for ax in axes:
        ax.plot(np.arange(5), np.arange(5) ** 2)
        labelled(ax)
        ax.tick_params(labelsize=5)
    tidy_figure(fig)
    assert fig.get_size_inches()[0] == pytest.approx(PAGE_WIDTH_IN)
    assert min(t.get_fontsize() for ax in axes for t in ax.get_xticklabels()) >= MIN_FONT
    assert not [p for p in figure_problems(fig) if "smaller" in p]


def test_long_labels_wrap_and_crowded_tick_labels_turn():
    fig, (a, b) = plt.subplots(1, 2, figsize=(6.7, 3))
    for ax in (a, b):
        ax.plot([0, 1, 2], [0, 1, 2])
        ax.set_xlabel("seat 0 timing noise (log-sd of the executed tilt, seconds)")
        ax.set_ylabel("points")
    cats = [f"category number {i}" for i in range(8)]
    b.cla()
    b.bar(cats, range(8))
    b.set_xlabel("category")
    b.set_ylabel("count")
    fig.canvas.draw()
    assert text_overlaps(fig)
    tidy_figure(fig)
    assert "\n" in a.get_xlabel()
    assert all(t.get_rotation() == 30 for t in b.get_xticklabels())
    assert figure_problems(fig) == []


def test_a_legend_covering_data_moves_outside():
    fig, ax = plt.subplots(figsize=(5, 3))
    x = np.linspace(0, 1, 50)
    for k in range(4):  # lines everywhere: no free corner
        ax.plot(x, (x * (k + 1) + 0.3 * k) % 1.0, label=f"series {k}")
    ax.legend(loc="center")
    labelled(ax)
    assert "axes 1: the legend covers data" in figure_problems(fig)
    tidy_figure(fig)
    assert figure_problems(fig) == []
    leg = ax.get_legend()
    assert leg.get_window_extent().x0 >= ax.get_window_extent().x1 - 1


def test_place_legend_and_unlabelled_axes():
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [0, 1, 0], label="a")
    place_legend(ax)
    assert figure_problems(fig) == ["axes 1: x axis has no label", "axes 1: y axis has no label"]
    with pytest.raises(ValueError, match="quantity"):
        axis_label("")


def _objectives(n):
    import pandas as pd

    b = np.linspace(-2.0, 2.0, n)
    a = 0.3 * b
    return pd.DataFrame({"metric": [f"card_points_excess:{i + 1}" for i in range(n)], "target": 0.0,
                         "before": b, "before_ci_low": b - 0.2, "before_ci_high": b + 0.2,
                         "after": a, "after_ci_low": a - 0.2, "after_ci_high": a + 0.2})


def test_objectives_figure_with_many_rows_draws_the_farthest_with_a_note_and_no_overlapping_labels():
    import matplotlib

    from pyradice_lab.engine.figures import OBJECTIVE_ROWS, STYLE, objectives_figure, text_overlaps

    with matplotlib.rc_context(STYLE):
        fig = objectives_figure(_objectives(39), unit="points", label="card")   # the Raft worked case's 39 cards
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        assert len(labels) == OBJECTIVE_ROWS
        # linspace(-2, 2, 39): the farthest from 0 are the 6 at each end, kept in their order
        assert labels == [f"card {k}" for k in (*range(1, 7), *range(34, 40))]
        assert fig.axes[0].get_title() == f"the {OBJECTIVE_ROWS} of 39 cards farthest from their target"
        fig.canvas.draw()
        assert text_overlaps(fig) == []
        few = objectives_figure(_objectives(5), label="card")
        assert len(few.axes[0].get_yticklabels()) == 5 and few.axes[0].get_title() == ""
    plt.close("all")
    with pytest.raises(ValueError, match="max_rows"):
        objectives_figure(_objectives(3), max_rows=0)
