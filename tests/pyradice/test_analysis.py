"""The Monte Carlo experiments: shapes, invariants and seeds (small sizes)."""

import numpy as np
import pytest

from pyradice_lab.pyradice import Setup, simulate_games
from pyradice_lab.pyradice.analysis import (
    CARD_GROUPS,
    available_by_turn,
    available_distribution,
    card_balance,
    first_player_advantage,
    goal_rates,
    skill_values,
)
from pyradice_lab.pyradice.cards import card_score
from pyradice_lab.pyradice.components import default_components
from pyradice_lab.pyradice.rules import winners


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


def _child(seed: int, i: int) -> np.random.SeedSequence:
    return np.random.SeedSequence(seed, spawn_key=(i,))


def test_card_balance_equals_the_readable_scoring_of_the_same_games():
    """Every number of the table recomputed from the same seeds, each card scored by the readable rules."""
    comps = default_components()
    cards = card_balance(8, 2, "random_legal", rng=5).set_index("card")
    assert set(cards.index) == {"Many", "Height", "Pairs", "Big", "Small", "Loners", "Cluster", "Variety", "Spread"}
    per_game: dict[str, list] = {}
    per_seat: dict[str, list] = {}
    for i, group in enumerate(CARD_GROUPS):
        setup = Setup(cards=group)
        df, arr = simulate_games(8, 2, setup, "random_legal", rng=_child(5, i), return_arrays=True)
        names = comps.palette.names
        for j, name in enumerate(group):
            pts = np.array([[card_score(comps.cards[name], names.index(df[f"card{j + 1}_colour"].iloc[g]),
                                        arr["final_v"][g, s], arr["final_c"][g, s]) for s in range(2)]
                            for g in range(8)])
            assert np.array_equal(pts, arr["cards"][:, :, j]), name
            per_game.setdefault(name, []).extend(pts.mean(axis=1))
            per_seat.setdefault(name, []).extend(pts.ravel())
    for name, row in cards.iterrows():
        assert row.mean_points == pytest.approx(np.mean(per_game[name]), abs=1e-12)
        assert row.p_zero == pytest.approx(np.mean(np.array(per_seat[name]) == 0))
        assert row.max_points == max(per_seat[name]) and row.n_games == len(per_game[name])
    assert cards.loc["Many", "n_games"] == 16 and cards.loc["Big", "n_games"] == 8     # Many is in two line-ups
    assert max(per_seat["Pairs"]) % 4 == 0 and cards.loc["Big", "max_points"] > 0


def test_first_player_advantage_is_by_turn_position():
    """Shares recomputed from the same games: position 1 is the start player of each game, not seat 0."""
    fp = first_player_advantage(30, (2, 3), "random_legal", rng=6)
    for i, players in enumerate((2, 3)):
        df, arr = simulate_games(30, players, None, "random_legal", rng=_child(6, i), return_arrays=True)
        assert len(set(arr["first"])) > 1                  # the start seat varies (roll-off)
        share = np.zeros(players)
        for g in range(30):
            w = winners(list(arr["totals"][g]), list(arr["met"][g].sum(axis=1)))
            for seat in w:
                share[(seat - arr["first"][g]) % players] += 1 / len(w) / 30
        d = fp[fp.players == players].sort_values("position")
        assert np.allclose(d.win_share, share) and d.win_share.sum() == pytest.approx(1.0)
        first_scores = arr["totals"][np.arange(30), arr["first"]]
        assert d.score.iloc[0] == pytest.approx(first_scores.mean())


def test_experiments_validate_input():
    with pytest.raises(ValueError, match="n_games"):
        goal_rates(1)
    with pytest.raises(ValueError, match="policy"):
        goal_rates(5, policies=("expert",))
    with pytest.raises(ValueError, match="choices"):
        available_distribution(np.zeros(3))


def test_skill_values_under_the_search_player():
    """The skill table can be measured with the report player (the guide compares it with greedy / lookahead)."""
    from pyradice_lab.pyradice.analysis import skill_values

    df = skill_values(2, 2, "flat_mc:2", rng=3)
    assert list(df.skill) == ["A2", "A3", "A4", "A5", "A6"] and set(df.policy) == {"flat_mc:2"}
    with pytest.raises(ValueError, match="budget"):
        skill_values(2, 2, "flat_mc:0", rng=3)
    with pytest.raises(ValueError, match="policy must be one of"):
        skill_values(2, 2, "clever", rng=3)
