"""The report section builds in quick mode, saves every experiment, and its pieces are consistent."""

import numpy as np

from pyradice_lab.meerkat import analysis as A
from pyradice_lab.meerkat.report import report_section
from pyradice_lab.meerkat.sweeps import games_cell as sweep_cell
from pyradice_lab.report import ExperimentResult, ReportContext, Table


def test_quick_section(tmp_path):
    sec = report_section(ReportContext(quick=True, seed=3, out_dir=tmp_path))
    results = [it for it in sec.items if isinstance(it, ExperimentResult)]
    assert [r.name for r in results] == ["meerkat_placement_odds", "meerkat_tile_fairness", "meerkat_seat_advantage",
                                         "meerkat_automa_strength", "meerkat_feature_value", "meerkat_hazards"]
    for r in results:
        assert (tmp_path / r.name / f"{r.name}.csv").exists() and (tmp_path / r.name / f"{r.name}.png").exists()
        assert len(r.reading) > 100 and not r.table.empty
    tables = [it for it in sec.items if isinstance(it, Table)]
    assert any("reconstruction" in set(t.frame.get("source", [])) for t in tables)


def test_win_shares_split_ties_and_positions():
    import pandas as pd

    df = pd.DataFrame({"winner": [0, -1, 2], "score_0": [10, 7, 1], "score_1": [5, 7, 2], "score_2": [1, 3, 9],
                       "first_seat": [0, 1, 2]})
    share = A.win_shares(df, 3)
    assert share.tolist() == [[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1]]
    assert np.allclose(share.sum(axis=1), 1)
    assert A.turn_positions(df, 2, True).tolist() == [[0, 1, 2], [1, 0, 2], [0, 1, 2]]


def test_sweep_cell():
    out = sweep_cell({"players": 2, "automa": 1, "policy": "random_legal"}, 20, np.random.default_rng(1))
    assert 0 <= out["win_share_seat0"].value <= 1 and out["turns"].value > 5
