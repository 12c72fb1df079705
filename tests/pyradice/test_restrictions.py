"""Restricted players (restricted play): both engines play them identically, and the restriction holds."""

import numpy as np
import pytest

from pyradice_lab.pyradice import Setup
from pyradice_lab.pyradice.geometry import PYRAMID
from pyradice_lab.pyradice.policies import Restriction, parse_policy
from pyradice_lab.pyradice.sim import simulate_games

CASES = [
    (2, ["greedy/no_goals", "lookahead/no_cards"], None),
    (3, ["lookahead/no_skills", "random_legal/no_skill_L3", "greedy/no_skill_L2/no_cards"], 5),
    (2, ["lookahead/no_goals/no_cards", "greedy/no_skill_L4"], 7),
]


@pytest.mark.parametrize("players, policies, setup_seed", CASES)
def test_fast_and_readable_engines_play_restricted_players_identically(players, policies, setup_seed):
    setup = None if setup_seed is None else Setup.random(rng=setup_seed)
    fast_df, fast = simulate_games(3, players, setup, policies, rng=40 + players, engine="fast", return_arrays=True)
    slow_df, slow = simulate_games(3, players, setup, policies, rng=40 + players, engine="python",
                                   return_arrays=True)
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key
    assert fast_df.equals(slow_df)


def test_parse_and_errors():
    assert parse_policy("greedy/no_skills") == ("greedy", Restriction(frozenset({2, 3, 4, 5, 6})))
    with pytest.raises(ValueError, match="restriction"):
        parse_policy("greedy/no_dice")
    with pytest.raises(ValueError, match="policies"):
        simulate_games(1, policies="clever/no_goals")


def test_forbidden_skills_are_never_used():
    df, arr = simulate_games(60, 2, None, ["lookahead/no_skill_L3", "lookahead"], rng=8, return_arrays=True)
    seat_of_turn = (arr["first"][:, None] + np.arange(arr["moves"].shape[1])[None, :]) % 2
    level = PYRAMID.level_of[arr["moves"][:, :, 1]]
    used = arr["moves"][:, :, 2] >= 0
    assert not (used & (seat_of_turn == 0) & (level == 3)).any()
    assert (used & (seat_of_turn == 1) & (level == 3)).any()  # the unrestricted player does use it
    df = simulate_games(30, 2, None, ["greedy/no_skills", "greedy"], rng=8)
    assert df["skills_used_s0"].sum() == 0 and df["skills_used_s1"].sum() > 0
