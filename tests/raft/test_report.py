"""Experiments and the report section: tidy tables with uncertainty, readings, saved files."""

import re

import numpy as np
import pandas as pd

from pyradice_lab.raft import analysis as ex, readings as rd, sweeps
from pyradice_lab.raft.pages import components_table, draw
from pyradice_lab.report.build import save_experiment


def _check_long(res):
    t = res.table
    assert {"metric", "value", "se", "ci_low", "ci_high", "n"} <= set(t.columns)
    ok = t["se"].notna()
    assert (t.loc[ok, "ci_low"] <= t.loc[ok, "value"] + 1e-12).all()
    assert (t.loc[ok, "value"] <= t.loc[ok, "ci_high"] + 1e-12).all()
    assert len(res.reading) > 100 and res.figure is None  # the experiment computes; pages draws
    assert draw(res).figure is not None


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
    # issue 28: one test per card, Holm-adjusted over the deck: a verdict only where p_holm < 0.05
    assert ((t["verdict"] != "fair") == (t["p_holm"] < 0.05)).all()
    outside = (t["points"] > t["fair_high"]) | (t["points"] < t["fair_low"])
    assert (outside | (t["verdict"] == "fair")).all()  # Holm flags a subset of the uncorrected intervals
    assert "Holm-adjusted over the deck's 39 cards" in res.reading


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
    # turn positions are 1-based in the report's tables (1 = the start player), as in every game's text
    assert sorted(zip(t["players"], t["position"])) == [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3)]
    for _, g in t.groupby("players"):
        assert abs(g["win_share"].sum() - 1) < 1e-12
    assert "start player" in res.reading and res.figure is None
    assert draw(res).figure is not None
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


def test_strong_play_pages_carry_both_policies_with_intervals(tmp_path):
    from pyradice_lab.raft import strong_play as sp

    duel = sp.strength_duels(6, 3, players=(2,), rivals=("greedy",))
    t = duel.table
    assert t[["players", "rival", "games"]].values.tolist() == [[2, "greedy", 12]]
    assert (t["win_share_ci_low"] <= t["win_share"]).all() and (t["win_share"] <= t["win_share_ci_high"]).all()
    again = sp.strength_duels(6, 3, players=(2,), rivals=("greedy",))
    pd.testing.assert_frame_equal(t, again.table)          # same seed, same games
    res = sp.strong_play(12, 4, players=(2,), blacks=(0, 6), mix_games=6, card_players=2, blocks=3)
    _check_long(res)
    assert set(res.table["policy"]) == {"greedy", "exact"}
    assert set(res.table["finding"]) == {"start player", "card fairness", "gem mix"}
    assert "greedy" in res.reading and "exact" in res.reading
    assert save_experiment(res, tmp_path)["csv"].exists()


def _render_clean(res):
    from pyradice_lab.engine.findings import render

    assert res.findings, res.name
    for f in res.findings:
        text = render(f)
        for bad in ("nan", "inf", "None"):
            assert bad not in text.replace(",", " ").replace("(", " ").replace(")", " ").split(), text


def test_findings_follow_from_each_experiments_own_table():
    """Every experiment's findings are computed from its table: the numbers agree, nothing reads NaN."""
    from pyradice_lab.raft import strong_play as sp
    from pyradice_lab.raft.components import default_components

    tilt = ex.tilt_model(durations=(0.5, 1.0))
    _render_clean(tilt)
    at1 = tilt.table[tilt.table.duration == 1.0]["expected_fallen"]
    (f,) = tilt.findings
    assert tilt.exact and f.kind == "exact" and abs(f.estimate - (at1.max() - at1.min())) < 1e-12 and f.is_claim

    gem = ex.gem_mix((0, 6), 16, 1)
    _render_clean(gem)
    r = gem.table[gem.table.metric == "rounds"].set_index("black_gems")["value"]
    assert abs(gem.findings[0].estimate - (r[6] - r[0])) < 1e-12
    assert not gem.claims_allowed() and not any(f.is_claim for f in gem.findings)   # 16 games: numbers only

    card = ex.card_fairness(40, 7, blocks=4)
    _render_clean(card)
    deck = default_components().deck
    t = card.table.assign(size=[c.size for c in deck])  # rows in deck order
    by = t.groupby("size").apply(lambda g: g["points"].sum() / g["turns_per_compl"].sum(), include_groups=False)
    got = {int(f.quantity.split("-slot")[0].split()[-1]): f.estimate for f in card.findings}
    assert got.keys() == set(by.index)
    for size, v in got.items():
        assert abs(v - (by[size] - card.meta["rate"])) < 1e-9

    start = rd.start_player(30, 8, players=(2,), variants=("standard",))
    _render_clean(start)
    w0 = start.table[start.table.position == 1]["win_share"].iloc[0]
    assert any(abs(f.estimate - w0) < 1e-12 and f.null == 0.5 for f in start.findings)

    read = rd.readings(12, 9)
    _render_clean(read)
    diffs = read.table.set_index(["reading", "metric"])["difference"]
    for f in read.findings:
        label = re.search(r", '(.+)' instead of", f.quantity).group(1)
        metric = "winning_score" if f.quantity.startswith("winning score") else "start_win_share"
        assert abs(f.estimate - diffs[(label, metric)]) < 1e-12

    strong = sp.strong_play(12, 4, players=(2,), blacks=(0, 6), mix_games=6, card_players=2, blocks=3)
    _render_clean(strong)
    s0 = strong.table[(strong.table.finding == "start player") & (strong.table.metric == "win_share")
                      & (strong.table.item == "position 1")].set_index("policy")["value"]
    (moved,) = [f for f in strong.findings if "exact instead of greedy" in f.quantity and "win share" in f.quantity]
    assert abs(moved.estimate - (s0["exact"] - s0["greedy"])) < 1e-12 and moved.player == "exact vs greedy"
