"""The designer metrics of the component findings (Meerkat tile pay, Rocking Raft boat pay, Pyradice card
difference): hand-computed values, the findings' own numbers, intervals against the bootstrap, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pyradice_lab as pl
from pyradice_lab.design import metrics as D
from pyradice_lab.engine.metrics import Smooth
from pyradice_lab.meerkat import simulate_games as meerkat_games
from pyradice_lab.pyradice import simulate_games as pyradice_games
from pyradice_lab.raft import simulate_games as raft_games

TILES = range(3, 13)


def _estimate(game, df, metric):
    return D.metric_estimate(*D.metric_values(game, df, metric), metric)


def _smooth(game, df, metric) -> Smooth:
    name, m, arg = D._parse_metric(game, metric)
    res = m.fn(df, None, arg)
    assert isinstance(res, Smooth)
    return res


def _bootstrap_sd(smooth: Smooth, reps: int = 1000, seed: int = 5) -> float:
    """SD of the metric over bootstrap resamples of the games (the columns' rows)."""
    rng = np.random.default_rng(seed)
    x = smooth.columns
    return float(np.std([smooth.fn(x[rng.integers(0, len(x), len(x))].mean(axis=0)) for _ in range(reps)], ddof=1))


# ------------------------------------------------------------------------------------------------ Meerkat
@pytest.fixture(scope="module")
def meerkat_frame():
    return meerkat_games(600, players=3, automa=False, engine="numba", rng=11)


def test_tile_pay_excess_by_hand():
    df = meerkat_games(3, players=3, automa=False, engine="numba", rng=1).copy()
    for t in TILES:
        df[f"present_t{t}"], df[f"paid_t{t}"] = 0, 0
    df["present_t12"], df["paid_t12"] = [2, 0, 3], [11, 0, 17]      # tile 12: 28 points for 5 meerkats
    df["present_t5"], df["paid_t5"] = [1, 4, 1], [7, 10, 3]         # tile 5: 20 points for 6 meerkats
    est = _estimate("meerkat", df, "tile_pay_excess:12")
    assert est.value == pytest.approx(28 / 5 - 48 / 11, abs=1e-12)
    # delta method written out: per game (a - r_a d) / mean(d) - (b - r_b e) / mean(e)
    a, d = np.array([11, 0, 17.]), np.array([2, 0, 3.])
    b, e = np.array([18, 10, 20.]), np.array([3, 4, 4.])
    z = (a - 28 / 5 * d) / d.mean() - (b - 48 / 11 * e) / e.mean()
    assert est.se == pytest.approx(np.std(z, ddof=1) / np.sqrt(3), rel=1e-12)
    assert _estimate("meerkat", df, "tile_pay_excess:5").value == pytest.approx(20 / 6 - 48 / 11, abs=1e-12)


def test_tile_pay_excess_is_the_fairness_finding_against_its_board_mean(meerkat_frame):
    from pyradice_lab.meerkat.analysis import fairness_findings, tile_pay

    found = fairness_findings(tile_pay(meerkat_frame), len(meerkat_frame))
    assert len(found) == 2
    for f in found:
        tile = int(f.quantity.split("tile ")[1].split()[0])
        est = _estimate("meerkat", meerkat_frame, f"tile_pay_excess:{tile}")
        assert est.value == pytest.approx(f.estimate - f.null, abs=1e-12)
        ppm = _estimate("meerkat", meerkat_frame, f"points_per_meerkat:{tile}")
        assert est.value == pytest.approx(ppm.value - _estimate("meerkat", meerkat_frame, "points_per_meerkat").value)
        assert 0 < est.se < ppm.se * 1.2  # the board mean's own noise is small and positively correlated


def test_tile_pay_excess_interval_matches_the_bootstrap(meerkat_frame):
    for t in (5, 12):
        est = _estimate("meerkat", meerkat_frame, f"tile_pay_excess:{t}")
        boot = _bootstrap_sd(_smooth("meerkat", meerkat_frame, f"tile_pay_excess:{t}"))
        assert abs(est.se / boot - 1) < 0.15, (t, est.se, boot)  # 1000 resamples: the bootstrap SD itself varies by a few %


def test_a_smooth_metric_in_a_paired_comparison():
    base = pl.meerkat.default_components()
    same = pl.compare("meerkat", base, base, "tile_pay_excess:12", games=80, players=3, policies="greedy", rng=2,
                      options={"automa": False})
    assert same.difference.value == 0.0 and same.difference.se == 0.0 and same.base.se > 0
    variant = base.replace({"tile.12.values": (15, 8, 4)})
    res = pl.compare("meerkat", base, variant, "tile_pay_excess:12", games=600, players=3, policies="greedy", rng=2,
                     options={"automa": False})
    assert res.difference.ci_low > 0  # a tile worth more pays more per meerkat (players chase it, but not that much)


# ------------------------------------------------------------------------------------------------ Rocking Raft
@pytest.fixture(scope="module")
def raft_batch():
    from pyradice_lab.raft.sim import simulate

    return simulate(300, 3, rng=4, card_columns=True)


def test_card_columns_sum_to_the_per_card_totals_and_change_nothing_else(raft_batch):
    from pyradice_lab.raft.sim import simulate

    df, cards = raft_batch.games, raft_batch.cards
    m = len(cards)
    assert [df[f"completed_c{i}"].sum() for i in range(m)] == cards["completed"].tolist()
    assert [df[f"turns_held_c{i}"].sum() for i in range(m)] == cards["turns_held"].tolist()
    plain = simulate(300, 3, rng=4)
    pd.testing.assert_frame_equal(plain.games, df[plain.games.columns])
    pd.testing.assert_frame_equal(plain.cards, cards)


def test_boat_pay_by_hand():
    df = raft_games(3, players=2, rng=1, card_columns=True).copy()
    df.attrs.update(card_sizes=[2, 2, 3, 3], card_points=[2, 4, 3, 9])  # a four-card deck
    df[["completed_c0", "completed_c1", "completed_c2", "completed_c3"]] = [[1, 0, 1, 0], [1, 1, 0, 0], [0, 1, 1, 0]]
    df[["turns_held_c0", "turns_held_c1", "turns_held_c2", "turns_held_c3"]] = [[2, 1, 4, 1], [4, 2, 0, 2], [0, 3, 5, 0]]
    # turns per completion: card 0 6/2, card 1 6/2, card 2 9/2, card 3 never completed: its turns held, 3
    tpc = np.array([3, 3, 4.5, 3])
    rate2, rate3, deck = 6 / tpc[:2].sum(), 12 / tpc[2:].sum(), 18 / tpc.sum()
    assert _estimate("raft", df, "boat_pay_excess:2").value == pytest.approx(rate2 - deck, abs=1e-12)
    assert _estimate("raft", df, "boat_pay_excess:3").value == pytest.approx(rate3 - deck, abs=1e-12)
    assert _estimate("raft", df, "boat_pay_spread").value == pytest.approx(rate3 - rate2, abs=1e-12)


@pytest.mark.parametrize("metric", ["boat_pay_excess:2", "boat_pay_excess:4", "boat_pay_spread"])
def test_boat_pay_gradient_is_the_numerical_one(raft_batch, metric):
    s = _smooth("raft", raft_batch.games, metric)
    means = s.columns.mean(axis=0)
    num = np.array([(s.fn(means + h) - s.fn(means - h)) / (2 * 1e-6)
                    for h in np.eye(len(means)) * 1e-6])
    assert np.allclose(s.grad(means), num, rtol=1e-4, atol=1e-6)


def test_boat_pay_is_the_card_fairness_finding(raft_batch):
    from pyradice_lab.raft.analysis import card_rate_blocks

    rates = card_rate_blocks([raft_batch.cards]).set_index("size")
    for k in (2, 3, 4):
        assert _estimate("raft", raft_batch.games, f"boat_pay_excess:{k}").value == pytest.approx(
            rates.loc[k, "excess"], abs=1e-12)
    assert _estimate("raft", raft_batch.games, "boat_pay_spread").value == pytest.approx(rates.loc[-1, "excess"],
                                                                                      abs=1e-12)


def test_boat_pay_interval_matches_the_bootstrap(raft_batch):
    for metric in ("boat_pay_excess:2", "boat_pay_spread"):
        est = _estimate("raft", raft_batch.games, metric)
        boot = _bootstrap_sd(_smooth("raft", raft_batch.games, metric))
        assert abs(est.se / boot - 1) < 0.15, (metric, est.se, boot)


# ------------------------------------------------------------------------------------------------ Pyradice
def _lineups():
    from pyradice_lab.pyradice.components import Setup

    a = pyradice_games(2, players=2, rng=1, setup=Setup(cards=("Many", "Height", "Pairs", "Big")))
    b = pyradice_games(2, players=2, rng=2, setup=Setup(cards=("Small", "Many", "Loners", "Cluster")))
    return pd.concat([a, b], ignore_index=True).assign(game=range(4))


def test_card_points_by_name_and_difference_by_hand():
    df = _lineups()
    slot = {0: 1, 1: 1, 2: 2, 3: 2}   # Many's slot in each game
    many = [4, 6, 10, 2]              # Many's points per seat (seats 4+4, 6+6, 9+11, 0+4)
    for g, (s0, s1) in enumerate([(4, 4), (6, 6), (9, 11), (0, 4)]):
        df.loc[g, f"card{slot[g]}_s0"], df.loc[g, f"card{slot[g]}_s1"] = s0, s1
    df.loc[0:1, "card2_s0"], df.loc[0:1, "card2_s1"] = [9, 5], [9, 9]   # Height (games 0, 1): 9, 7
    df.loc[2:3, "card1_s0"], df.loc[2:3, "card1_s1"] = [1, 3], [2, 2]   # Small (games 2, 3): 1.5, 2.5
    assert _estimate("pyradice", df, "card_points:Many").value == pytest.approx(np.mean(many))
    assert _estimate("pyradice", df, "card_points:Height").value == pytest.approx(8.0)
    d = _estimate("pyradice", df, "card_points_difference:Height-Small")
    assert d.value == pytest.approx(8.0 - 2.0)
    # per game: Height's and Small's linearised values over the games that have each (half of them)
    z = np.array([9 - 8, 7 - 8, 0, 0]) / 0.5 - np.array([0, 0, 1.5 - 2, 2.5 - 2]) / 0.5
    assert d.se == pytest.approx(np.std(z, ddof=1) / 2, rel=1e-12)
    # a slot number still means the slot of the line-up (the packaged metric, unchanged)
    assert _estimate("pyradice", df, "card_points_difference:1-2").value == pytest.approx(
        _estimate("pyradice", df, "card_points:1").value - _estimate("pyradice", df, "card_points:2").value)


def test_card_points_difference_is_the_card_balance_finding():
    from pyradice_lab.engine.rng import seed_sequence
    from pyradice_lab.pyradice.analysis import CARD_GROUPS, _child, card_balance, card_findings
    from pyradice_lab.pyradice.components import Setup

    table, points = card_balance(40, 2, "greedy", rng=9, return_points=True)
    diff = card_findings(table, points)[-1]
    root = seed_sequence(9)
    frames = [pyradice_games(40, 2, Setup(cards=tuple(g)), "greedy", rng=_child(root, i))
              for i, g in enumerate(CARD_GROUPS)]
    df = pd.concat(frames, ignore_index=True).assign(game=lambda d: np.arange(len(d)))
    a, b = table.card.iloc[0], table.card.iloc[-1]
    assert diff.quantity == f"points per seat, strongest card ({a}) against the weakest ({b})"
    est = _estimate("pyradice", df, f"card_points_difference:{a}-{b}")
    assert est.value == pytest.approx(diff.estimate, abs=1e-12)
    half = (diff.ci_high - diff.ci_low) / 2
    assert abs(est.halfwidth / half - 1) < 0.15   # the finding's paired-pooled SE, by another route
    boot = _bootstrap_sd(_smooth("pyradice", df, f"card_points_difference:{a}-{b}"))
    assert abs(est.se / boot - 1) < 0.15


# ------------------------------------------------------------------------------------------------ errors
@pytest.mark.parametrize("game,metric,message", [
    ("meerkat", "tile_pay_excess", "needs tile T, e.g. tile_pay_excess:12"),
    ("meerkat", "tile_pay_excess:2", "tile 2 is not in the game"),
    ("meerkat", "tile_pay_excess:x", "tile_pay_excess takes a tile number 3..12"),
    ("pyradice", "card_points_difference", "needs A-B = two cards, e.g. card_points_difference:Height-Small"),
    ("pyradice", "card_points_difference:Many", "takes two different cards A-B"),
    ("pyradice", "card_points_difference:Many-Many", "takes two different cards A-B"),
    ("pyradice", "card_points_difference:Many-Foo", "card names in these games' line-ups|name of a card"),
    ("pyradice", "card_points:Foo", "name of a card in these games' line-ups"),
    ("raft", "boat_pay_excess", "needs K = lifeboat size"),
    ("raft", "boat_pay_excess:7", "no 7-slot lifeboats"),
    ("raft", "boat_pay_excess:big", "takes a lifeboat size"),
    ("raft", "boat_pay_spread:2", "takes no argument")])
def test_bad_metric_arguments_say_what_is_allowed(game, metric, message):
    df = {"meerkat": lambda: meerkat_games(2, players=3, automa=False, engine="numba", rng=1),
          "pyradice": lambda: pyradice_games(2, players=2, rng=1),
          "raft": lambda: raft_games(2, players=2, rng=1, card_columns=True)}[game]()
    with pytest.raises(ValueError, match=message):
        D.metric_values(game, df, metric)


def test_boat_pay_needs_the_card_columns():
    with pytest.raises(ValueError, match=r"card_columns=True"):
        D.metric_values("raft", raft_games(2, players=2, rng=1), "boat_pay_spread")
    # the readable rules record the per-card columns too, the same as the batch engine (tests/raft/test_kernel.py)
    assert "completed_turns_c0" in raft_games(2, players=2, rng=1, engine="rules", card_columns=True)
    with pytest.raises(TypeError, match="card_columns must be True or False"):
        raft_games(2, players=2, rng=1, card_columns=1)


def test_robustness_many_checks_its_arguments_and_agrees_with_robustness():
    from pyradice_lab.design.robustness import robustness, robustness_many

    with pytest.raises(TypeError, match="findings must be a list"):
        robustness_many("meerkat", "game_length > 1", reconstructions=2, games=10)
    with pytest.raises(ValueError, match="findings must not be empty"):
        robustness_many("meerkat", [], reconstructions=2, games=10)
    with pytest.raises(ValueError, match="runs must not set 'rng'"):
        robustness_many("meerkat", ["game_length > 1"], reconstructions=2, games=10, runs=[{"rng": 1}])
    with pytest.raises(TypeError, match="runs must be a list of dicts"):
        robustness_many("meerkat", ["game_length > 1"], reconstructions=2, games=10, runs={"players": 3})
    kw = dict(reconstructions=2, games=30, players=3, policies="greedy", rng=3, game_kwargs={"automa": False})
    one = robustness("meerkat", "tile_pay_excess:12 > 0", **kw)
    many = robustness_many("meerkat", ["tile_pay_excess:5 > 0", "tile_pay_excess:12 > 0"], **kw)
    pd.testing.assert_frame_equal(one.table, many[1].table)
    assert many[0].claim.metric == "tile_pay_excess:5"
