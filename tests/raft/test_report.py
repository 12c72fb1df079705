"""Experiments and the report section: tidy tables with uncertainty, readings, saved files."""

import numpy as np
import pandas as pd

from pyradice_lab.raft import analysis as ex, readings as rd, sweeps
from pyradice_lab.raft.report import components_table
from pyradice_lab.report import save_experiment


def _check_long(res):
    t = res.table
    assert {"metric", "value", "se", "ci_low", "ci_high", "n"} <= set(t.columns)
    ok = t["se"].notna()
    assert (t.loc[ok, "ci_low"] <= t.loc[ok, "value"] + 1e-12).all()
    assert (t.loc[ok, "value"] <= t.loc[ok, "ci_high"] + 1e-12).all()
    assert len(res.reading) > 100 and res.figure is not None


def test_sweep_experiments_produce_tidy_tables(tmp_path):
    results = [ex.gem_mix((0, 6), 16, 1), ex.flag_depth((5, 20), 16, 2), ex.greed_curve((1.0, 4.0), 16, 3),
               ex.dexterity((0.0, 1.0), 16, 4), ex.sinking(16, 5, players=(2,))]
    for res in results:
        _check_long(res)
        paths = save_experiment(res, tmp_path)
        assert paths["csv"].exists() and paths["png"].exists()
        assert len(pd.read_csv(paths["csv"])) == len(res.table)


def test_card_fairness_keeps_the_deck_total_and_flags_cards():
    res = ex.card_fairness(40, 7)
    t = res.table
    assert len(t) == 39 and set(t["verdict"]) <= {"fair", "over-valued", "under-valued"}
    assert abs(res.meta["rate"] * t["turns_per_compl"].sum() - t["points"].sum()) < 1e-9
    assert (t["fair_low"] <= t["fair_high"]).all()


def test_tilt_model_page_is_exact_and_monotone():
    res = ex.tilt_model(durations=(0.5, 1.0, 2.0))
    t = res.table
    for _, g in t.groupby(["edge", "finger"]):
        assert np.all(np.diff(g["expected_fallen"].to_numpy()) >= -1e-12)


def test_components_table_lists_every_source():
    t = components_table()
    assert set(t["source"]) == {"rules", "reconstruction"}
    assert (t.loc[t.source == "reconstruction", "reasoning"] != "").sum() >= 4


def test_sweep_cells():
    out = sweeps.games_cell({"players": 2, "variant": "sinking", "black": 4}, 12, np.random.default_rng(1))
    assert out["rounds"].n == 12 and out["winning_score"].value > 0
    assert out["start_win_share"].n == 12 and 0 <= out["start_win_share"].value <= 1
    cell = {"players": 4, "variant": "sinking"}
    kept = sweeps.games_cell(cell, 12, np.random.default_rng(1))
    other = sweeps.games_cell({**cell, "replace_sunk": 0}, 12, np.random.default_rng(1))
    assert other["sunk"].value > 0
    assert other["rounds"].value != kept["rounds"].value     # the reading reaches the engine (same seed)
    tilt = sweeps.tilt_cell({"edge": "west", "finger": "left", "duration": 2.0}, 4000, np.random.default_rng(2))
    assert abs(tilt["fallen"].value - tilt["exact"]) < 4 * tilt["fallen"].se


def test_start_player_page_covers_every_position(tmp_path):
    res = rd.start_player(30, 8, players=(2, 3), variants=("standard",))
    t = res.table
    assert sorted(zip(t["players"], t["position"])) == [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]
    for _, g in t.groupby("players"):
        assert abs(g["win_share"].sum() - 1) < 1e-12
    assert "start player" in res.reading and res.figure is not None
    assert save_experiment(res, tmp_path)["png"].exists()


def test_readings_page_pairs_each_alternative_with_the_default():
    res = rd.readings(20, 9)
    t = res.table
    assert set(t["reading"]) == set(rd.READINGS)
    assert (t["ci_low"] <= t["difference"]).all() and (t["difference"] <= t["ci_high"]).all()
    sunk = t[(t.reading == "sunk lifeboats not replaced")]
    assert "sunk" in set(sunk["metric"]) and (sunk["variant"] == "sinking").all()
    # an alternative identical to the default gives exactly zero differences (same seeds, paired)
    same = rd.readings(10, 9, alternatives={"nothing changed": ("standard", {"discards_roll": False})})
    assert (same.table["difference"] == 0).all() and not same.table["matters"].any()


def test_tilt_model_page_defaults_to_random_setups():
    setup = ex.tilt_model(players=2, durations=(1.0,))
    ref = ex.tilt_model(players=2, durations=(1.0,), layout="reference")
    assert setup.meta["layout"] == "setup" and "random 2-player rules setups" in setup.reading
    assert not np.allclose(setup.table["expected_fallen"], ref.table["expected_fallen"])
