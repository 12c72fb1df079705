"""The report section builds in quick mode, saves every experiment, and its pieces are consistent."""

import numpy as np

from pyradice_lab.engine.findings import MIN_CLAIM_N, render
from pyradice_lab.meerkat import analysis as A, report as R
from pyradice_lab.meerkat.report import report_section
from pyradice_lab.meerkat.sweeps import games_cell as sweep_cell
from pyradice_lab.report.build import ExperimentResult, ReportContext, Table


def test_quick_section(tmp_path):
    sec = report_section(ReportContext(quick=True, seed=3, out_dir=tmp_path))
    results = [it for it in sec.items if isinstance(it, ExperimentResult)]
    assert [r.name for r in results] == ["meerkat_placement_odds", "meerkat_tile_fairness", "meerkat_seat_advantage",
                                         "meerkat_automa_strength", "meerkat_feature_value", "meerkat_hazards",
                                         "meerkat_rule_readings", "meerkat_strong_play"]
    for r in results:
        assert (tmp_path / r.name / f"{r.name}.csv").exists() and (tmp_path / r.name / f"{r.name}.png").exists()
        assert len(r.reading) > 100 and not r.table.empty and r.question
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
    # findings are computed from the tables: the start-player edge of each setup is the table's number
    edges = {f.quantity.rsplit(", ", 1)[-1] if "extension" not in f.quantity else "ext": f
             for f in by_name["meerkat_seat_advantage"].findings}
    first = two.iloc[0]
    assert edges["2p + automa"].estimate == first.start_edge and edges["2p + automa"].null == 0
    assert (seats["start_edge_ci_low"].dropna() >= -1).all() and (seats["start_edge_ci_high"].dropna() <= 1).all()
    # quick mode is honest: every experiment states findings, no sampled finding claims anything (n < MIN_CLAIM_N)
    for r in results:
        assert r.findings, r.name
        for f in r.findings:
            text = render(f)
            assert not any(bad in text.split() for bad in ("nan", "inf", "None")), text
            assert f.kind == "exact" or (not f.is_claim and "no conclusion is drawn" in text), text
    hazards = by_name["meerkat_hazards"].table
    for col in ("hazards_per_game", "lost_per_seat"):   # counts: intervals never below 0
        assert (hazards[f"{col}_ci_low"] >= 0).all() and (hazards[f"{col}_ci_low"] <= hazards[col]).all()
    fair = by_name["meerkat_tile_fairness"].table
    assert (fair["points_per_piece_ci_low"] >= 0).all()
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


def _claims_follow_from_numbers(findings):
    for f in findings:
        assert f.enough_data or f.kind == "exact"
        if f.null is None:
            assert not f.is_claim
            continue
        excludes = f.ci_low > f.null or f.ci_high < f.null if f.kind != "exact" else f.estimate != f.null
        assert f.is_claim == excludes, render(f)
        text = render(f)
        if f.is_claim:
            up = f.estimate > f.null  # a difference from 0 reads "more"/"less" (percentages "higher"/"lower")
            assert any(w in text for w in (("above", "more", "higher") if up else ("below", "less", "lower"))), text
        else:
            assert "no difference" in text, text


def test_findings_follow_from_their_tables_at_full_size():
    """Every findings function on tables of the full report's size (n >= MIN_CLAIM_N): a claim is made exactly
    when the interval excludes the null, in the direction of the estimate; the numbers are the table's."""
    import pandas as pd

    n = MIN_CLAIM_N * 10
    seats = pd.DataFrame({"setup": ["3p", "3p", "3p", "4p"], "position": [1, 2, 3, 1],
                          "start_edge": [0.05, np.nan, np.nan, 0.01], "start_edge_se": [0.01, np.nan, np.nan, 0.02],
                          "start_edge_ci_low": [0.03, np.nan, np.nan, -0.03],
                          "start_edge_ci_high": [0.07, np.nan, np.nan, 0.05], "games": n})
    found = R.seat_findings(seats)
    assert [f.is_claim for f in found] == [True, False] and found[0].estimate == 0.05
    _claims_follow_from_numbers(found)
    feats = pd.DataFrame({"variant": ["baseline heuristic", "never rerolls", "never places the queen"],
                          "score_edge": [0.0, -6.0, -0.5], "score_edge_se": [0.5, 0.5, 0.5],
                          "score_edge_ci_low": [-1.0, -7.0, -1.5], "score_edge_ci_high": [1.0, -5.0, 0.5],
                          "games": n})
    found = R.feature_findings(feats)
    assert [f.is_claim for f in found] == [True, False] and found[0].estimate == -6.0
    _claims_follow_from_numbers(found)
    fair = pd.DataFrame({"tile": [3, 7, 12], "values": ["9/4", "6/3", "11/6/3"], "pieces": [10.0, 10.0, 10.0],
                         "paid": [15.0, 10.0, 20.0], "points_per_piece": [1.5, 1.0, 2.0],
                         "points_per_piece_ci_low": [1.4, 0.9, 1.9], "points_per_piece_ci_high": [1.6, 1.1, 2.1]})
    found = R.fairness_findings(fair, n)
    assert [f.quantity.split(", ")[1][:7] for f in found] == ["tile 12", "tile 7 "]
    assert all(f.component for f in found) and all(f.null == 1.5 for f in found)
    _claims_follow_from_numbers(found)


def test_quick_findings_follow_from_their_tables(tmp_path):
    """The quick section's findings, rebuilt with the sample size of the full report, claim exactly what their
    intervals say (the sign and significance follow from the numbers)."""
    sec = report_section(ReportContext(quick=True, seed=5, out_dir=tmp_path))
    by_name = {it.name: it for it in sec.items if isinstance(it, ExperimentResult)}
    big = MIN_CLAIM_N * 10
    checks = [R.seat_findings(by_name["meerkat_seat_advantage"].table.assign(games=big)),
              R.automa_findings(by_name["meerkat_automa_strength"].table.assign(games=big)),
              R.feature_findings(by_name["meerkat_feature_value"].table.assign(games=big)),
              R.hazard_findings(by_name["meerkat_hazards"].table.assign(games=big)),
              R.fairness_findings(by_name["meerkat_tile_fairness"].table, big),
              by_name["meerkat_placement_odds"].findings]
    for found in checks:
        assert found
        _claims_follow_from_numbers(found)
