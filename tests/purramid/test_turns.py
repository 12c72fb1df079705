"""Batched turn Monte Carlo against the exact advisor; the random core."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.purramid import advisor, turns
from pyradice_lab.purramid.chance import code_rows, multisets
from pyradice_lab.purramid.components import Layout, load_layout
from pyradice_lab.purramid.odds import burst_probability

L2 = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="L2")
L4 = Layout.from_rows([[4, 6, 1, 3, 2], [8, 5, 10], [9, 7, 11], [12, 6]], name="L4")


@pytest.mark.parametrize("layout, D, y, objective", [
    (L2, 5, 1, "tiles"),
    (L4, 4, 0, "tiles"),
    (L4, 5, 0, ("at_least", 4)),
])
def test_optimal_policy_monte_carlo_matches_exact_value(layout, D, y, objective):
    exact = advisor.solver_for(layout, objective, 0.25, "exact").fresh(0, D, y, advisor.parse_objective(objective).k)
    df = turns.simulate_turns(8000, layout, policy="optimal", turn_dice=D, yarn=y, objective=objective,
                                yarn_value=0.25, bonus="exact", rng=123)
    est = turns.turn_value(df)
    assert abs(est.value - exact[0]) < 4 * est.se, (est, exact)
    burst = df["burst"].mean()
    assert abs(burst - exact[1]) < 4 * np.sqrt(exact[1] * (1 - exact[1]) / len(df)) + 1e-12


def test_human_policies_never_beat_optimal_and_same_seed_same_turns():
    exact = advisor.solver_for(L4, "tiles", 0.25, "exact").fresh(0, 5, 0)[0]
    for pol in ("greedy", "stop_after:1", "stop_after:2", "risk:0.3"):
        a = turns.simulate_turns(3000, L4, policy=pol, yarn_value=0.25, rng=9)
        b = turns.simulate_turns(3000, L4, policy=pol, yarn_value=0.25, rng=9)
        pd.testing.assert_frame_equal(a, b)
        est = turns.turn_value(a)
        assert est.value < exact + 4 * est.se
    # stopping later means more placements per turn segment
    per_seg = [turns.simulate_turns(2000, L4, policy=p, rng=1).eval("placements / segments").mean()
               for p in ("stop_after:1", "stop_after:2", "greedy")]
    assert per_seg[0] < per_seg[1] < per_seg[2]
    assert 1 <= per_seg[0] < 1.2


def test_code_rows_are_uniform_rolls():
    for d in (1, 3, 5):
        _, w = multisets(d)
        assert np.array_equal(np.bincount(code_rows(d), minlength=len(w)), w)


def test_placeable_table_matches_burst_odds():
    L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]])
    cov = L.mask_of([(0, 0), (0, 2)])
    for d in (1, 2, 5):
        tab = turns.placeable_table(L, cov, 0, d)
        free_numbers = [L.numbers[i] for i in range(L.n_spaces) if not cov >> i & 1]
        assert 1 - tab.mean() == pytest.approx(burst_probability(d, free_numbers), abs=1e-15)
    # side A with every space numbered 1..6 covered: 5 dice can be placed iff some of them sum to a free number
    side_a = load_layout("A")
    cov = sum(1 << i for i in range(side_a.n_spaces) if side_a.numbers[i] <= 6)
    free = sorted({side_a.numbers[i] for i in range(side_a.n_spaces) if not cov >> i & 1})
    assert free and min(free) >= 7
    tab = turns.placeable_table(side_a, cov, 0, 5)
    p = 1 - burst_probability(5, free)
    assert tab.mean() == pytest.approx(p, abs=1e-15)
    assert 0.5 < p < 1
    assert turns.placeable_table(side_a, 0, 0, 5).all()  # the empty side has every number 1..6
    # and Monte Carlo through the same table agrees with the exact value (fixed seed, 4 SE)
    hits = turns.placeable_rolls(200_000, tab, rng=4)
    assert abs(hits / 200_000 - p) < 4 * np.sqrt(p * (1 - p) / 200_000)
    # a board without a "2" or "3" and with only large numbers bursts more often
    hard = Layout.from_rows([[11, 9, 8], [7, 11]], name="hard")
    assert turns.placeable_table(hard, 0, 0, 5).mean() < p


def test_bad_input():
    with pytest.raises(ValueError, match="n"):
        turns.simulate_turns(0, L2)
    with pytest.raises(ValueError, match="turn_dice"):
        turns.simulate_turns(10, L2, turn_dice=6)
    with pytest.raises(ValueError, match="covered"):
        turns.simulate_turns(10, L2, covered=[(5, 5)])
    with pytest.raises(ValueError, match="policy"):
        turns.simulate_turns(10, L2, policy="lucky")


def test_optimal_at_least_policy_string_plays_its_own_objective():
    exact = advisor.solver_for(L4, ("at_least", 4), None, "auto").fresh(0, 5, 0, 4)[0]
    df = turns.simulate_turns(4000, L4, policy="optimal:at_least:4", rng=3)
    est = turns.turn_value(df)
    assert set(df["value"].unique()) <= {0.0, 1.0}
    assert abs(est.value - exact) < 4 * est.se
