"""Exact odds: availability programme vs brute force and Monte Carlo; blind goal chances vs closed forms."""

import itertools
from fractions import Fraction
from math import comb, perm

import numpy as np
import pytest

from pyradice_lab.pyradice import Quarry, available_exact, blind_goal_probability, simulate_games
from pyradice_lab.pyradice.components import default_components
from pyradice_lab.pyradice.odds import available_exact_table


def brute_force_available(turn: int) -> dict[int, Fraction]:
    """Enumerate every sequence of uniformly random takes with Quarry objects (2-player quarry)."""
    dist: dict[int, Fraction] = {}

    def walk(q, t, p):
        av = q.available()
        if t == turn:
            dist[len(av)] = dist.get(len(av), Fraction(0)) + p
            return
        for pos in av:
            nq = q.copy()
            nq.take(pos)
            walk(nq, t + 1, p / len(av))

    walk(Quarry.random(2, rng=0), 1, Fraction(1))
    return dist


def test_exact_availability_matches_brute_force():
    df = available_exact(4, 2)
    for turn in (1, 2, 3, 4):
        d = df[df.turn == turn]
        assert dict(zip(d.n_available, d.probability)) == brute_force_available(turn)
    assert available_exact_table(1) == [0, 0, 0, 0, Fraction(1)]


@pytest.mark.parametrize("players", [2, 3])
def test_exact_tables_sum_to_one(players):
    df = available_exact(6, players)
    for _, d in df.groupby("turn"):
        assert sum(d.probability, Fraction(0)) == 1


def test_monte_carlo_random_takes_agree_with_exact():
    _, arr = simulate_games(3000, 2, None, "random_legal", rng=2024, return_arrays=True)
    exact = available_exact(8, 2)
    for turn in (3, 5, 8):
        d = exact[exact.turn == turn]
        mean = float(sum(d.n_available * d.probability))
        x = arr["choices"][:, turn - 1]
        se = x.std(ddof=1) / np.sqrt(len(x))
        assert abs(x.mean() - mean) < 4 * se, (turn, x.mean(), mean, se)


def test_blind_goal_probabilities_match_closed_forms():
    assert blind_goal_probability("C6", 1) == Fraction(2, 6) ** 6           # 3 or 5 on six dice
    assert blind_goal_probability("C1", 3) == Fraction(1, 2) ** 4
    assert blind_goal_probability("C3", 2) == Fraction(perm(6, 5), 6 ** 5)   # five different values
    assert blind_goal_probability("D3", 4) == Fraction(6, 6 ** 3)
    assert blind_goal_probability("D7", 5) == Fraction(6 * 5, 36)
    # colours drawn without replacement from 12 of each of 5 colours (60 dice)
    assert blind_goal_probability("C7", 5) == Fraction(5 * 12 * 11, 60 * 59)
    # D6 no equal side-by-side colours: the 2nd die avoids the 1st's colour (48 of 59 left), the 3rd the 2nd's
    assert blind_goal_probability("D6", 5) == Fraction(48, 59)
    assert blind_goal_probability("D6", 4) == Fraction(48, 59) * Fraction(47, 58)
    comps = default_components().replace({"goal.D6": {"code": "D6", "kind": "all_colours_different", "name": "Rainbow",
                                                      "source": "reconstruction", "fit": 0.75}})
    assert blind_goal_probability("D6", 1, components=comps) == 0            # 6 dice, 5 colours
    assert blind_goal_probability("D6", 5, components=comps) == Fraction(48, 59)
    mono4 = Fraction(5 * comb(12, 3), comb(60, 3))
    assert blind_goal_probability("C7", 4) == mono4


def test_blind_goal_probability_matches_sampling():
    rng = np.random.default_rng(11)
    n = 40_000
    vals = rng.integers(1, 7, size=(n, 4))
    ok = np.all(vals[:, 1:] >= vals[:, :-1], axis=1)                      # C4 staircase on level 3
    p = float(blind_goal_probability("C4", 3))
    se = np.sqrt(p * (1 - p) / n)
    assert abs(ok.mean() - p) < 4 * se
    # brute-force oracle for the staircase: non-decreasing 4-tuples = C(6+4-1, 4)
    assert blind_goal_probability("C4", 3) == Fraction(comb(9, 4), 6 ** 4)
    assert sum(1 for t in itertools.product(range(1, 7), repeat=4) if list(t) == sorted(t)) == comb(9, 4)


def test_odds_validate_input():
    with pytest.raises(ValueError, match="turns"):
        available_exact(11)
    with pytest.raises(ValueError, match="code"):
        blind_goal_probability("E1", 1)
    with pytest.raises(ValueError, match="level"):
        blind_goal_probability("C1", 0)
