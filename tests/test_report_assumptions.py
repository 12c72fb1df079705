"""A report a designer would hand to a colleague (issue 45, part 6): every experiment's findings state their
components (file and content hash), players, seed and games; the methods footnote and an exact comparison read
as a person writes them; Monte Carlo bars carry error bars and every line style is in the legend.  The prose
functions and the figure functions are tested directly (no report is built)."""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from pyradice_lab.engine.findings import Finding, methods_note, render  # noqa: E402
from pyradice_lab.engine.results import ExperimentResult  # noqa: E402


def test_every_experiment_states_components_players_seed_and_games():
    from pyradice_lab.report.pdf import experiment_assumptions

    exp = ExperimentResult("raft_start_player", "t", "", None, None, {"n_games": 1200},
                           findings=[Finding("difference", "a", 0.4, 0.3, 0.5, n=1200, null=0.33, player="exact"),
                                     Finding("estimate", "b", 1.0, 0.5, 1.5, n=1200, player="greedy")])
    text = experiment_assumptions(exp, "0/123")
    assert re.fullmatch(r"Assumptions: components packaged \(content hash [0-9a-f]{12}\); players exact; greedy; "
                        r"seed 0/123; 1,200 games\.", text), text
    exact = ExperimentResult("purramid_odds", "t", "", None, None, {"exact": True},
                             findings=[Finding("exact", "c", 0.5, 0.5, 0.5, n=0)])
    assert experiment_assumptions(exact, "0/1").endswith("seed 0/1; exact (no games).")


def test_the_methods_note_says_which_findings_not_bare_numbers():
    fs = [Finding("exact", "a", 1.0, 1.0, 1.0, n=0), Finding("exact", "b", 2.0, 2.0, 2.0, n=0),
          Finding("estimate", "c", 3.0, 2.0, 4.0, n=50, test="t interval")]
    note = methods_note(fs)
    assert note.startswith("Method: findings 1 and 2, exact (no sampling error); finding 3, t interval (")
    assert "Method: 1, 2 exact" not in note


def test_an_exact_comparison_with_stopping_reads_as_a_change():
    f = Finding("exact", "expected tiles this turn from rolling the last die instead of stopping, board X "
                "(stopping keeps 1.00 tiles)", -0.4, -0.4, -0.4, n=0, null=0.0, unit="tiles", player="exact optimum")
    text = render(f)
    assert "0.400 tiles less, exactly" in text and "stopping of" not in text


def _bars_with_error(ax) -> list:
    return [c for c in ax.containers if getattr(c, "errorbar", None) is not None]


def test_meerkat_tile_pay_and_reading_bars_have_error_bars_and_complete_legends():
    from pyradice_lab.meerkat import pages

    tiles = list(range(3, 13))
    fair = pd.DataFrame({"tile": tiles, "points_per_piece": np.linspace(1, 2, 10)})
    fair["points_per_piece_ci_low"] = fair.points_per_piece - 0.1
    fair["points_per_piece_ci_high"] = fair.points_per_piece + 0.1
    base = pd.DataFrame({"tile": tiles, "values": ["5/3"] * 10})
    res = ExperimentResult("meerkat_tile_fairness", "t", "", None, None, {"figure_data": {
        "sweep": [(0.0, None, fair), (1.0, None, fair)], "cvs": [0.1, 0.2], "k1": 1, "base": base, "tiles": tiles}})
    fig = pages.figure_tile_fairness(res)
    ax = fig.axes[0]
    bars = [c for c in ax.containers if c.__class__.__name__ == "BarContainer"]
    assert len(bars) == 2 and all(c.errorbar is not None for c in bars)

    df = pd.DataFrame({"setup": ["3p"], "reading": ["reverse_x"], "option": ["o"], "start_change": [0.01],
                       "start_change_ci_low": [-0.02], "start_change_ci_high": [0.04], "winner_changed_rate": [0.2],
                       "winner_changed_rate_ci_low": [0.15], "winner_changed_rate_ci_high": [0.25]})
    fig = pages.figure_rule_readings(ExperimentResult("meerkat_rule_readings", "t", "", None, None,
                                                      {"figure_data": {"df": df}}))
    bars = [c for c in fig.axes[0].containers if c.__class__.__name__ == "BarContainer"]
    assert bars and all(c.errorbar is not None for c in bars)

    tab = pd.DataFrame({c: np.linspace(0.2, 0.9, 10) for c in (1, 2, 3)}, index=tiles)
    fig = pages.figure_placement_odds(ExperimentResult("meerkat_placement_odds", "t", "", None, None,
                                                       {"figure_data": {"tab": tab, "no": tab * 0.8}}))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    dotted = [ln for ln in fig.axes[0].lines if ln.get_linestyle() == ":"]
    assert len(dotted) == 3 and all(ln.get_label() in labels for ln in fig.axes[0].lines)
    assert sum("no reroll (dotted)" in t for t in labels) == 3
