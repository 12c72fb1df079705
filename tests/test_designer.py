"""Paired comparisons with common random numbers (pyradice_lab.design.compare.compare) and '<game> compare'."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import pyradice_lab as pl
from pyradice_lab.design import compare as designer
from pyradice_lab.design.robustness import game_metric

GAMES = ("purramid", "pyradice", "raft", "meerkat")


def _variant(game: str):
    """A real change to each game's components (the ones measured in docs/guide/engine.md)."""
    mod = __import__(f"pyradice_lab.{game}", fromlist=["default_components"])
    change = {"purramid": {"deal_2p": [25, 26]},
              "pyradice": {"card.Pairs.points": 6},
              "raft": {"card.1.points": 4, "card.2.points": 4},
              "meerkat": {"tile.7.values": (8, 4)}}[game]
    return mod.default_components(), mod.default_components().replace(change)


@pytest.mark.parametrize("game", GAMES)
def test_a_component_set_against_itself_differs_by_exactly_zero(game):
    base, _ = _variant(game)
    res = pl.compare(game, base, base, "mean_score", games=60, players=2, policies="greedy", rng=3)
    assert res.difference.value == 0.0 and res.difference.se == 0.0
    assert res.base == res.variant and res.n_games == 60
    assert res.variance_reduction == math.inf and res.independent_se > 0
    assert "exactly 0" in str(res)


@pytest.mark.slow
@pytest.mark.parametrize("game,metric,policies,factor", [
    ("purramid", "start_player_win", "greedy", 2.0), ("pyradice", "start_player_win", "greedy", 2.0),
    ("raft", "start_player_win", "greedy", 2.0),
    # greedy Meerkat players react to the new tile values from the first placement on, and the game amplifies
    # one different placement (every turn keeps its own dice: tests/meerkat/test_streams.py): a small gain only ...
    ("meerkat", "mean_score", "greedy", 1.0),
    # ... while players that ignore the values play the very same games (the seeds are shared)
    ("meerkat", "mean_score", "random_legal", 50.0)])
def test_the_paired_interval_is_narrower_than_independent_runs(game, metric, policies, factor):
    # measured factors (games=2000, seed 2026) are in docs/guide/engine.md; independent seeds would give ~1
    base, var = _variant(game)
    res = pl.compare(game, base, var, metric, games=200, players=2, policies=policies, rng=2026)
    assert res.difference.value != 0.0
    assert res.difference.se < res.independent_se
    assert res.variance_reduction > factor, res
    frame = res.to_frame()
    assert frame["estimate"].tolist() == ["base", "variant", "difference"]
    assert frame.attrs["variance_reduction"] == res.variance_reduction


def test_per_game_seeds_are_explicit_and_shared():
    """Block k of a run uses child k of the root SeedSequence; base and variant each get a fresh copy of it."""
    from pyradice_lab import meerkat

    base, var = _variant("meerkat")
    res = pl.compare("meerkat", base, var, "points_per_meerkat:7", games=50, players=2, policies="greedy", rng=11)
    for comp, est in ((base, res.base), (var, res.variant)):
        df = meerkat.simulate_games(50, players=2, rng=np.random.SeedSequence(11).spawn(1)[0], components=comp)
        assert est.value == df["paid_t7"].sum() / df["present_t7"].sum()


def test_ratio_metric_standard_error_is_the_delta_method():
    from pyradice_lab import purramid

    res = pl.compare("purramid", None, None, "tiles_per_turn", games=80, players=2, policies="greedy", rng=4)
    df = purramid.simulate_games(80, players=2, rng=np.random.SeedSequence(4).spawn(1)[0])
    num, den = df["tiles_on_board"].to_numpy(float), df["turns"].to_numpy(float)
    r = num.sum() / den.sum()
    se = np.std((num - r * den) / den.mean(), ddof=1) / math.sqrt(80)
    assert res.base.value == pytest.approx(r) and res.base.se == pytest.approx(se)
    from scipy.stats import t

    assert res.base.ci_low == pytest.approx(r - t.ppf(0.975, 79) * se)  # Student-t, 79 degrees of freedom


