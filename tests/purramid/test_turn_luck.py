"""Purramid's turn-luck controls (issue 47 item 1): each optimal seat's realised minus solved turn values, mean 0
exactly, read off the games already played; the contract part ``controls`` with ``from_games``; their use in
exogenous_estimate, robustness (``controls=True``), the report's start-player findings and its 2-player check."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.design.controlvariates import exogenous_estimate, regression_estimate
from pyradice_lab.design.robustness import robustness
from pyradice_lab.engine import registry
from pyradice_lab.engine.controls import Controls, GameControls
from pyradice_lab.purramid import analysis
from pyradice_lab.purramid.metrics import CONTROLS, turn_luck
from pyradice_lab.purramid.sim import simulate_games


@pytest.fixture(scope="module")
def optimal2():
    return simulate_games(120, players=2, policies="optimal", rng=7)


def test_turn_luck_is_each_optimal_seats_realised_minus_solved(optimal2):
    c = turn_luck(optimal2)
    assert c.names == ("seat 1's turn luck", "seat 2's turn luck")
    for p in range(2):
        assert np.array_equal(c.values[:, p], optimal2[f"value_{p}"] - optimal2[f"expected_{p}"])
    assert np.array_equal(c.means, [0.0, 0.0])
    mixed = simulate_games(4, players=2, policies=["greedy", "optimal"], rng=1)
    assert turn_luck(mixed).names == ("seat 2's turn luck",)
    with pytest.raises(ValueError, match="'optimal'"):
        turn_luck(simulate_games(4, players=2, policies="greedy", rng=1))


def test_the_luck_has_mean_zero_and_explains_the_start_players_wins(optimal2):
    c = turn_luck(optimal2)
    se = c.values.std(axis=0, ddof=1) / np.sqrt(c.n)
    assert np.all(np.abs(c.values.mean(axis=0)) < 4 * se)
    y = (optimal2["winner"] == 0).to_numpy(float)
    e, plain = regression_estimate(y, c.values, c.means), regression_estimate(y, np.zeros((c.n, 0)), [])
    assert (plain.se / e.se) ** 2 > 1.5                      # measured 2.4 at 300 games
    assert abs(e.value - plain.value) < 3 * plain.se


def test_game_controls_take_one_source_and_check_the_players_first():
    with pytest.raises(ValueError, match="exactly one of compute and from_games"):
        GameControls(None, "nothing")
    with pytest.raises(ValueError, match="exactly one of compute and from_games"):
        GameControls(lambda *a, **k: None, "both", from_games=turn_luck)
    with pytest.raises(ValueError, match="need a seat playing 'optimal'; the seats play greedy, risk:0.35"):
        CONTROLS.check_players(["greedy", "risk:0.35"])
    CONTROLS.check_players("optimal")
    CONTROLS.check_players(["greedy", "optimal:at_least:3"])
    short = GameControls(None, "x", from_games=lambda f: Controls(("a",), np.zeros((1, 1)), [0.0]))
    with pytest.raises(ValueError, match="1 rows of controls for 2 games"):
        short.controls(pd.DataFrame({"a": [1, 2]}), 2, players=2, rng=0)
    assert registry.get_game("purramid").part("controls") is CONTROLS


def test_exogenous_estimate_reads_them_off_the_games():
    r = exogenous_estimate("purramid", "start_player_win", games=40, players=2, rng=3)
    assert r.controls == ("seat 1's turn luck", "seat 2's turn luck") and r.player == "optimal"
    assert r.cost_controls < 0.1 * r.cost_games
    with pytest.raises(ValueError, match="need a seat playing 'optimal'"):
        exogenous_estimate("purramid", "start_player_win", games=40, players=2, player="greedy")


@pytest.mark.parametrize("kw, err, word", [
    (dict(controls="yes"), TypeError, "controls must be True or False"),
    (dict(game="raft", finding="game_length > 10"), ValueError, "raft declares no controls read off its games"),
    (dict(reference_options={"layout": "A"}, variant_options={"layout": "B"}), ValueError, "one run"),
    (dict(policies="greedy"), ValueError, "need a seat playing 'optimal'"),
])
def test_robustness_refuses_bad_controls_before_any_game(kw, err, word, monkeypatch):
    from pyradice_lab.design import robustness as R

    monkeypatch.setattr(R, "_robustness_set", lambda *a: pytest.fail("a game was played"))
    args = {"game": "purramid", "finding": "start_player_win > 0.5", "reconstructions": 2, "games": 30,
            "players": 2, "controls": True, **kw}
    with pytest.raises(err, match=word):
        robustness(args.pop("game"), args.pop("finding"), **args)


def test_robustness_with_controls_regresses_every_set_on_its_games():
    kw = dict(reconstructions=2, games=40, players=2, policies="optimal", rng=5)
    plain = robustness("purramid", "start_player_win > 0.5", **kw).table
    ctl = robustness("purramid", "start_player_win > 0.5", controls=True, **kw).table
    assert list(ctl["set"]) == list(plain["set"]) and (ctl["n"] == 40).all()
    assert (ctl["controls_factor"] > 1).all() and not np.allclose(ctl["value"], plain["value"])
    assert (ctl["se"] < plain["se"]).all()
    r = robustness("purramid", "start_player_win > 0.5", controls=True, **kw)
    assert "controls_factor" not in set(r.sensitivity["choice"])      # a measurement, not a free choice
    assert "each set estimated with its games' turn-luck controls" in str(r.assumptions)


def test_the_cli_flag(capsys):
    from pyradice_lab.cli import main

    args = ["purramid", "robustness", "start_player_win > 0.5", "--players", "2", "--reconstructions", "2",
            "--games", "30", "--controls", "--no-progress"]
    assert main(args) == 0
    assert "controls_factor" in capsys.readouterr().out
    assert main(args + ["--policies", "greedy"]) == 2
    err = capsys.readouterr().err
    assert "need a seat playing 'optimal'" in err and len(err.strip().splitlines()) == 1


def test_the_start_player_finding_uses_the_luck_with_every_seat_optimal(optimal2):
    est, test = analysis.start_share(optimal2)
    assert test == "regression on the seats' turn luck (t)" and est.dist == "t" and est.df == 120 - 3
    c = turn_luck(optimal2)
    assert est.value == regression_estimate((optimal2["winner"] == 0).to_numpy(float), c.values, c.means).value
    few = optimal2.iloc[:analysis.LUCK_MIN_GAMES - 1]
    assert analysis.start_share(few)[1] == "Wilson interval"
    greedy = simulate_games(40, players=2, policies="greedy", rng=1)
    assert analysis.start_share(greedy)[1] == "Wilson interval"
    f = analysis.seat_advantage(optimal2).findings[0]
    assert f.test == "regression on the seats' turn luck (t)" and f.ci_high - f.ci_low < 0.2


def test_the_reports_two_and_four_player_checks_are_controlled_and_play_their_sizes():
    from pyradice_lab.design.checks import all_checks, game_checks, sized_for
    from pyradice_lab.engine.findings import Finding

    declared = game_checks("purramid")
    assert declared.controlled == ("purramid start 2p", "purramid start 4p")
    assert declared.unsized == ("purramid start 2p",)
    rp = {c.key: c for c in all_checks() if c.game == "purramid" and getattr(c, "policies", "") == "optimal"}
    assert rp["purramid start 2p"].controls and rp["purramid start 2p"].games == 3000
    assert rp["purramid start 4p"].controls and not rp["purramid start 3p"].controls
    claim = Finding("difference", "start player's win share, 2 players, both sides", 0.6, 0.55, 0.65, n=800,
                    null=0.5)
    assert sized_for(rp["purramid start 2p"], [claim]).games == 3000      # not sized down by the claim
    # the 4-player check is sized by its claim (the full report's finding: 0.331 [0.286, 0.376] on 240 games),
    # at most its declared 300 games a layout
    four = Finding("difference", "start player's win share, 4 players, both sides", 0.331, 0.286, 0.376, n=240,
                   null=0.25)
    assert sized_for(rp["purramid start 4p"], [four]).games == 297
    assert sized_for(rp["purramid start 4p"], [four.with_context(ci_low=0.2, ci_high=0.46)]).games == 300
    with pytest.raises(ValueError, match="controlled must name keys of report_player_games"):
        type(declared)(checks=declared.checks, games=10, controlled=("purramid start 2p",))
    with pytest.raises(ValueError, match="unsized must name declared checks"):
        type(declared)(checks=declared.checks, games=10, unsized=("nope",))


@pytest.mark.slow
def test_the_interval_covers_on_real_games():
    """Coverage at n = 30 and 100 of the controlled start-player share on Purramid's own games: runs drawn without
    replacement from a pool of 4,000 all-optimal 2-player games (side A), whose mean is the truth; and the luck's
    pool mean is 0 within 4 SE (the default ``optimal`` policy: bonus turns valued ``auto``)."""
    pool = 4000
    df = simulate_games(pool, players=2, policies="optimal", rng=470, n_jobs=2)
    c = turn_luck(df)
    se = c.values.std(axis=0, ddof=1) / np.sqrt(pool)
    assert np.all(np.abs(c.values.mean(axis=0)) < 4 * se)
    y = (df["winner"] == 0).to_numpy(float)
    truth = y.mean()
    rng = np.random.default_rng(4700)
    for n in (30, 100):
        hit, runs = 0, 2000
        for _ in range(runs):
            i = rng.choice(pool, n, replace=False)
            e = regression_estimate(y[i], c.values[i], c.means)
            hit += e.ci_low <= truth <= e.ci_high
        assert 0.93 <= hit / runs <= 0.97, (n, hit / runs)
    assert exogenous_estimate("purramid", "start_player_win", games=300, players=2, rng=0).factor > 2.0


def test_the_tables_of_all_optimal_cells_use_the_luck(optimal2):
    from pyradice_lab.engine.stats import mean_estimate, proportion_estimate
    from pyradice_lab.purramid.measures import seat_table, side_table

    c = turn_luck(optimal2)
    seats = seat_table(optimal2)
    for seat in (0, 1):
        row = seats[seats["seat"] == seat].iloc[0]
        won = (optimal2["winner"] == seat).to_numpy(float)
        assert row["p_win"] == pytest.approx(regression_estimate(won, c.values, c.means).value)
        assert row["p_win_se"] < proportion_estimate(int(won.sum()), len(won)).se
        assert row["score_se"] < mean_estimate(optimal2[f"score_{seat}"]).se
    turns = side_table(optimal2).iloc[0]
    assert turns["turns"] == pytest.approx(regression_estimate(optimal2["turns"].to_numpy(float), c.values,
                                                               c.means).value)
    greedy = simulate_games(40, players=2, policies="greedy", rng=1)
    g0 = seat_table(greedy).iloc[0]
    assert g0["p_win"] == (greedy["winner"] == 0).mean()                  # no optimal seats: the plain share
