"""The Monte Carlo experiments: shapes, invariants and seeds (small sizes)."""

import numpy as np
import pytest

from pyradice_lab.pyradice.analysis import (
    available_by_turn,
    available_distribution,
    card_balance,
    first_player_advantage,
    goal_rates,
    skill_values,
)


def test_goal_rates_and_available_by_turn_share_runs():
    df, runs = goal_rates(12, 2, ("random_legal", "greedy"), rng=3, return_runs=True)
    lv = df[df.level > 0]
    assert len(lv) == 10 and lv.p_met.between(0, 1).all()
    assert (lv.p_met_ci_low >= 0).all() and (lv.p_met_ci_high <= 1).all()
    av = available_by_turn(12, 2, ("random_legal", "greedy"), rng=3, runs=runs)
    assert len(av) == 2 * 42
    first = av[av.turn == 1]
    assert (first.available == 4).all() and (first.exact_mean.dropna() == 4).all()
    dist = available_distribution(runs["greedy"][1]["choices"], "greedy")
    assert np.allclose(dist.groupby("turn").p.sum(), 1.0)
    pd_again = goal_rates(12, 2, ("random_legal", "greedy"), rng=3)
    assert pd_again.equals(df)


def test_skill_values_are_paired_and_removing_a6_costs_points():
    df = skill_values(20, 2, "greedy", rng=4)
    assert list(df.skill) == ["A2", "A3", "A4", "A5", "A6"]
    a6 = df.set_index("skill").loc["A6"]
    assert a6.score_drop_ci_low > 0          # the last-turn swap is worth points on every seed tried


def test_card_balance_and_first_player_shares():
    cards = card_balance(8, 2, "random_legal", rng=5)
    assert set(cards.card) == {"Many", "Height", "Pairs", "Big", "Small", "Loners", "Cluster", "Variety", "Spread"}
    assert (cards.mean_points >= 0).all()
    fp = first_player_advantage(30, (2, 3), "random_legal", rng=6)
    for _, d in fp.groupby("players"):
        assert d.win_share.sum() == pytest.approx(1.0)


def test_experiments_validate_input():
    with pytest.raises(ValueError, match="n_games"):
        goal_rates(1)
    with pytest.raises(ValueError, match="policy"):
        goal_rates(5, policies=("expert",))
    with pytest.raises(ValueError, match="choices"):
        available_distribution(np.zeros(3))
