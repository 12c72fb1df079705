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
                                         "meerkat_automa_strength", "meerkat_feature_value", "meerkat_hazards",
                                         "meerkat_rule_readings", "meerkat_strong_play"]
    for r in results:
        assert (tmp_path / r.name / f"{r.name}.csv").exists() and (tmp_path / r.name / f"{r.name}.png").exists()
        assert len(r.reading) > 100 and not r.table.empty
    tables = [it for it in sec.items if isinstance(it, Table)]
    assert any("reconstruction" in set(t.frame.get("source", [])) for t in tables)
    by_name = {r.name: r for r in results}
    # the rules' 2-player game (with the automa) comes first; 2 players alone is labelled an extension
    seats = by_name["meerkat_seat_advantage"].table
    assert list(dict.fromkeys(seats["setup"])) == ["2p + automa", "3p", "4p",
                                                  "2p, no automa: extension (not in the rules)"]
    two = seats[seats["setup"] == "2p + automa"]
    assert two["seat"].tolist() == ["player", "player", "automa"] and np.allclose(two["fair_share"], 1 / 3)
    assert np.allclose(seats.groupby("setup")["win_rate"].sum(), 1)   # each game's win is shared out once
    first = two.iloc[0]
    assert f"2p + automa: start player {first.win_rate:.3f}" in by_name["meerkat_seat_advantage"].reading
    readings = by_name["meerkat_rule_readings"].table
    assert set(readings["reading"]) == {"reverse_reading", "jackal_reading"}
    assert set(readings["option"]) == {"extended", "next_tile"} and len(readings) == 6
    assert (readings["applies_rate_ci_low"] <= readings["applies_rate"]).all()
    automa = by_name["meerkat_automa_strength"].table
    assert "extension" in automa.loc[automa["players"] == 1, "setup"].iloc[0]
    strong = by_name["meerkat_strong_play"].table     # quick: expectimax only (the search player needs the compiler)
    vs = strong[strong["finding"] == "head-to-head"]
    assert set(vs["policy"]) == {"expectimax"} and set(vs["opponent"]) == {"greedy", "heuristic"} and len(vs) == 4
    rest = strong[strong["finding"] != "head-to-head"]
    assert set(rest["player"]) == {"heuristic", "expectimax"} and rest["holds"].notna().all()
    assert rest["finding"].str.startswith("points per piece, tile").sum() == 20
    assert (rest["ci_low"] <= rest["value"]).all() and (rest["value"] <= rest["ci_high"]).all()


def test_win_shares_split_ties_and_positions():
    import pandas as pd

    df = pd.DataFrame({"winner": [0, -1, 2], "score_0": [10, 7, 1], "score_1": [5, 7, 2], "score_2": [1, 3, 9],
                       "first_seat": [0, 1, 2]})
    share = A.win_shares(df, 3)
    assert share.tolist() == [[1, 0, 0], [0.5, 0.5, 0], [0, 0, 1]]
    assert np.allclose(share.sum(axis=1), 1)
    assert A.turn_positions(df, 2, True).tolist() == [[0, 1, 2], [1, 0, 2], [0, 1, 2]]


def test_sweep_cell():
    """The sweep cell reports the start player's win share (turn position 1) of the rules' setup, equal to the
    same games simulated directly."""
    from pyradice_lab.meerkat import simulate_games

    out = sweep_cell({"players": 2, "policy": "random_legal"}, 20, np.random.default_rng(1))
    df = simulate_games(20, players=2, policies="random_legal", rng=np.random.default_rng(1))
    assert out["setup"] == "2p + automa" and out["fair_share"] == 1 / 3
    assert out["win_share_start_player"].value == df["start_player_won"].mean()
    first = df["first_seat"].to_numpy()
    scores = df[["score_0", "score_1"]].to_numpy(float)[np.arange(len(df)), first]
    assert out["score_start_player"].value == scores.mean() and out["turns"].value == df["turns"].mean()
    other = 1 - first                                  # the other human seat (the automa is seat 2)
    rows = np.arange(len(df))
    won = [(df["winner"] == s).to_numpy(float) for s in range(3)]
    assert not (df["winner"] == -1).any()              # no shared wins in these games: shares are 0/1
    edge = np.choose(first, won) - np.choose(other, won)
    assert np.isclose(out["start_edge"].value, edge[rows].mean())
    alone = sweep_cell({"players": 2, "automa": "0", "policy": "random_legal"}, 10, np.random.default_rng(1))
    assert "extension" in alone["setup"] and alone["fair_share"] == 0.5