def test_until_adds_reproducible_blocks_and_stops_at_the_cap():
    base, var = _variant("meerkat")
    kw = dict(games=designer.BLOCK // 10, players=2, rng=5, policies="random_legal")
    capped = pl.compare("meerkat", base, var, "start_player_win", until=1e-6, max_games=2 * kw["games"], **kw)
    assert capped.n_games == 2 * kw["games"] and capped.reached is False and "not reached" in str(capped)
    again = pl.compare("meerkat", base, var, "start_player_win", until=1e-6, max_games=2 * kw["games"], **kw)
    assert again.difference == capped.difference
    loose = pl.compare("meerkat", base, var, "start_player_win", until=0.5, **kw)
    assert loose.n_games == kw["games"] and loose.reached is True
    plain = pl.compare("meerkat", base, var, "start_player_win", **kw)
    assert plain.difference == loose.difference and plain.reached is None


@pytest.mark.parametrize("kwargs,exc,message", [
    (dict(game="chess"), ValueError, "game must be one of purramid, pyradice, raft, meerkat, got 'chess'"),
    (dict(game=3), TypeError, "game must be a game name"),
    (dict(metric="start_player_wins"), ValueError, "did you mean 'start_player_win'"),
    (dict(metric="burst_rate"), ValueError, "is not a meerkat metric"),
    (dict(metric="seat_win"), ValueError, "metric seat_win needs K = seat"),
    (dict(metric="seat_win:7"), ValueError, "seat 7 is not in this game"),
    (dict(metric="seat_win:x"), ValueError, "the seat must be an integer"),
    (dict(metric="mean_score:2"), ValueError, "takes no argument"),
    (dict(metric="points_per_meerkat:2"), ValueError, "tile 2 is not in the game"),
    (dict(metric=None), TypeError, "metric must be a metric name"),
    (dict(games=0), ValueError, "games must be a positive integer"),
    (dict(games=True), ValueError, "games must be a positive integer"),
    (dict(until=-0.1), ValueError, "until must be a positive half-width"),
    (dict(until=float("nan")), ValueError, "until must be a positive half-width"),
    (dict(max_games=10), ValueError, "max_games caps an until= run"),
    (dict(until=0.1, max_games=5), ValueError, "max_games must be at least games"),
    (dict(options={"rng": 1}), ValueError, "options must not set rng"),
    (dict(options=[1]), TypeError, "options must be a dict"),
    (dict(options={"bogus": 1}), ValueError, "options: meerkat.simulate_games has no 'bogus' (allowed: automa"),
    (dict(base=3), TypeError, "base"),
    (dict(variant="/nonexistent/mine.toml"), ValueError, "mine.toml"),
    (dict(rng=-1), ValueError, "rng"),
])
def test_bad_inputs_raise_clear_errors(kwargs, exc, message):
    args = dict(game="meerkat", base=None, variant=None, metric="start_player_win", games=10, players=2)
    args.update(kwargs)
    with pytest.raises(exc, match=re.escape(message)):
        pl.compare(args.pop("game"), args.pop("base"), args.pop("variant"), args.pop("metric"), **args)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_lists_the_common_and_its_own_metrics(game):
    names = set(designer.metrics(game)["metric"])
    assert {"start_player_win", "seat_win", "position_win", "mean_score", "score_spread", "game_length",
            "start_player_edge"} <= names
    own = {"purramid": {"burst_rate", "tiles_per_turn"}, "pyradice": {"goal_rate", "card_points"},
           "raft": {"points_per_boat"}, "meerkat": {"points_per_meerkat"}}[game]
    assert own <= names


def test_compare_is_exported_lazily():
    import subprocess
    import sys

    code = ("import sys, pyradice_lab as pl; assert 'pyradice_lab.design.compare' not in sys.modules; "
            "pl.compare; assert 'pyradice_lab.design.compare' in sys.modules; print(pl.Comparison.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Comparison"


def test_cli_compare(tmp_path, capsys):
    from pyradice_lab.cli import main

    mine = tmp_path / "mine.toml"
    mine.write_text("[[tile]]\nnumber = 7\nvalues = [8, 4]\n", encoding="utf-8")
    out_csv = tmp_path / "cmp.csv"
    assert main(["meerkat", "compare", "--variant", str(mine), "--metric", "points_per_meerkat:7", "--games", "40",
                 "--players", "2", "--policies", "greedy", "--seed", "1", "--no-progress", "--out", str(out_csv)]) == 0
    text = capsys.readouterr().out
    assert "variant - base: " in text and "variance-reduction factor" in text and out_csv.exists()
    assert main(["meerkat", "compare", "--list-metrics"]) == 0
    assert "points_per_meerkat" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["meerkat", "compare", "--metric", "start_player_win"], "--variant PATH is required"),
    (["meerkat", "compare", "--variant", "nope.toml"], "nope.toml"),
    (["meerkat", "compare", "--variant", "V", "--metric", "bogus"], "is not a meerkat metric"),
    (["meerkat", "compare", "--variant", "V", "--until", "0"], "expected a positive number"),
    (["meerkat", "compare", "--variant", "V", "--max-games", "10"], "--max-games caps an --until run"),
    (["meerkat", "compare", "--variant", "V", "--games", "0"], "expected a positive integer"),
])
def test_cli_compare_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    from pyradice_lab.cli import main

    mine = tmp_path / "v.toml"
    mine.write_text("[[tile]]\nnumber = 7\nvalues = [8, 4]\n", encoding="utf-8")
    argv = [str(mine) if a == "V" else a for a in argv]
    try:
        code = main(argv)
    except SystemExit as exc:      # argparse's own errors
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "\n".join(err)


@pytest.mark.parametrize("players,automa", [(2, True), (3, False)])
def test_start_player_edge_is_the_meerkat_reports_paired_edge(players, automa):
    """start_player_edge = the start player's win share minus the other humans' mean, per game (the metric the
    report's robustness column checks the Meerkat seat-advantage findings with)."""
    from pyradice_lab import meerkat
    from pyradice_lab.meerkat import analysis as A

    df = meerkat.simulate_games(60, players=players, automa=automa, rng=5)
    est = game_metric("meerkat", df, "start_player_edge")
    ref = A.start_edge(df, players, automa)
    assert est.value == pytest.approx(ref.value) and est.se == pytest.approx(ref.se)


def test_start_player_edge_is_zero_sum_with_the_start_share():
    """Without an automa the win shares of a game sum to 1, so the edge is (p * share - 1) / (p - 1)."""
    from pyradice_lab import raft

    df = raft.simulate_games(80, players=3, rng=6)
    share = game_metric("raft", df, "start_player_win").value
    edge = game_metric("raft", df, "start_player_edge").value
    assert edge == pytest.approx((3 * share - 1) / 2)
